import Foundation
import HVTSupport

/// The value of an option that may hold a secret (`--rtsp-credentials`, `--rtsp-push`, `--srt`, `--rtmp`),
/// read where it is kept out of `ps`: `env:NAME`, the environment variable `NAME` (which only the same
/// user and root can read in `/proc`); `file:PATH`, the first line of the file (best readable by its
/// owner only); anything else, the value as given on the command line, where every user of the machine
/// can read it.
struct SecretOption {
  /// The option's value.
  let value: String
  /// Whether it was given on the command line as it is.
  let onCommandLine: Bool

  /// The longest file read for a value.
  static let maximumFileSize = 65_536

  /// Reads `option` of `arguments`, or `nil` when it is not given; a variable that is not set, a file
  /// that cannot be read or an empty value is a usage error of `command`.
  init?(_ option: String, of arguments: ParsedArguments, command: String) throws {
    guard let given = arguments[option] else { return nil }
    if given.hasPrefix("env:") {
      let name = String(given.dropFirst(4))
      guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
        throw UsageError("\(command): \(option) \(given): the environment has no \(name), or it is empty")
      }
      (self.value, onCommandLine) = (value, false)
    } else if given.hasPrefix("file:") {
      value = try Self.firstLine(of: String(given.dropFirst(5)), option: option, command: command)
      onCommandLine = false
    } else {
      (value, onCommandLine) = (given, true)
    }
  }

  /// The first line of the file at `path`, without its line break; a usage error when it cannot be read
  /// or is empty.
  private static func firstLine(of path: String, option: String, command: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw UsageError("\(command): \(option) file:\(path): cannot be read (\(SystemCallError.text(errno)))")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: maximumFileSize) ?? Data()
    } catch {
      throw UsageError("\(command): \(option) file:\(path): cannot be read (\(SystemCallError.reason(of: error)))")
    }
    let line =
      String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      .first.map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) } ?? ""
    guard !line.isEmpty else { throw UsageError("\(command): \(option) file:\(path): its first line is empty") }
    return line
  }
}
