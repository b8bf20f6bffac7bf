import HVTSupport
import Testing

@testable import HVTGStreamer

@Suite("Bus", .timeLimit(.minutes(1)))
struct BusTests {
  @Test func aSinkThatCannotOpenItsFileReportsAResourceError() async throws {
    let location = "/nonexistent-hvt-directory/sub/out.bin"
    let sink = try makeElement("filesink", "sink", ["location": location])
    let pipeline = try makePipeline("unwritable", [try makeElement("videotestsrc", nil, ["num-buffers": "1"]), sink])
    let messages = BusMessages(pipeline)
    // filesink opens its file on NULL → READY, so the error is posted (on this thread) before setState returns.
    #expect(pipeline.setState(.playing) == .failure)
    let seen = await messages.untilEnd()
    pipeline.setState(.null)

    let report = try #require(seen.errors.first)
    #expect(report.domain == "gst-resource-error-quark")
    #expect(report.code == 6)  // GST_RESOURCE_ERROR_OPEN_WRITE
    #expect(report.message.contains(location), "\(report.message)")
    let debug = try #require(report.debug)
    #expect(debug.contains("No such file or directory"), "\(debug)")
    #expect(report.source == sink.path)
    #expect(report.source == "/GstPipeline:unwritable/GstFileSink:sink")
    #expect(seen.last?.source == sink.path)
    #expect(report.description.hasPrefix("\(report.message) (\(sink.path))\n"))
  }

  @Test func aFinitePipelineReportsItsStatesAndEndOfStream() async throws {
    let pipeline = try makePipeline(
      "finite", [try makeElement("videotestsrc", nil, ["num-buffers": "5"]), try makeElement("fakesink")])
    let seen = await playToEnd(pipeline)

    var pipelineStates: [(ElementState, ElementState)] = []
    for case .stateChanged(let source, let old, let new, _) in seen where source == pipeline.path {
      pipelineStates.append((old, new))
    }
    #expect(pipelineStates.map(\.0) == [.null, .ready, .paused])
    #expect(pipelineStates.map(\.1) == [.ready, .paused, .playing])

    guard case .endOfStream(let source) = seen.last else {
      Issue.record("the last message should be end-of-stream: \(seen)")
      return
    }
    #expect(source == pipeline.path)
    #expect(seen.errors.isEmpty)
    let otherTypes = seen.compactMap {
      if case .other(let type, _, _) = $0 { return type }
      return nil
    }
    #expect(otherTypes.contains("stream-start"))
    #expect(otherTypes.contains("async-done"))
  }

  @Test func sinksReportTheirOwnStateChanges() async throws {
    let sink = try makeElement("fakesink", "sink")
    let pipeline = try makePipeline("states", [try makeElement("videotestsrc", nil, ["num-buffers": "1"]), sink])
    let seen = await playToEnd(pipeline)
    let sinkReachedPlaying = seen.contains {
      if case .stateChanged(sink.path, .paused, .playing, _) = $0 { return true }
      return false
    }
    #expect(sinkReachedPlaying)
  }

  @Test func elementMessagesCarryTheirStructure() async throws {
    let level = try makeElement("level", "meter", ["interval": "50000000", "post-messages": "true"])
    let pipeline = try makePipeline(
      "metered", [try makeElement("audiotestsrc", nil, ["num-buffers": "10"]), level, try makeElement("fakesink")])
    let seen = await playToEnd(pipeline)
    var levels: [(source: String, structure: String)] = []
    for case .element(let source, "level", let structure) in seen { levels.append((source, structure)) }
    #expect(!levels.isEmpty, "level posts a message every 50 ms of audio")
    #expect(levels.allSatisfy { $0.source == level.path })
    #expect(levels.allSatisfy { $0.structure.hasPrefix("level, ") && $0.structure.contains("rms=") })
  }

  @Test func removingTheHandlerStopsDeliveryAndReleasesIt() async throws {
    final class Token: Sendable {}
    let delivered = Locked(0)
    let sink = try makeElement("fakesink", "sink")
    let pipeline = try makePipeline("unwatched", [try makeElement("videotestsrc", nil, ["num-buffers": "2"]), sink])
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      pipeline.bus.setSyncHandler { _ in
        _ = token
        delivered.withLock { $0 += 1 }
      }
    }
    #expect(weakToken != nil, "the bus keeps the handler alive")
    pipeline.bus.removeSyncHandler()
    #expect(weakToken == nil, "removing the handler releases its closure")

    // Wait for the end of the stream at the sink instead of on the bus.
    let (ended, finish) = AsyncStream.makeStream(of: Void.self)
    try #require(sink.staticPad("sink")).addProbe(.eventDownstream) { _, info in
      if info.event == .endOfStream { finish.yield() }
      return .ok
    }
    pipeline.setState(.playing)
    for await _ in ended { break }
    pipeline.setState(.null)
    #expect(delivered.value == 0)
  }

  @Test("messages posted before the handler was set are dropped when it is, releasing who posted them")
  func handlerDropsWaitingMessages() throws {
    let pipeline = Pipeline(named: "early")
    let finalized = Locked(false)
    do {
      let element = try makeElement("fakesink", "early-poster")
      element.onFinalize { finalized.withLock { $0 = true } }
      try pipeline.add(element)
      element.postResourceNotFound("posted before any handler")
      pipeline.remove(element)
    }
    #expect(pipeline.bus.hasPendingMessages)
    #expect(!finalized.value, "the waiting message holds the element")
    let delivered = Locked(0)
    pipeline.bus.setSyncHandler { _ in delivered.withLock { $0 += 1 } }
    #expect(!pipeline.bus.hasPendingMessages)
    #expect(finalized.value, "dropped with the message")
    #expect(delivered.value == 0, "the handler gets what is posted after it is set")
    pipeline.bus.removeSyncHandler()
  }

  @Test func settingAHandlerAgainReplacesAndReleasesTheFirst() async throws {
    final class Token: Sendable {}
    let (stream, continuation) = AsyncStream.makeStream(of: (handler: String, message: BusMessage).self)
    let pipeline = try makePipeline(
      "replaced", [try makeElement("videotestsrc", nil, ["num-buffers": "1"]), try makeElement("fakesink")])
    weak var firstToken: Token?
    do {
      let token = Token()
      firstToken = token
      pipeline.bus.setSyncHandler {
        _ = token
        continuation.yield(("first", $0))
      }
    }
    pipeline.bus.setSyncHandler { continuation.yield(("second", $0)) }
    #expect(firstToken == nil, "the replaced handler's closure is released")

    pipeline.setState(.playing)
    var handlers: Set<String> = []
    for await (handler, message) in stream {
      handlers.insert(handler)
      if case .endOfStream = message { break }
    }
    pipeline.setState(.null)
    #expect(handlers == ["second"])
  }
}
