import Synchronization

/// A value behind a lock, shareable by reference: what probe callbacks and bus handlers capture to record
/// facts from GStreamer's threads.
final class Locked<Value>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
    try mutex.withLock(body)
  }
}

/// A weak reference that can cross threads, for callbacks that must not keep their target alive.
final class WeakReference<Target: AnyObject & Sendable>: Sendable {
  nonisolated(unsafe) private(set) weak var target: Target?

  init(_ target: Target) {
    self.target = target
  }
}
