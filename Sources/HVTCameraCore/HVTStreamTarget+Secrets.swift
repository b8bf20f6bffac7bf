import Foundation

extension HVTStreamTarget {
  /// What a secret is shown as: `***`.
  public static let mask = "***"

  /// The query parameters whose values are secrets (compared without case): SRT's `passphrase` and
  /// `streamid` (which services use for keys and users), and the names URLs commonly carry keys and
  /// tokens in.
  static let secretQueryNames: Set<String> = [
    "passphrase", "streamid", "password", "pass", "pwd", "key", "secret", "token", "auth", "sig", "signature",
  ]

  /// The values the target holds that must never be printed, none empty: an RTSP server's password; a
  /// URL's password (`USER:PASSWORD@`); the values of its query's secret parameters (an SRT
  /// `passphrase`, `streamid`, a `key`, a `token`…); an RTMP URL's stream key (its path's last segment,
  /// `rtmp://HOST/APP/KEY`). ``description`` shows each as ``mask``, and the engine's messages, events
  /// and logs about the stream have them taken out (``masking(_:)``).
  public var secrets: [String] {
    switch self {
    case .rtspServer(_, _, _, let credentials):
      return credentials.map { [$0.password] }?.filter { !$0.isEmpty } ?? []
    case .rtspPush(let url), .srt(let url), .rtmp(let url):
      return StreamURL(url)?.secrets(secretNames: Self.secretQueryNames, keyInPath: hasKeyInPath) ?? []
    case .hls:
      return []
    }
  }

  /// `text` with each of the target's ``secrets`` replaced by ``mask``, the longest first (so that a
  /// secret holding another is masked whole).
  public func masking(_ text: String) -> String {
    Self.masking(text, secrets: secrets)
  }

  /// `text` with each of `secrets` replaced by ``mask``, the longest first, wherever it stands on its own:
  /// not where it is part of a longer word (a stream key `cam` leaves `hvtcam` alone, and is masked in
  /// `rtmp://host/live/cam`).
  public static func masking(_ text: String, secrets: some Sequence<String>) -> String {
    secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }.reduce(text) { text, secret in
      var masked = ""
      var rest = text[...]
      while let found = rest.range(of: secret) {
        let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
        let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
        let joined =
          (secret.first.map(isWordCharacter) == true && before.map(isWordCharacter) == true)
          || (secret.last.map(isWordCharacter) == true && after.map(isWordCharacter) == true)
        masked += rest[..<found.lowerBound] + (joined ? rest[found] : mask[...])
        rest = rest[found.upperBound...]
      }
      return masked + rest
    }
  }

  /// A letter or digit: what a word, and a secret's edge, is made of.
  private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }

  /// `url` as ``description`` shows it: its password, secret query values and, for RTMP, its key masked.
  /// Of a URL that does not parse, whose secrets cannot be told, only its scheme is shown: `htp://…`.
  package func masked(_ url: String) -> String {
    guard let parsed = StreamURL(url) else {
      return url.range(of: "://").map { url[..<$0.upperBound] + "…" } ?? "(not a URL)"
    }
    return parsed.masked(Self.mask, secretNames: Self.secretQueryNames, keyInPath: hasKeyInPath).text
  }

  /// The same target with its secrets masked, to be shown (a `gst-launch-1.0` line), never streamed to.
  package var masked: HVTStreamTarget {
    switch self {
    case .rtspServer(let port, let path, let address, let credentials):
      .rtspServer(
        port: port, path: path, address: address,
        credentials: credentials.map { HVTStreamCredentials(user: $0.user, password: Self.mask) })
    case .rtspPush(let url): .rtspPush(url: masked(url))
    case .srt(let uri): .srt(uri: masked(uri))
    case .rtmp(let url): .rtmp(url: masked(url))
    case .hls: self
    }
  }

  /// Whether the URL's path ends in a stream key: an RTMP ingest's `rtmp://HOST/APP/KEY`.
  private var hasKeyInPath: Bool {
    if case .rtmp = self { true } else { false }
  }
}
