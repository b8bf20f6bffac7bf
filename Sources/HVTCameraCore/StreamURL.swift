/// A stream target's URL taken apart as `scheme://[user[:password]@]host[:port][/path][?query]`, the
/// form `rtspclientsink`, `srtsink` and `rtmp2sink` read (an IPv6 host in brackets, kept here without
/// them). The validation, the masking of secrets and the URIs given to the sinks all read it.
package struct StreamURL: Sendable, Hashable {
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
  /// Whether the host was written in brackets, as only an IPv6 address may be.
  var hostIsBracketed = false
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
      hostIsBracketed = true
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
  package var hostInURL: String { Self.hostInURL(host) }

  /// `host` as a URL writes it: an IPv6 address (one with a colon) in brackets.
  package static func hostInURL(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

  /// The URL written out again.
  var text: String {
    var text = scheme + "://"
    if let user { text += user + (password.map { ":" + $0 } ?? "") + "@" }
    text += hostInURL + (port.map { ":\($0)" } ?? "") + path
    if !query.isEmpty { text += "?" + query.map { $0.name + "=" + $0.value }.joined(separator: "&") }
    return text
  }

  /// The last segment of the path when the path has two or more (`/APP/KEY`): where an RTMP URL holds
  /// its stream key.
  var lastPathSegment: String? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    return segments.count >= 2 ? String(segments[segments.count - 1]) : nil
  }

  /// The same URL with `mask` in place of the password, of the values of the query's `secretNames`
  /// and, with `keyInPath`, of the path's last segment (``lastPathSegment``).
  package func masked(_ mask: String, secretNames: Set<String>, keyInPath: Bool) -> StreamURL {
    var masked = self
    if masked.password != nil { masked.password = mask }
    for index in masked.query.indices where secretNames.contains(masked.query[index].name.lowercased()) {
      masked.query[index].value = mask
    }
    if keyInPath, let key = lastPathSegment, let range = path.range(of: key, options: .backwards) {
      masked.path.replaceSubrange(range, with: mask)
    }
    return masked
  }

  /// What ``masked(_:secretNames:keyInPath:)`` takes out: the password, the secret query values, the
  /// path's key; none empty.
  func secrets(secretNames: Set<String>, keyInPath: Bool) -> [String] {
    let values =
      [password] + query.filter { secretNames.contains($0.name.lowercased()) }.map(\.value)
      + [keyInPath ? lastPathSegment : nil]
    return values.compactMap { $0 }.filter { !$0.isEmpty }
  }
}

extension Character {
  /// An ASCII digit, 0 to 9 (not the other scripts' digits `isNumber` takes).
  package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
