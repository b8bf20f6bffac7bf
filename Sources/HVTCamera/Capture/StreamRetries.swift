/// A push stream's tries to reach its server again, as the controller counts them: which try comes next
/// and after what delay (``HVTStreamBackoff``), and how many it took once the stream is back. A stream
/// that comes back and is lost again before it has run for the longest delay goes on from the delay it
/// had reached: a server that takes the stream and drops it at once is not called every second.
struct StreamRetries: Sendable {
  let backoff: HVTStreamBackoff
  /// Tries made since the stream was lost.
  private(set) var attempts = 0
  /// How far the delay has doubled.
  private var level = 0
  /// When the stream was last back (seconds on any monotonic clock).
  private var backAt: Double?

  init(backoff: HVTStreamBackoff = .standard) {
    self.backoff = backoff
  }

  /// The stream was lost, or a try failed, at `now`: the next try, with `jitter` (0 up to 1) applied to
  /// its delay.
  mutating func lost(at now: Double, jitter: Double) -> HVTStreamRetry {
    if let backAt, now - backAt >= backoff.maximumDelay { level = 0 }
    backAt = nil
    level += 1
    attempts += 1
    return HVTStreamRetry(attempt: attempts, delay: backoff.delay(beforeAttempt: level, jitter: jitter))
  }

  /// The stream runs again at `now`: returns the tries it took, and counts from 0 again.
  mutating func back(at now: Double) -> Int {
    defer { (attempts, backAt) = (0, now) }
    return attempts
  }
}
