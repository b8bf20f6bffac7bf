import HVTGStreamer
import HVTSupport
import Testing

@testable import HVTCamera

/// ``Teardown``: what the engine stops and lets go of is stopped whole, and what refuses is kept.
@Suite("Teardown of bins and pipelines", .timeLimit(.minutes(1)))
struct TeardownTests {
  /// A live camera feeding `queue ! fakesink` in a bin, the sink failing `failing` (`fakesink
  /// state-error`), in PLAYING; `finalized` is set when the bin is finalized.
  static func playingBranch(failing: String, finalized: Locked<Bool>) throws -> (pipeline: Pipeline, branch: Element) {
    let pipeline = try Pipeline(
      launch: "videotestsrc is-live=true ! bin. ( name=branch queue name=queue ! fakesink name=sink async=false "
        + "state-error=\(failing) )")
    let branch = try #require(pipeline.element(named: "branch"))
    branch.onFinalize { finalized.withLock { $0 = true } }
    #expect(pipeline.setState(.playing) != .failure)
    #expect(pipeline.state(timeout: 10).current == .playing)
    return (pipeline, branch)
  }

  @Test("a branch that stops is taken out of its pipeline and released")
  func stoppedIsReleased() throws {
    let finalized = Locked(false)
    var (pipeline, branch): (Pipeline, Element?) = try Self.playingBranch(failing: "none", finalized: finalized)
    #expect(Teardown.stop(try #require(branch), removingFrom: pipeline, what: "the test branch"))
    #expect(pipeline.element(named: "queue") == nil)
    branch = nil
    // The pipeline's NULL flushes its bus, whose state-change messages held the branch too.
    #expect(Teardown.stop(pipeline, what: "the test pipeline"))
    #expect(finalized.value, "the last reference went with the test's")
  }

  @Test("a branch whose sink refuses NULL: its queue is stopped all the same, and the branch is never released")
  func refusedIsKept() throws {
    let finalized = Locked(false)
    var (pipeline, branch): (Pipeline, Element?) = try Self.playingBranch(
      failing: "paused-to-ready", finalized: finalized)
    let queue = try #require(pipeline.element(named: "queue"))
    #expect(!Teardown.stop(try #require(branch), removingFrom: pipeline, what: "the test branch"))
    #expect(queue.currentState == .null, "the queue's streaming thread stopped")
    #expect(pipeline.element(named: "queue") == nil, "taken out of the pipeline")
    branch = nil
    #expect(Teardown.stop(pipeline, what: "the test pipeline"))
    #expect(!finalized.value, "released in PAUSED, the bin would be finalized now")
  }
}
