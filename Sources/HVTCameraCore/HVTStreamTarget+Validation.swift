import Foundation

/// What a stream target must be to be streamed to, checked once for every way one is given: the API
/// (``HVTCameraController/startStreaming(_:)``), `hvtcam stream`'s options and a preset's `streams`
/// (`hvtcam presets validate`). Each reason says what is wrong and what is taken, and never quotes a
/// secret.
extension HVTStreamTarget {
  /// The ports a URL may name.
  static let ports = 1...65_535
  /// The ports an RTSP server may listen on: 0 takes a free one.
  static let serverPorts = 0...65_535
  /// The lengths of passphrase SRT takes (`SRTO_PASSPHRASE`): from 10 to 79 characters.
  static let srtPassphraseLengths = 10...79
  /// SRT's key lengths (`pbkeylen`): 0 (from the passphrase), 16, 24 or 32 bytes.
  static let srtKeyLengths = [0, 16, 24, 32]
  /// SRT's modes.
  static let srtModes = ["caller", "listener", "rendezvous"]
  /// The seconds an HLS segment may last.
  public static let hlsSegmentDurations = 1...3600
  /// The segments an HLS playlist may list.
  public static let hlsPlaylistLengths = 1...10_000
  /// The schemes of RTSP push.
  static let rtspPushSchemes = ["rtsp", "rtspt", "rtspu", "rtsps", "rtspst", "rtspsu"]

  /// Why the target cannot be streamed to, or `nil`: a URL of the wrong scheme, without the host or port
  /// it needs, a port or an SRT parameter out of SRT's range, an RTSP path with a query, an address that
  /// is not one, an HLS segment duration or playlist length out of range.
  public var invalidReason: String? {
    switch self {
    case .rtspServer(let port, let path, let address, let credentials):
      return Self.rtspServerReason(port: port, path: path, address: address, credentials: credentials)
    case .rtspPush(let url):
      guard let parsed = StreamURL(url), Self.rtspPushSchemes.contains(parsed.scheme) else {
        let schemes = Self.rtspPushSchemes.map { $0 + "://" }.joined(separator: ", ")
        return "the RTSP URL must start with \(schemes)\(Self.scheme(of: url))"
      }
      return Self.hostAndPortReason(parsed, of: "RTSP URL")
    case .srt(let uri):
      guard let parsed = StreamURL(uri), parsed.scheme == "srt" else {
        return "the SRT URI must start with srt://\(Self.scheme(of: uri))"
      }
      return Self.srtReason(parsed)
    case .rtmp(let url):
      guard let parsed = StreamURL(url), ["rtmp", "rtmps"].contains(parsed.scheme) else {
        return "the RTMP URL must start with rtmp:// or rtmps://\(Self.scheme(of: url))"
      }
      if let reason = Self.hostAndPortReason(parsed, of: "RTMP URL") { return reason }
      if parsed.lastPathSegment == nil {
        return "the RTMP URL needs an application and a stream key: rtmp://HOST/APP/KEY"
      }
      return nil
    case .hls(_, let segmentDuration, let playlistLength):
      if !Self.hlsSegmentDurations.contains(segmentDuration) {
        return "the HLS segment duration \(segmentDuration) s is not between \(Self.hlsSegmentDurations.lowerBound) "
          + "and \(Self.hlsSegmentDurations.upperBound) seconds"
      }
      if !Self.hlsPlaylistLengths.contains(playlistLength) {
        return "the HLS playlist length \(playlistLength) is not between \(Self.hlsPlaylistLengths.lowerBound) and "
          + "\(Self.hlsPlaylistLengths.upperBound) segments"
      }
      return nil
    }
  }

  /// Why an RTSP server cannot listen so, or `nil`.
  private static func rtspServerReason(port: Int, path: String, address: String, credentials: HVTStreamCredentials?)
    -> String?
  {
    if !serverPorts.contains(port) { return "the RTSP port \(port) is not between 0 and 65535 (0: a free one)" }
    if !path.hasPrefix("/") || path.count < 2 { return "the RTSP path \"\(path)\" must start with / and name a mount" }
    if path.contains(where: { $0 == "?" || $0 == "#" }) {
      return "the RTSP path \"\(path)\" holds a query or fragment (? or #), which clients send apart from the "
        + "path: none would find the mount"
    }
    if path.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true }) {
      return "the RTSP path \"\(path)\" holds a space or a control character"
    }
    if !isIPAddress(address) && address != "localhost" {
      return "the RTSP server's address \"\(address)\" is not an IP address (127.0.0.1, 0.0.0.0, [::1], [::]) "
        + "or localhost"
    }
    if let credentials, credentials.user.isEmpty || credentials.password.isEmpty || credentials.user.contains(":") {
      return "the RTSP credentials need a user without a colon and a password"
    }
    return nil
  }

  /// Why an SRT URI cannot be streamed to, or `nil`: its port, mode, host, latency, passphrase and key
  /// length as `srtsink` reads them.
  private static func srtReason(_ url: StreamURL) -> String? {
    let mode = url.value("mode") ?? "caller"
    if !srtModes.contains(mode) { return "the SRT mode \"\(mode)\" is not caller, listener or rendezvous" }
    if mode != "listener" && url.host.isEmpty {
      return "the SRT URI names no host to call: srt://HOST:PORT calls one, srt://:PORT?mode=listener waits for callers"
    }
    if let reason = hostAndPortReason(url, of: "SRT URI", hostNeeded: false, portNeeded: true) { return reason }
    if let latency = url.value("latency"), latency.isEmpty || latency.count > 9 || !latency.allSatisfy(\.isASCIIDigit) {
      return "the SRT latency \"\(latency)\" is not a whole number of milliseconds from 0"
    }
    if let passphrase = url.value("passphrase"), !srtPassphraseLengths.contains(passphrase.count) {
      return "the SRT passphrase has \(passphrase.count) characters: SRT takes 10 to 79 "
        + "(its key is derived from at least 10), or none for an unencrypted stream"
    }
    if let length = url.value("pbkeylen"), !srtKeyLengths.contains(Int(length) ?? -1) {
      return "the SRT key length \"\(length)\" is not 0, 16, 24 or 32"
    }
    return nil
  }

  /// Why `url` lacks a host (when `hostNeeded`), a port (when `portNeeded`), or has a port out of range or
  /// a bracketed host that is not an IPv6 address, or `nil`.
  private static func hostAndPortReason(
    _ url: StreamURL, of kind: String, hostNeeded: Bool = true, portNeeded: Bool = false
  ) -> String? {
    if hostNeeded && url.host.isEmpty { return "the \(kind) names no server" }
    if url.portIsMalformed { return "the \(kind)'s port is not a number" }
    if let port = url.port, !ports.contains(port) { return "the \(kind)'s port \(port) is not between 1 and 65535" }
    if portNeeded && url.port == nil { return "the \(kind) names no port" }
    if (url.hostIsBracketed || url.host.contains(":")) && !isIPAddress(url.host) {
      return "the \(kind)'s host [\(url.host)] is not an IPv6 address"
    }
    return nil
  }

  /// Whether `text` is an IPv4 or IPv6 address (`inet_pton`).
  static func isIPAddress(_ text: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
  }

  /// What a URL that is not of its target's kind starts with, to say so without quoting the rest (which
  /// may hold a secret): ` (this one starts with "http://")`, or ` (this one has no scheme)`.
  static func scheme(of url: String) -> String {
    guard let separator = url.range(of: "://") else { return " (this one has no scheme)" }
    return " (this one starts with \"\(url[..<separator.upperBound])\")"
  }

  /// Why the target cannot run beside `earlier` (a stream asked for before it), or `nil`: it is the same
  /// target, or a server on the same port (one RTSP server serves one path; one SRT listener per port),
  /// or an HLS stream into the same folder.
  public func conflict(with earlier: HVTStreamTarget) -> String? {
    switch (self, earlier) {
    case (.rtspServer(let port, _, _, _), .rtspServer(let other, _, _, _)) where port != 0 && port == other:
      return "the RTSP port \(port) is served already, by \(earlier): one RTSP server serves one path"
    case (.srt, .srt) where listeningAddress != nil && earlier.listeningAddress != nil:
      let (port, other) = (StreamURL(srtSinkURI ?? "")?.port, StreamURL(earlier.srtSinkURI ?? "")?.port)
      return port != nil && port == other ? "the SRT port \(port ?? 0) is listened on already, by \(earlier)" : nil
    case (.hls(let folder, _, _), .hls(let other, _, _))
    where folder.standardizedFileURL.path == other.standardizedFileURL.path:
      return "the HLS folder \(folder.path) is written already, by another stream"
    default:
      return self == earlier ? "it is streamed to already" : nil
    }
  }
}
