import HVTSupport
import Testing

@testable import HVTGStreamer

@Suite("Pad probes", .timeLimit(.minutes(1)))
struct PadProbeTests {
  /// `videotestsrc num-buffers=N ! fakesink` at 64×48, with the two elements returned.
  func smallPipeline(_ name: String, buffers: Int, live: Bool = false) throws -> (Pipeline, Element, Element) {
    let source = try makeElement("videotestsrc", "source", ["num-buffers": "\(buffers)", "is-live": "\(live)"])
    let filter = try makeElement(
      "capsfilter", nil, ["caps": "video/x-raw,format=I420,width=64,height=48,framerate=30/1"])
    let sink = try makeElement("fakesink", "sink")
    return (try makePipeline(name, [source, filter, sink]), source, sink)
  }

  /// Counts the buffers passing a pad.
  func countBuffers(at pad: Pad) -> Locked<Int> {
    let count = Locked(0)
    pad.addProbe(.buffer) { _, info in
      if info.buffer != nil { count.withLock { $0 += 1 } }
      return .ok
    }
    return count
  }

  @Test(arguments: [1, 7, 30])
  func aBufferProbeSeesEveryBuffer(_ buffers: Int) async throws {
    let (pipeline, source, sink) = try smallPipeline("count", buffers: buffers)
    let atSource = countBuffers(at: try #require(source.staticPad("src")))
    let atSink = countBuffers(at: try #require(sink.staticPad("sink")))
    let seen = await playToEnd(pipeline)
    #expect(seen.reachedEndOfStream)
    #expect(atSource.value == buffers)
    #expect(atSink.value == buffers)
  }

  @Test func buffersCarryIncreasingTimestamps() async throws {
    let (pipeline, _, sink) = try smallPipeline("timestamps", buffers: 4)
    let times = Locked<[UInt]>([])
    let durations = Locked<[UInt]>([])
    try #require(sink.staticPad("sink")).addProbe(.buffer) { _, info in
      guard let buffer = info.buffer else { return .ok }
      times.withLock { $0.append(buffer.presentationTime) }
      durations.withLock { $0.append(buffer.duration) }
      return .ok
    }
    await playToEnd(pipeline)
    let frame = ClockTime.second / 30
    #expect(times.value == [0, 1, 2, 3].map { $0 * ClockTime.second / 30 })
    #expect(durations.value.allSatisfy { $0 >= frame && $0 <= frame + 1 }, "\(durations.value)")
  }

  @Test func anEventProbeSeesCapsThenTheSegmentThenEndOfStream() async throws {
    let (pipeline, _, sink) = try smallPipeline("events", buffers: 3)
    let events = Locked<[ProbedEvent]>([])
    let buffers = Locked(0)
    try #require(sink.staticPad("sink")).addProbe(.eventDownstream) { _, info in
      if info.buffer != nil { buffers.withLock { $0 += 1 } }
      if let event = info.event { events.withLock { $0.append(event) } }
      return .ok
    }
    await playToEnd(pipeline)
    #expect(buffers.value == 0, "an event probe sees no buffers")
    let seen = events.value
    let significant = seen.filter { $0 != .other }
    #expect(significant.count == 3, "\(seen)")
    // A live-less source's time segment starts at 0, its running time at 0.
    #expect(significant.dropFirst().first == .segment(start: 0, base: 0), "\(seen)")
    guard case .caps(let caps) = significant.first else {
      Issue.record("the first event other than stream-start should be caps: \(seen)")
      return
    }
    #expect(caps.structure(at: 0).name == "video/x-raw")
    #expect(caps.structure(at: 0).int("width") == 64)
    #expect(significant.last == .endOfStream)
    #expect(seen.first == .other, "stream-start comes first")
  }

  @Test func aProbeCanRewriteTimestamps() async throws {
    let (pipeline, source, sink) = try smallPipeline("rewrite", buffers: 5)
    let offset = 42 * ClockTime.second
    try #require(source.staticPad("src")).addProbe(.buffer) { _, info in
      guard let buffer = info.writableBuffer() else { return .ok }
      buffer.presentationTime += offset
      buffer.decodingTime = buffer.presentationTime
      return .ok
    }
    let original = Locked<[UInt]>([])
    try #require(source.staticPad("src")).addProbe(.buffer) { _, info in
      if let buffer = info.buffer { original.withLock { $0.append(buffer.presentationTime - offset) } }
      return .ok
    }
    let rewritten = Locked<[(pts: UInt, dts: UInt)]>([])
    try #require(sink.staticPad("sink")).addProbe(.buffer) { _, info in
      if let buffer = info.buffer { rewritten.withLock { $0.append((buffer.presentationTime, buffer.decodingTime)) } }
      return .ok
    }
    await playToEnd(pipeline)
    let expected = original.value.map { $0 + offset }
    #expect(expected.count == 5)
    #expect(rewritten.value.map(\.pts) == expected)
    #expect(rewritten.value.map(\.dts) == expected)
  }

  @Test func rewritingOneTeeBranchLeavesTheOtherAlone() async throws {
    let source = try makeElement("videotestsrc", nil, ["num-buffers": "3"])
    let tee = try makeElement("tee", "tee")
    let queueA = try makeElement("queue")
    let sinkA = try makeElement("fakesink", "a")
    let queueB = try makeElement("queue")
    let sinkB = try makeElement("fakesink", "b")
    let pipeline = try makePipeline("branches", [source, tee])
    for element in [queueA, sinkA, queueB, sinkB] { try pipeline.add(element) }
    try queueA.link(to: sinkA)
    try queueB.link(to: sinkB)
    let branchA = try #require(tee.requestPad("src_%u"))
    let branchB = try #require(tee.requestPad("src_%u"))
    try branchA.link(to: try #require(queueA.staticPad("sink")))
    try branchB.link(to: try #require(queueB.staticPad("sink")))

    let offset = 7 * ClockTime.second
    branchA.addProbe(.buffer) { _, info in
      if let buffer = info.writableBuffer() { buffer.presentationTime += offset }
      return .ok
    }
    func record(_ sink: Element) throws -> Locked<[UInt]> {
      let times = Locked<[UInt]>([])
      try #require(sink.staticPad("sink")).addProbe(.buffer) { _, info in
        if let buffer = info.buffer { times.withLock { $0.append(buffer.presentationTime) } }
        return .ok
      }
      return times
    }
    let timesA = try record(sinkA)
    let timesB = try record(sinkB)
    await playToEnd(pipeline)
    #expect(timesB.value.count == 3)
    #expect(timesB.value.first == 0)
    #expect(timesA.value == timesB.value.map { $0 + offset })
  }

  @Test func aDropProbeDropsBuffers() async throws {
    let (pipeline, source, sink) = try smallPipeline("drop", buffers: 10)
    let passed = Locked(0)
    try #require(source.staticPad("src")).addProbe(.buffer) { _, _ in
      passed.withLock {
        $0 += 1
        return $0.isMultiple(of: 2) ? .drop : .ok
      }
    }
    let atSink = countBuffers(at: try #require(sink.staticPad("sink")))
    let seen = await playToEnd(pipeline)
    #expect(seen.reachedEndOfStream, "dropping buffers does not drop end-of-stream")
    #expect(passed.value == 10)
    #expect(atSink.value == 5)
  }

  @Test func aProbeThatAnswersRemoveRunsOnce() async throws {
    let (pipeline, source, sink) = try smallPipeline("once", buffers: 6)
    let calls = Locked(0)
    try #require(source.staticPad("src")).addProbe(.buffer) { _, _ in
      calls.withLock { $0 += 1 }
      return .remove
    }
    let atSink = countBuffers(at: try #require(sink.staticPad("sink")))
    await playToEnd(pipeline)
    #expect(calls.value == 1)
    #expect(atSink.value == 6, "the buffer seen by the removed probe still passes")
  }

  @Test func anIdleProbeRunsAtOnceOnAnIdlePad() throws {
    let source = try makeElement("videotestsrc")
    let pad = try #require(source.staticPad("src"))
    let ran = Locked(false)
    let id = pad.addProbe(.idle) { _, info in
      #expect(info.buffer == nil)
      #expect(info.event == nil)
      ran.withLock { $0 = true }
      return .remove
    }
    #expect(ran.value, "an idle pad runs the probe before addProbe returns")
    #expect(id == 0, "a probe removed during addProbe has no id")
  }

  @Test func anIdleProbeRunsBetweenBuffersOfAPlayingPipeline() async throws {
    let (pipeline, source, _) = try smallPipeline("idle", buffers: -1, live: true)
    let pad = try #require(source.staticPad("src"))
    let (flowing, flowed) = AsyncStream.makeStream(of: Void.self)
    pad.addProbe(.buffer) { _, _ in
      flowed.yield()
      return .remove
    }
    pipeline.setState(.playing)
    for await _ in flowing { break }

    let (idle, wasIdle) = AsyncStream.makeStream(of: Bool.self)
    pad.addProbe(.idle) { _, info in
      wasIdle.yield(info.buffer == nil)
      return .remove
    }
    var ranWithoutData = false
    for await withoutData in idle {
      ranWithoutData = withoutData
      break
    }
    #expect(ranWithoutData)
    // The pad is not left blocked: more buffers keep arriving.
    let more = countBuffers(at: pad)
    let (again, flowsAgain) = AsyncStream.makeStream(of: Void.self)
    pad.addProbe(.buffer) { _, _ in
      if more.value >= 2 {
        flowsAgain.yield()
        return .remove
      }
      return .ok
    }
    for await _ in again { break }
    pipeline.setState(.null)
    #expect(more.value >= 2)
  }

  @Test func removeProbeBeforePlayingMeansNoCalls() async throws {
    let (pipeline, source, sink) = try smallPipeline("removed", buffers: 5)
    let pad = try #require(source.staticPad("src"))
    let calls = Locked(0)
    let id = pad.addProbe([.buffer, .eventDownstream]) { _, _ in
      calls.withLock { $0 += 1 }
      return .ok
    }
    #expect(id != 0)
    pad.removeProbe(id)
    let atSink = countBuffers(at: try #require(sink.staticPad("sink")))
    await playToEnd(pipeline)
    #expect(atSink.value == 5)
    #expect(calls.value == 0)
  }

  @Test func removeProbeInsideTheCallbackStopsLaterCalls() async throws {
    let (pipeline, source, sink) = try smallPipeline("stops", buffers: 10)
    let pad = try #require(source.staticPad("src"))
    let calls = Locked(0)
    let probe = Locked<UInt>(0)
    let id = pad.addProbe(.buffer) { pad, _ in
      let count = calls.withLock {
        $0 += 1
        return $0
      }
      if count == 3 { pad.removeProbe(probe.value) }
      return .ok
    }
    probe.withLock { $0 = id }
    let atSink = countBuffers(at: try #require(sink.staticPad("sink")))
    await playToEnd(pipeline)
    #expect(atSink.value == 10)
    #expect(calls.value == 3)
  }

  @Test func writableBufferIsNilForEvents() async throws {
    let (pipeline, _, sink) = try smallPipeline("events-only", buffers: 1)
    let eventCalls = Locked(0)
    let writableForEvents = Locked(0)
    try #require(sink.staticPad("sink")).addProbe(.eventDownstream) { _, info in
      eventCalls.withLock { $0 += 1 }
      if info.writableBuffer() != nil { writableForEvents.withLock { $0 += 1 } }
      return .ok
    }
    await playToEnd(pipeline)
    #expect(eventCalls.value >= 4, "stream-start, caps, segment and EOS")
    #expect(writableForEvents.value == 0)
  }
}
