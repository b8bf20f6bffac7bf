import Glibc

/// A system call that failed: its name and the `errno` it left, with the system's text for it. The
/// package's one place where an `errno` becomes words (`strerror`).
///
/// Made right after the failing call, so that the default `code`, the current `errno`, is that call's:
/// `guard fd >= 0 else { throw SystemCallError("open") }`.
package struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call that failed, e.g. `open` or `VIDIOC_QUERYCAP`.
  package var call: String
  /// The `errno` it failed with.
  package var code: Int32

  /// The failure of `call` with `code` (by default the current `errno`).
  package init(_ call: String, code: Int32 = errno) {
    self.call = call
    self.code = code
  }

  /// The system's text for `code`, e.g. `No such file or directory`.
  package var text: String { Self.text(code) }

  /// The system's text with the number, e.g. `No such file or directory (errno 2)`: what file errors
  /// show users.
  package var reason: String { Self.reason(code) }

  /// `open: No such file or directory (errno 2)`.
  package var description: String { "\(call): \(reason)" }

  /// The system's text for `code` (`strerror`).
  package static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The system's text for `code` with the number, e.g. `No such file or directory (errno 2)`: for a
  /// failure of one of several calls (opening, writing, renaming a file), where the call is not named.
  package static func reason(_ code: Int32 = errno) -> String { "\(text(code)) (errno \(code))" }
}
