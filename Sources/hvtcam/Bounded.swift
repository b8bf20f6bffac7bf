import Dispatch
import Foundation
import HVTCamera
import HVTSupport

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
  let outcome = Outcome<Value>()
  let task = Task {
    do {
      outcome.finish(.success(try await operation()))
    } catch {
      outcome.finish(.failure(error))
    }
  }
  DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
    if outcome.finish(.failure(WaitTimedOut(what: what, seconds: seconds))) { task.cancel() }
  }
  return try await outcome.wait()
}
