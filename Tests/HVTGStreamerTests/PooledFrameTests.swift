import CGStreamer
import HVTSupport
import Testing

@testable import HVTGStreamer

@Suite("A shared frame made writable in one tee branch", .timeLimit(.minutes(1)))
struct PooledFrameTests {
  /// What a run of ``run(retiming:)`` saw.
  struct Seen {
    /// Frames the source pushed in memory it had not pushed before: a new allocation each.
    var freshMemories = 0
    /// Each frame's bytes (hashed) and timestamp as the source pushed it.
    var pushed: [(hash: Int, time: UInt)] = []
    /// The same, as the slow branch's sink received it.
    var received: [(hash: Int, time: UInt)] = []
  }

  static let frames = 60
  static let shift = ClockTime.second

  /// `videotestsrc pattern=ball num-buffers=60` (a moving ball: every frame differs) into a `tee`: one branch
  /// lets each frame go at once, the other holds a few (`queue max-size-buffers=2 ! identity
  /// sleep-time=2000`), as an encoder does. The second branch's tee pad moves each frame a second later,
  /// through `writable` — while the first branch still holds the frame, so it is shared.
  func run(retiming writable: @escaping @Sendable (inout PadProbeInfo) -> BufferView?) async throws -> Seen {
    let pipeline = try Pipeline(
      launch: """
        videotestsrc name=source pattern=ball num-buffers=\(Self.frames) \
        ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! tee name=t \
        t. ! queue ! fakesink sync=false \
        t. ! queue name=slow max-size-buffers=2 ! identity sleep-time=2000 ! fakesink name=sink sync=false
        """)
    let source = try #require(pipeline.element(named: "source")?.staticPad("src"))
    let slow = try #require(pipeline.element(named: "slow")?.staticPad("sink")?.peer)
    let sink = try #require(pipeline.element(named: "sink")?.staticPad("sink"))
    let seen = Locked(Seen())
    let marker = g_quark_from_static_string("hvt-pooled-frame-test-seen")
    source.addProbe(.buffer) { _, info in
      guard let buffer = info.buffer else { return .ok }
      var fresh = 0
      for index in 0..<gst_buffer_n_memory(buffer.pointer) {
        let memory = UnsafeMutableRawPointer(gst_buffer_peek_memory(buffer.pointer, index))
          .assumingMemoryBound(to: GstMiniObject.self)
        if gst_mini_object_get_qdata(memory, marker) == nil {
          fresh += 1
          gst_mini_object_set_qdata(memory, marker, UnsafeMutableRawPointer(bitPattern: 1), nil)
        }
      }
      let frame = (Self.hash(buffer), buffer.presentationTime)
      seen.withLock {
        $0.freshMemories += fresh
        $0.pushed.append(frame)
      }
      return .ok
    }
    slow.addProbe(.buffer) { _, info in
      guard let buffer = writable(&info) else { return .drop }
      buffer.presentationTime += Self.shift
      return .ok
    }
    sink.addProbe(.buffer) { _, info in
      guard let buffer = info.buffer else { return .ok }
      let frame = (Self.hash(buffer), buffer.presentationTime)
      seen.withLock { $0.received.append(frame) }
      return .ok
    }
    let messages = await playToEnd(pipeline)
    #expect(messages.reachedEndOfStream, "\(messages)")
    return seen.value
  }

  /// The frame's bytes, hashed (`gst_buffer_extract`).
  static func hash(_ buffer: BufferView) -> Int {
    let size = Int(gst_buffer_get_size(buffer.pointer))
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { storage, count in
      count = Int(gst_buffer_extract(buffer.pointer, 0, storage.baseAddress, gsize(size)))
    }
    return bytes.hashValue
  }

  /// The frames the slow branch received are the source's, a second later, and the source reused its
  /// pool's few frames rather than allocating new ones.
  func expectFramesKeptAndReused(_ seen: Seen) {
    #expect(seen.received.count == Self.frames)
    #expect(seen.received.map(\.hash) == seen.pushed.map(\.hash), "the slow branch got other bytes than the source's")
    #expect(seen.received.map(\.time) == seen.pushed.map { $0.time + Self.shift })
    // The branches hold at most a handful of frames at once: the pool needs no more.
    #expect(seen.freshMemories <= 8, "\(seen.freshMemories) frames of \(Self.frames) in new memory")
  }

  @Test func aWritableFrameGoesBackToItsPool() async throws {
    expectFramesKeptAndReused(try await run { $0.writableFrame() })
  }

  /// The stand-in itself, which ``PadProbeInfo/writableFrame()`` uses before GStreamer 1.24 only.
  @Test func theStandInReadsTheFrameAndHoldsItUntilFreed() async throws {
    expectFramesKeptAndReused(try await run { $0.standInFrame() })
  }

  /// The reason for the stand-in: before 1.24, GStreamer's own copy shares the memory, and the pool
  /// discards a frame whose memory is still shared when it comes back; from 1.24 the copy holds the frame.
  @Test func gstBufferMakeWritableCostsANewFrameEachTimeBefore1_24() async throws {
    let seen = try await run { $0.writableBuffer() }
    if GStreamer.isAtLeast(1, 24) {
      expectFramesKeptAndReused(seen)
    } else {
      #expect(seen.received.map(\.hash) == seen.pushed.map(\.hash))
      #expect(seen.freshMemories > Self.frames / 2, "\(seen.freshMemories) frames of \(Self.frames) in new memory")
    }
  }
}
