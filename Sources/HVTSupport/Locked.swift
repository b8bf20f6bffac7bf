import Foundation

/// A value behind a lock, shareable by reference: what probe callbacks and bus handlers capture to record
/// facts from GStreamer's threads, the box the controller's snapshot lives in, and the state of the
/// command line's signal handlers and of the tests' helpers. The package's one lock type.
///
/// The lock is a pthread mutex (`NSLock`), not `Synchronization.Mutex`: on Linux the latter waits on a
/// futex inside a prebuilt library that ThreadSanitizer cannot see, so every value it guards looks racy
/// under `swift test --sanitize=thread`.
///
/// `@unchecked Sendable`: its value is read and written only under its lock.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  /// A box holding `value`.
  package init(_ value: Value) {
    stored = value
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&stored)
  }

  /// A copy of the value now.
  package var value: Value { withLock { $0 } }
}
