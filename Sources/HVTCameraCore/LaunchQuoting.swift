/// Quoting for `gst-launch-1.0` lines, in two layers: the launch syntax's own double quotes around a
/// property value, then POSIX shell single quotes around each word, so that a value with spaces, quotes,
/// `!`, `=` or any other character reaches the element exactly as given.
package enum LaunchQuoting {
  /// Characters that stand bare in both layers.
  private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/+-")

  /// A property value as the launch parser reads it: bare when plain, else in double quotes with `\` and
  /// `"` escaped by a backslash (the parser removes one level of backslashes).
  package static func launchValue(_ value: String) -> String {
    if !value.isEmpty, value.allSatisfy(plain.contains) { return value }
    return doubleQuoted(value)
  }

  /// A string field's value in a `GstStructure` text (`gst_structure_from_string`, as `taginject`'s
  /// `tags` parses it): typed as a string and double-quoted, so that no character of it is syntax.
  package static func structureString(_ value: String) -> String { "(string)" + doubleQuoted(value) }

  /// `value` in double quotes, with `\` and `"` escaped by a backslash.
  private static func doubleQuoted(_ value: String) -> String {
    var quoted = "\""
    for character in value {
      if character == "\\" || character == "\"" { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted + "\""
  }

  /// A word as a POSIX shell passes it on: bare when plain (`=` and `,` included) or the link `!`, else
  /// in single quotes, with each `'` written as `'\''`.
  package static func shellWord(_ word: String) -> String {
    if word == "!" || (!word.isEmpty && word.allSatisfy({ plain.contains($0) || $0 == "=" || $0 == "," })) {
      return word
    }
    return "'" + word.replacingAll("'", with: "'\\''") + "'"
  }
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
