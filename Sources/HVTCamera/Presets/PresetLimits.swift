/// The bounds a preset must keep, so that reading and checking any file — however broken or hostile —
/// takes bounded time and stack. A preset is about a kilobyte, three levels deep; the limits are far above
/// that and far below what breaks the recursive parsers (ours for JSON, GStreamer's for caps and values).
enum PresetLimits {
  /// The largest preset file or text, in bytes (1 MiB).
  static let maxBytes = 1 << 20
  /// The deepest nesting of JSON arrays and objects, and of brackets (`{ [ ( <`) in caps and property values.
  static let maxNesting = 32

  /// What is wrong with a text nested too deeply.
  static let nestingMessage = "nesting deeper than \(maxNesting)"
  /// What is wrong with a file that is too large.
  static let sizeMessage = "larger than \(maxBytes) bytes"

  /// The issue of a text longer than ``maxBytes``: the file, without a place in it.
  static func sizeIssue(file: String) -> HVTPresetIssue {
    HVTPresetIssue(file: file, keyPath: "", message: sizeMessage)
  }

  /// The character offset of the first bracket in `text` that opens a level deeper than ``maxNesting``,
  /// if any. Brackets are counted wherever they are (also in quotes), as GStreamer's parsers might read
  /// them; a closing bracket closes a level whatever its kind.
  static func tooDeepOffset(in text: String) -> Int? {
    var depth = 0
    for (offset, character) in text.enumerated() {
      switch character {
      case "{", "[", "(", "<":
        depth += 1
        if depth > maxNesting { return offset }
      case "}", "]", ")", ">":
        depth = max(0, depth - 1)
      default:
        continue
      }
    }
    return nil
  }
}
