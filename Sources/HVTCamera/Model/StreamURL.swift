/// A stream target's URL taken apart as `scheme://[user[:password]@]host[:port][/path][?query]`, the
/// form `rtspclientsink`, `srtsink` and `rtmp2sink` read (an IPv6 host in brackets, kept here without
/// them). The validation, the masking of secrets and the URIs given to the sinks all read it.
struct StreamURL: Sendable, Hashable {
  /// One `name=value` of the query, in order (a name without `=` has an empty value).
  struct QueryItem: Sendable, Hashable {
    var name: String
    var value: String
  }

  var scheme: String
  var user: String?
  var password: String?
  /// The host, an IPv6 address without its brackets; empty when left out (`srt://:7001`).
  var host: String
  /// The port as written, digits only; `nil` when left out.
  var port: Int?
  /// Whether a port was written that is not digits (`:80a`, `:-1`, `:`).
  var portIsMalformed = false
  /// From the `/` after the authority up to the query; empty when there is none.
  var path: String
  var query: [QueryItem]

  /// Takes `text` apart; `nil` when it is not `scheme://authority…`.
  init?(_ text: String) {
    guard let separator = text.range(of: "://"), !text[..<separator.lowerBound].isEmpty else { return nil }
    scheme = text[..<separator.lowerBound].lowercased()
    var rest = text[separator.upperBound...]
    var queryText: Substring?
    if let mark = rest.firstIndex(of: "?") {
      queryText = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    path = String(rest[slash...])
    var authority = rest[..<slash]
    if let at = authority.lastIndex(of: "@") {
      let userInfo = authority[..<at]
      authority = authority[authority.index(after: at)...]
      if let colon = userInfo.firstIndex(of: ":") {
        user = String(userInfo[..<colon])
        password = String(userInfo[userInfo.index(after: colon)...])
      } else {
        user = String(userInfo)
      }
    }
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      guard after.isEmpty || after.hasPrefix(":") else { return nil }
      portText = after.isEmpty ? nil : after.dropFirst()
    } else if let colon = authority.lastIndex(of: ":") {
      host = String(authority[..<colon])
      portText = authority[authority.index(after: colon)...]
    } else {
      host = String(authority)
    }
    if let portText {
      if !portText.isEmpty, portText.count <= 9, portText.allSatisfy(\.isASCIIDigit) {
        port = Int(portText)
      } else {
        portIsMalformed = true
      }
    }
    query = (queryText?.split(separator: "&", omittingEmptySubsequences: true) ?? []).map { item in
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return QueryItem(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
    }
  }

  /// The value of the query's last `name`, if any.
  func value(_ name: String) -> String? { query.last { $0.name == name }?.value }

  /// The host as a URL writes it: an IPv6 address in brackets.
  var hostInURL: String { Self.hostInURL(host) }

  /// `host` as a URL writes it: an IPv6 address (one with a colon) in brackets.
  static func hostInURL(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

  /// The URL written out again, `password` and each query value of `secrets` replaced as `replacing`
  /// says (by default kept).
  func text(replacing replace: (_ secret: String) -> String = { $0 }, secrets: Set<String> = []) -> String {
    var text = scheme + "://"
    if let user {
      text += user + (password.map { ":" + replace($0) } ?? "") + "@"
    }
    text += hostInURL + (port.map { ":\($0)" } ?? "") + path
    if !query.isEmpty {
      text +=
        "?"
        + query.map { $0.name + "=" + (secrets.contains($0.name) ? replace($0.value) : $0.value) }
        .joined(separator: "&")
    }
    return text
  }
}

extension Character {
  /// An ASCII digit, 0 to 9 (not the other scripts' digits `isNumber` takes).
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
