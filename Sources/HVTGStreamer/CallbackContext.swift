import Foundation

/// A Swift closure handed to GStreamer as a C callback's user data (`gpointer`), retained for as long as
/// GStreamer holds it: ``retained(_:)`` gives the pointer, ``callback(from:)`` reads it back on
/// GStreamer's thread, and ``release(_:)`` is the `GDestroyNotify`.
///
/// The closure is published and read under one process-wide pthread lock (held for a pointer read):
/// GStreamer hands the pointer over under GLib's own locks, futexes that ThreadSanitizer cannot see, so
/// without it every callback would look like a race under `swift test --sanitize=thread`. The lock
/// cannot be the context's own, whose address would be published the same unseen way.
///
/// `@unchecked Sendable`: its one property is written before the context is published, under the lock, and only read
/// after.
final class CallbackContext<Callback>: @unchecked Sendable {
  private let stored: Callback

  private init(_ callback: Callback) {
    stored = callback
    // Releases what was written so far to the thread that takes the lock in `callback(from:)`.
    publication.lock()
    publication.unlock()
  }

  /// A new retained context for `callback`, as user data.
  static func retained(_ callback: Callback) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(CallbackContext(callback)).toOpaque()
  }

  /// The closure behind user data made by ``retained(_:)``.
  static func callback(from data: UnsafeMutableRawPointer) -> Callback {
    publication.lock()
    defer { publication.unlock() }
    return Unmanaged<CallbackContext>.fromOpaque(data).takeUnretainedValue().stored
  }

  /// Releases user data made by ``retained(_:)``: the `GDestroyNotify`.
  static func release(_ data: UnsafeMutableRawPointer?) {
    releaseCallbackContext(data)
  }
}

/// Releases user data made by ``CallbackContext/retained(_:)``, whatever its closure's type: a
/// `GClosureNotify` for `g_signal_connect_data`, which cannot be generic.
func releaseCallbackContext(_ data: UnsafeMutableRawPointer?) {
  if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

/// The lock that publishes every ``CallbackContext`` to GStreamer's threads. A bare lock, not HVTSupport's
/// `Locked`: it guards no value, and ThreadSanitizer took the in-place accesses to a `Locked<Void>`'s empty
/// value, at the box's own address, for races with other threads' reads of the box.
private let publication = NSLock()
