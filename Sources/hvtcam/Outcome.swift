import HVTSupport

/// The first result reported, kept for whoever waits for it, whether it came before or after they began
/// waiting; later reports are ignored. How an interactive session ends (`hvtcam run`, `hvtcam library
/// browse`), what ends a bounded wait (``bounded(_:_:_:)``: the work or its time limit), the pre-roll's
/// trigger (SIGUSR1 or a stop signal), the end of a stream's run (its duration or a stop signal).
final class Outcome<Value: Sendable>: Sendable {
  /// The result once reported, and the one waiter while it is not.
  private let state = Locked<(result: Result<Value, any Error>?, waiter: CheckedContinuation<Value, any Error>?)>(
    (nil, nil))

  /// Returns the value once it is reported; throws the error reported instead. One waiter at a time.
  func wait() async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      let reported = state.withLock { state -> Result<Value, any Error>? in
        if state.result == nil { state.waiter = continuation }
        return state.result
      }
      if let reported { continuation.resume(with: reported) }
    }
  }

  /// Reports `result`, unless a result was reported already; whether this call's was the first.
  @discardableResult
  func finish(_ result: Result<Value, any Error>) -> Bool {
    let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, any Error>?) in
      guard state.result == nil else { return (false, nil) }
      state.result = result
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume(with: result)
    return first
  }
}
