import Foundation

/// A value behind a lock, shareable by reference: what probe callbacks and bus handlers capture to record
/// facts from GStreamer's threads, and the one box the controller's snapshot lives in.
///
/// The lock is a pthread mutex (`NSLock`), not `Synchronization.Mutex`: on Linux the latter waits on a
/// futex inside a prebuilt library that ThreadSanitizer cannot see, so every value it guards looks racy
/// under `swift test --sanitize=thread`.
///
/// `@unchecked Sendable`: its value is read and written only under its lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// A weak reference that can cross threads, for callbacks that must not keep their target alive.
final class WeakReference<Target: AnyObject & Sendable>: Sendable {
  nonisolated(unsafe) private(set) weak var target: Target?

  init(_ target: Target) {
    self.target = target
  }
}
