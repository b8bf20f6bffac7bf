import Foundation
import HVTGStreamer
import HVTSupport
import MediaInspection
import Testing

@testable import HVTCamera

/// ``StreamEntry``: what a stream branch lets through decodes, from its first key frame on and after every
/// frame its queue left out.
@Suite("A stream's entry", .timeLimit(.minutes(1)))
struct StreamEntryTests {
  /// One step of a branch's entry: a frame offered (a key frame or not), or the queue overrunning.
  enum Step { case key, delta, overrun }

  /// What `entry` answers to each step: whether a frame was admitted, or whether an overrun began a loss.
  static func answers(_ steps: [Step], _ entry: inout StreamEntry) -> [Bool] {
    steps.map { step in
      switch step {
      case .key: entry.admits(keyFrame: true)
      case .delta: entry.admits(keyFrame: false)
      case .overrun: entry.queueOverran()
      }
    }
  }

  @Test("nothing before the first key frame, and that is no loss")
  func startsOnAKeyFrame() {
    var entry = StreamEntry()
    #expect(Self.answers([.delta, .key, .delta], &entry) == [false, true, true])
    #expect(entry.framesLeftOut == 0)
    #expect(entry.losses == 0)
  }

  @Test("after the queue left a frame out, nothing up to the next key frame; each frame counted, one loss")
  func waitsForAKeyFrameAfterALoss() {
    var entry = StreamEntry()
    // A loss begins; the network still behind, the key frame is left out too, in the same loss; then
    // frames flow again, and a second loss begins.
    let steps: [Step] = [.key, .delta, .overrun, .delta, .delta, .key, .overrun, .delta, .key, .delta, .overrun]
    #expect(
      Self.answers(steps, &entry) == [true, true, true, false, false, true, false, false, true, true, true])
    #expect(entry.framesLeftOut == 6)
    #expect(entry.losses == 2)
  }

  /// A live camera encoded as the streams are, into a branch whose sink takes a frame every 70 ms (about
  /// 14 a second of the camera's 30) after a queue of 3 frames leaking at its entry: it overruns all the
  /// time.
  static func slowBranchLine(_ file: String) -> String {
    "videotestsrc is-live=true pattern=ball num-buffers=90 ! video/x-raw,width=320,height=240,framerate=30/1 "
      + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 ! h264parse "
      + "! video/x-h264,stream-format=avc,alignment=au "
      + "! queue name=queue leaky=upstream max-size-buffers=3 max-size-bytes=0 max-size-time=0 "
      + "! identity sleep-time=70000 ! h264parse ! mpegtsmux ! filesink location=\"\(file)\""
  }

  @Test("a network that cannot keep up gets gaps, each followed by a key frame, read back by ffprobe")
  func aSlowSinkGetsDecodableGaps() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("stream.ts").path
    let pipeline = try Pipeline(launch: Self.slowBranchLine(file))
    let queue = try #require(pipeline.element(named: "queue"))
    let losses = Locked<[Int]>([])
    StreamEntry.guardDecodable(try #require(queue.staticPad("sink")), queue: queue, isClosed: { false }) { leftOut in
      losses.withLock { $0.append(leftOut) }
    }
    let end = await pipeline.playToEnd()
    if case .endOfStream = end {} else { Issue.record("the line ended with \(String(describing: end))") }

    let packets = try await MediaInspector.packets(file)
    try #require(packets.count >= 10, "\(packets)")
    #expect(packets.keyFrames.first == 0, "starts on a key frame: \(packets)")
    let gaps = packets.afterGaps(longerThan: 1.5 / 30)
    #expect(!gaps.isEmpty, "the sink was slow enough to leave frames out: \(packets)")
    #expect(gaps.allSatisfy(packets.keyFrames.contains), "after each gap, a key frame: gaps at \(gaps); \(packets)")
    #expect(!losses.withLock { $0 }.isEmpty, "each loss reported")
    #expect(try await MediaInspector.probe(file).decodedFrames == packets.count, "every packet decodes: \(packets)")
  }
}
