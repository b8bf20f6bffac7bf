import Testing

@testable import HVTCamera

/// How a push stream waits before each new try to reach its server (``HVTStreamBackoff``) and counts its
/// tries (``StreamRetries``), without GStreamer.
struct StreamRetriesTests {
  @Test("the delay doubles from the initial one up to the cap; jitter takes off up to half of it")
  func backoff() {
    let backoff = HVTStreamBackoff.standard
    #expect((1...8).map { backoff.delay(beforeAttempt: $0, jitter: 0) } == [1, 2, 4, 8, 16, 30, 30, 30])
    #expect(backoff.delay(beforeAttempt: 1_000_000, jitter: 0) == 30)
    #expect(backoff.delay(beforeAttempt: 3, jitter: 0.5) == 3)
    #expect(backoff.delay(beforeAttempt: 3, jitter: 0.999_999) > 2)
    #expect(backoff.delay(beforeAttempt: 7, jitter: 0.5) == 22.5)
  }

  @Test("tries count from 1 after each loss; back says how many it took and starts again")
  func attempts() {
    var retries = StreamRetries()
    #expect(retries.lost(at: 0, jitter: 0) == HVTStreamRetry(attempt: 1, delay: 1))
    #expect(retries.lost(at: 1, jitter: 0) == HVTStreamRetry(attempt: 2, delay: 2))
    #expect(retries.lost(at: 3, jitter: 0) == HVTStreamRetry(attempt: 3, delay: 4))
    #expect(retries.back(at: 7) == 3)
    #expect(retries.attempts == 0)
    // Back for longer than the longest delay: the next loss waits the initial delay again.
    #expect(retries.lost(at: 100, jitter: 0) == HVTStreamRetry(attempt: 1, delay: 1))
  }

  @Test("a stream lost again soon after it came back goes on from the delay it had reached")
  func flapping() {
    var retries = StreamRetries()
    for time in [0.0, 1, 3, 7] { _ = retries.lost(at: time, jitter: 0) }
    #expect(retries.back(at: 15) == 4)
    #expect(retries.lost(at: 16, jitter: 0) == HVTStreamRetry(attempt: 1, delay: 16))
    #expect(retries.back(at: 33) == 1)
    #expect(retries.lost(at: 34, jitter: 0) == HVTStreamRetry(attempt: 1, delay: 30))
  }
}
