import Foundation
import HVTSupport

/// Reads a preset file's text with POSIX calls, so that every failure says the path and the system's
/// reason with its `errno`, at most ``PresetLimits/maxBytes`` are ever read (a link to `/dev/zero` is
/// just too large), and nothing waits (a FIFO is opened without blocking and reads as empty).
enum PresetFile {
  /// The file's text, checked to be UTF-8; `file` names it in errors.
  static func text(of url: URL, file: String) throws(HVTPresetError) -> String {
    let bytes = try readBytes(url.path, file: file)
    guard bytes.count <= PresetLimits.maxBytes else {
      throw HVTPresetError(issues: [PresetLimits.sizeIssue(file: file)])
    }
    return try decodeUTF8(bytes, file: file)
  }

  /// Up to one byte more than the limit, so that a larger file is told from one at the limit.
  private static func readBytes(_ path: String, file: String) throws(HVTPresetError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(file: file) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count <= PresetLimits.maxBytes {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw failure(file: file) }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return bytes
  }

  /// `cannot read the file: No such file or directory (errno 2)`, from the current `errno`.
  private static func failure(file: String) -> HVTPresetError {
    HVTPresetError(issues: [
      HVTPresetIssue(file: file, keyPath: "", message: "cannot read the file: \(SystemCallError.reason())")
    ])
  }

  /// The bytes as text; invalid UTF-8 is reported where it starts: on the line of the valid text before
  /// it, one column past that text's last character.
  private static func decodeUTF8(_ bytes: [UInt8], file: String) throws(HVTPresetError) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var valid = String.UnicodeScalarView()
    while case .scalarValue(let scalar) = decoder.decode(&iterator) { valid.append(scalar) }
    let lines = String(valid).split(separator: "\n", omittingEmptySubsequences: false)
    throw HVTPresetError(issues: [
      HVTPresetIssue(
        file: file, line: lines.count, column: (lines.last?.count ?? 0) + 1, keyPath: "",
        message: "syntax error: the file is not UTF-8 text")
    ])
  }
}
