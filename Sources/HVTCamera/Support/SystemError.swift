import Glibc

/// The system's words for an `errno` value, as errors show them: `No space left on device (errno 28)`.
enum SystemError {
  /// `strerror(3)` of `code` (the current `errno` by default), with the number.
  static func reason(_ code: Int32 = errno) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}
