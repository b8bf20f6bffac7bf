import HVTSupport
import Testing

@testable import HVTGStreamer

@Suite("Pipeline and Bin", .timeLimit(.minutes(1)))
struct PipelineTests {
  @Test func runningTimeIsNilBeforePlayingAndGrowsAfter() async throws {
    let source = try makeElement("videotestsrc")
    let filter = try makeElement("capsfilter", nil, ["caps": "video/x-raw,width=64,height=48,framerate=30/1"])
    // sync=true paces the stream by the clock: a buffer is rendered when the running time reaches its PTS.
    let sink = try makeElement("fakesink", "sink", ["sync": "true"])
    let pipeline = try makePipeline("clocked", [source, filter, sink])
    #expect(pipeline.runningTime == nil)

    #expect(pipeline.setState(.paused) == .async)
    #expect(pipeline.state(timeout: 10) == (.success, .paused))
    #expect(pipeline.runningTime == nil, "the pipeline picks its clock on PAUSED → PLAYING")

    let (arrivals, arrived) = AsyncStream.makeStream(of: UInt.self)
    try #require(sink.staticPad("sink")).addProbe(.buffer) { _, info in
      if let buffer = info.buffer { arrived.yield(buffer.presentationTime) }
      return .ok
    }
    pipeline.setState(.playing)
    #expect(pipeline.state(timeout: 10) == (.success, .playing))

    // When frame n reaches the sink, frame n - 1 was rendered, so the running time has passed its PTS.
    func runningTime(afterArrivalOf pts: UInt) async -> UInt? {
      for await arrival in arrivals where arrival >= pts { break }
      return pipeline.runningTime
    }
    let frame = ClockTime.second / 30
    let early = try #require(await runningTime(afterArrivalOf: 3 * frame))
    #expect(early >= 2 * frame)
    let later = try #require(await runningTime(afterArrivalOf: 6 * frame))
    #expect(later >= 5 * frame)
    #expect(later > early)
    #expect(later < 30 * ClockTime.second, "running time is clock time minus base time")
    pipeline.setState(.null)
    #expect(pipeline.currentState == .null)
    #expect(pipeline.runningTime == nil)
  }

  @Test func findsChildrenByNameInNestedBins() throws {
    let pipeline = Pipeline(named: "outer")
    let bin = Bin(name: "branch")
    try bin.add(try makeElement("queue", "branch-queue"))
    try pipeline.add(try makeElement("videotestsrc", "camera"))
    try pipeline.add(bin)

    let camera = try #require(pipeline.element(named: "camera"))
    #expect(camera.factoryName == "videotestsrc")
    let queue = try #require(pipeline.element(named: "branch-queue"))
    #expect(queue.path == "/GstPipeline:outer/GstBin:branch/GstQueue:branch-queue")
    #expect(pipeline.element(named: "branch")?.path == "/GstPipeline:outer/GstBin:branch")
    #expect(pipeline.element(named: "nobody") == nil)
    #expect(bin.element(named: "camera") == nil, "a bin searches down, not up")
  }

  @Test func addingAnElementTwiceThrows() throws {
    let first = Pipeline(named: "first")
    let second = Pipeline(named: "second")
    let queue = try makeElement("queue", "q")
    try first.add(queue)
    #expect(throws: GStreamerError.self) { try second.add(queue) }
    #expect(queue.path == "/GstPipeline:first/GstQueue:q")
  }

  @Test func removedElementsLeaveTheBin() throws {
    let pipeline = Pipeline(named: "removal")
    let queue = try makeElement("queue", "q")
    try pipeline.add(queue)
    pipeline.remove(queue)
    #expect(pipeline.element(named: "q") == nil)
    #expect(queue.path == "/GstQueue:q")
  }

  @Test func aGhostPadCarriesDataIntoABin() async throws {
    let bin = Bin(name: "recorder")
    let identity = try makeElement("identity", "inner-identity")
    let sink = try makeElement("fakesink", "inner-sink")
    try bin.add(identity)
    try bin.add(sink)
    try identity.link(to: sink)
    try bin.addGhostPad("sink", target: try #require(identity.staticPad("sink")))
    #expect(bin.staticPad("sink")?.name == "sink")

    let pipeline = try makePipeline("ghost", [try makeElement("videotestsrc", nil, ["num-buffers": "4"]), bin])
    let count = Locked(0)
    try #require(sink.staticPad("sink")).addProbe(.buffer) { _, _ in
      count.withLock { $0 += 1 }
      return .ok
    }
    let seen = await playToEnd(pipeline)
    #expect(seen.errors.isEmpty)
    #expect(seen.reachedEndOfStream)
    #expect(count.value == 4)
  }

  /// A branch `queue ! videoconvert ! fakesink` in a bin, fed by a live camera, with the sink failing
  /// `failing` (`fakesink state-error`), in PLAYING.
  static func playingBranch(failing: String) throws -> (pipeline: Pipeline, branch: Bin, queue: Element) {
    let branch = Bin(name: "branch")
    let queue = try makeElement("queue", "queue")
    let convert = try makeElement("videoconvert", "convert")
    let sink = try makeElement("fakesink", "sink", ["state-error": failing, "async": "false"])
    for element in [queue, convert, sink] { try branch.add(element) }
    try queue.link(to: convert)
    try convert.link(to: sink)
    try branch.addGhostPad("sink", target: try #require(queue.staticPad("sink")))
    let pipeline = try makePipeline("teardown", [try makeElement("videotestsrc", nil, ["is-live": "true"]), branch])
    #expect(pipeline.setState(.playing) != .failure)
    #expect(pipeline.state(timeout: 10).current == .playing)
    return (pipeline, branch, queue)
  }

  @Test func stopCompletelyStopsEveryElementInside() throws {
    let (pipeline, branch, queue) = try Self.playingBranch(failing: "none")
    #expect(branch.stopCompletely().isEmpty)
    #expect(queue.currentState == .null)
    #expect(pipeline.stopCompletely().isEmpty)
  }

  @Test func stopCompletelyStopsWhatABinLeftRunningAndNamesWhatRefused() throws {
    let (pipeline, branch, queue) = try Self.playingBranch(failing: "paused-to-ready")
    // The bin stops at its sink, which fails, and leaves the queue and its streaming thread as they were.
    #expect(branch.setState(.null) == .failure)
    #expect(queue.currentState == .paused)
    #expect(
      branch.stopCompletely() == [
        "/GstPipeline:teardown/GstBin:branch (PAUSED)", "/GstPipeline:teardown/GstBin:branch/GstFakeSink:sink (PAUSED)",
      ])
    #expect(queue.currentState == .null, "the queue, set to NULL by itself")
    try #require(branch.element(named: "sink")).setProperty("state-error", fromString: "none")
    #expect(pipeline.stopCompletely().isEmpty)
  }

  @Test func dotGraphNamesEveryElement() throws {
    let pipeline = try makePipeline(
      "graphed",
      [
        try makeElement("videotestsrc", "hvt-camera-source"),
        try makeElement("videoconvert", "hvt-convert"),
        try makeElement("fakesink", "hvt-preview-sink"),
      ])
    let dot = pipeline.dotGraph()
    #expect(dot.hasPrefix("digraph"))
    for name in ["hvt-camera-source", "hvt-convert", "hvt-preview-sink", "graphed"] {
      #expect(dot.contains(name), "\(name) missing from the DOT graph")
    }
    #expect(dot.contains("->"), "links appear as edges")
  }

  @Test func stateWaitsForPreroll() throws {
    let pipeline = try makePipeline("preroll", [try makeElement("videotestsrc"), try makeElement("fakesink")])
    #expect(pipeline.currentState == .null)
    #expect(pipeline.setState(.paused) == .async)
    #expect(pipeline.state(timeout: 10) == (.success, .paused))
    #expect(pipeline.setState(.null) == .success)
    #expect(pipeline.currentState == .null)
  }

  @Test func aLiveSourceDoesNotPreroll() throws {
    let pipeline = try makePipeline(
      "live", [try makeElement("videotestsrc", nil, ["is-live": "true"]), try makeElement("fakesink")])
    #expect(pipeline.setState(.paused) == .noPreroll)
    #expect(pipeline.setState(.null) == .success)
  }

  @Test func aLaunchDescriptionBuildsItsPipelineAndRunsToTheEnd() async throws {
    let pipeline = try Pipeline(
      launch: "videotestsrc name=source num-buffers=4 ! video/x-raw,width=64,height=48 ! fakesink name=\"the sink\"")
    #expect(pipeline.element(named: "source")?.factoryName == "videotestsrc")
    #expect(pipeline.element(named: "the sink")?.factoryName == "fakesink")
    let seen = await playToEnd(pipeline)
    guard case .endOfStream = seen.last else {
      Issue.record("the last message should be end-of-stream: \(seen)")
      return
    }
  }

  @Test func aLaunchDescriptionItCannotBuildThrowsGStreamersMessage() {
    #expect {
      try Pipeline(launch: "videotestsrc ! no-such-element ! fakesink")
    } throws: { error in
      guard case GStreamerError.reported(let report) = error else { return false }
      return report.message.contains("no-such-element") && report.source.contains("no-such-element")
    }
  }
}
