import Foundation
import Testing

@testable import HVTCamera

/// The one wait of a streaming thread (``VideoPace``): bounded, and ended by the video.
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
    #expect(began.duration(to: .now) >= .seconds(VideoPace.paceTimeout))
  }

  @Test("the video ending releases a thread that waits for it")
  func released() async {
    let pace = VideoPace()
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
    // Released by the end (true), or — if it had not begun to wait yet — not waiting at all (also true);
    // false only when the time ran out.
    #expect(released)
  }
}
