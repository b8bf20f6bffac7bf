import Foundation

/// How an interactive session ends (`hvtcam run`, `hvtcam library browse`): the first outcome reported
/// is kept, and whoever waits for it gets it, whether it came before or after they started waiting.
///
/// `@unchecked Sendable`: its variables are read and written under `lock`.
final class SessionEnd: @unchecked Sendable {
  private let lock = NSLock()
  private var ended: Result<Void, any Error>?
  private var waiter: CheckedContinuation<Void, any Error>?

  /// Returns once the session ended well; throws its error.
  func wait() async throws {
    try await withCheckedThrowingContinuation { continuation in
      let result = lock.withLock { () -> Result<Void, any Error>? in
        if ended == nil { waiter = continuation }
        return ended
      }
      if let result { continuation.resume(with: result) }
    }
  }

  /// Ends the session with `result`, unless it has ended already.
  func finish(_ result: Result<Void, any Error>) {
    let waiting = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
      guard ended == nil else { return nil }
      ended = result
      defer { waiter = nil }
      return waiter
    }
    waiting?.resume(with: result)
  }
}
