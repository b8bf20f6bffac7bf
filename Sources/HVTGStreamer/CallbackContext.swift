import Foundation

/// A Swift closure handed to GStreamer as a C callback's user data (`gpointer`), retained for as long as
/// GStreamer holds it: ``retained(_:)`` gives the pointer, ``callback(from:)`` reads it back on
/// GStreamer's thread, and ``release(_:)`` is the `GDestroyNotify`.
///
/// The closure is published and read under a pthread lock: GStreamer hands the pointer over under GLib's
/// own locks, futexes that ThreadSanitizer cannot see, so without it every callback would look like a
/// race under `swift test --sanitize=thread`.
final class CallbackContext<Callback>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Callback?

  private init(_ callback: Callback) {
    lock.lock()
    stored = callback
    lock.unlock()
  }

  /// A new retained context for `callback`, as user data.
  static func retained(_ callback: Callback) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(CallbackContext(callback)).toOpaque()
  }

  /// The closure behind user data made by ``retained(_:)``.
  static func callback(from data: UnsafeMutableRawPointer) -> Callback {
    let context = Unmanaged<CallbackContext>.fromOpaque(data).takeUnretainedValue()
    context.lock.lock()
    defer { context.lock.unlock() }
    return context.stored!
  }

  /// Releases user data made by ``retained(_:)``: the `GDestroyNotify`.
  static func release(_ data: UnsafeMutableRawPointer?) {
    if let data { Unmanaged<CallbackContext>.fromOpaque(data).release() }
  }
}
