import Foundation
import Testing

@testable import HVTCamera

/// The one wait of a streaming thread (``VideoPace``): bounded, and ended by the video.
@Suite(.timeLimit(.minutes(1)))
struct VideoPaceTests {
  @Test("a wait for video already there, or for a video that ended, does not wait")
  func noWait() {
    let pace = VideoPace()
    pace.start()
    pace.reach(2_000)
    #expect(pace.waitForStart())
    #expect(pace.waitUntilReached(1_000) && pace.waitUntilReached(2_000))
    let ended = VideoPace()
    ended.finish()
    #expect(ended.hasFinished && ended.waitForStart() && ended.waitUntilReached(.max))
  }

  @Test("a wait for video that does not come ends at its bound")
  func bounded() {
    let pace = VideoPace()
    pace.start()
    pace.reach(1_000)
    let began = ContinuousClock.now
    #expect(!pace.waitUntilReached(1_001))
    #expect(began.duration(to: .now) >= .seconds(pace.paceTimeout))
    #expect(pace.paceTimeout == 0.5 && pace.startTimeout == 2, "the bounds the recording's sound waits by")
  }

  @Test("the video ending releases a thread that waits for it")
  func released() async {
    // Bounded far beyond the test's time limit: only the video's end can release the thread in time.
    let pace = VideoPace(startTimeout: 600, paceTimeout: 600)
    let (waiting, started) = AsyncStream<Void>.makeStream()
    // A thread of its own, as a streaming thread is: the wait blocks it.
    let released = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      DispatchQueue(label: "microphone").async {
        started.yield()
        continuation.resume(returning: pace.waitUntilReached(.max))
      }
      Task {
        for await _ in waiting { break }
        pace.finish()
      }
    }
    // Released by the end (true), or — if it had not begun to wait yet — not waiting at all (also true).
    #expect(released)
  }
}
