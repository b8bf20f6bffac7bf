import Foundation

extension SystemCallError {
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
