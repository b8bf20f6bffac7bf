import Dispatch
import Foundation
import HVTCamera

/// A wait of the command line that took longer than its bound.
struct WaitTimedOut: Error, CustomStringConvertible {
  /// What was waited for, e.g. "photo 3 of 5".
  let what: String
  let seconds: Double
  var description: String { "no \(what) within \(String(format: "%.3g", seconds)) s" }
}

/// Runs `operation` and returns its result, or throws ``WaitTimedOut`` once `seconds` have passed
/// without one (cancelling it). Every wait of the command line goes through this, or through a library
/// call that has a bound of its own.
func bounded<Value: Sendable>(
  _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  let waiter = OnceContinuation<Value>()
  return try await withCheckedThrowingContinuation { continuation in
    waiter.set(continuation)
    let task = Task {
      do {
        waiter.resume(with: .success(try await operation()))
      } catch {
        waiter.resume(with: .failure(error))
      }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      if waiter.resume(with: .failure(WaitTimedOut(what: what, seconds: seconds))) { task.cancel() }
    }
  }
}

/// A continuation resumed by whichever of several parties comes first.
///
/// `@unchecked Sendable`: its one variable is read and written under `lock`.
private final class OnceContinuation<Value: Sendable>: @unchecked Sendable {
  /// Guarded by `lock` (a pthread mutex, which ThreadSanitizer sees, unlike `Synchronization.Mutex`).
  private var continuation: CheckedContinuation<Value, any Error>?
  private let lock = NSLock()

  func set(_ continuation: CheckedContinuation<Value, any Error>) {
    lock.withLock { self.continuation = continuation }
  }

  /// Resumes the continuation if nobody has yet; returns whether this call did.
  @discardableResult
  func resume(with result: Result<Value, any Error>) -> Bool {
    guard let continuation = lock.withLock({ self.continuation.take() }) else { return false }
    continuation.resume(with: result)
    return true
  }
}
