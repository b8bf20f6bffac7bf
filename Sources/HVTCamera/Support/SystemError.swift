import Foundation

/// The system's words for an `errno` value, as errors show them: `No space left on device (errno 28)`;
/// for the targets of this package (`package`), `hvtcam` too.
package enum SystemError {
  /// `strerror(3)` of `code` (the current `errno` by default), with the number.
  package static func reason(_ code: Int32 = errno) -> String { "\(String(cString: strerror(code))) (errno \(code))" }

  /// A Foundation file operation's error in the system's words: the `errno` under it (a `CocoaError`'s
  /// underlying POSIX error, or a POSIX error itself) as ``reason(_:)`` gives it, else its description.
  package static func reason(of error: any Error) -> String {
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return reason(Int32(error.code)) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return reason(Int32(underlying.code))
    }
    return error.localizedDescription
  }
}
