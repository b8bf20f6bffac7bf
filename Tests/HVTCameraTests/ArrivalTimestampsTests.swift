import Foundation
import HVTGStreamer
import HVTSupport
import MediaInspection
import Testing

@testable import HVTCamera

/// Frames stamped as they arrive keep a moment of their own (``ArrivalTimestamps``): a burst of late
/// frames no longer puts two of them on one tick of the movie's timescale, where FFmpeg drops one.
@Suite("Arrival timestamps: frames of a burst spaced out", .timeLimit(.minutes(1)))
struct ArrivalTimestampsTests {
  @Test("a frame less than 1 ms after the one before is moved to 1 ms after it; others are left alone")
  func spacing() {
    let ms: UInt = 1_000_000
    #expect(ArrivalTimestamps.spaced(5 * ms, after: nil) == 5 * ms)
    #expect(ArrivalTimestamps.spaced(38 * ms, after: 5 * ms) == 38 * ms)
    #expect(ArrivalTimestamps.spaced(5 * ms + 100_000, after: 5 * ms) == 6 * ms)
    #expect(ArrivalTimestamps.spaced(5 * ms, after: 5 * ms) == 6 * ms)
    #expect(ArrivalTimestamps.spaced(6 * ms, after: 5 * ms) == 6 * ms)
    // Earlier than the frame before: a new segment's time, not a burst.
    #expect(ArrivalTimestamps.spaced(2 * ms, after: 5 * ms) == 2 * ms)
  }

  /// 30 frames at 30 fps whose fifth is stamped 0.1 ms after the fourth (and every later one as much
  /// earlier), as a producer's burst does, into a fragmented MP4 of three frames a fragment. FFmpeg reads
  /// 30 packets but decodes 29 of them from the movie as it comes; spaced out, it decodes all 30.
  @Test(
    "a burst across a fragment boundary: FFmpeg decodes 29 of 30 frames, 30 of 30 once spaced out",
    arguments: [false, true])
  func burst(spacedOut: Bool) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let movie = directory.path("burst.mp4")
    let pipeline = try Pipeline(
      launch: "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
        + "! identity name=burst ! identity name=spacer ! x264enc tune=zerolatency ! h264parse "
        + "! mp4mux fragment-duration=100 ! filesink location=\(LaunchQuoting.launchValue(movie))")
    let frames = Locked(0)
    let interval: UInt = 1_000_000_000 / 30
    pipeline.element(named: "burst")?.staticPad("src")?.addProbe(.buffer) { _, info in
      let count = frames.withLock { count in
        count += 1
        return count
      }
      if count >= 5, let buffer = info.writableBuffer() {
        buffer.presentationTime = buffer.presentationTime - interval + 100_000
      }
      return .ok
    }
    if spacedOut, let pad = pipeline.element(named: "spacer")?.staticPad("src") { ArrivalTimestamps.spaceOut(on: pad) }
    let ended = AsyncStream.makeStream(of: Void.self)
    pipeline.bus.setSyncHandler { message in
      switch message {
      case .endOfStream, .error: ended.continuation.finish()
      default: break
      }
    }
    pipeline.setState(.playing)
    for await _ in ended.stream {}
    pipeline.setState(.null)
    pipeline.bus.removeSyncHandler()
    #expect(try await MediaInspector.frameCount(movie).frames == 30)
    let probe = try await MediaInspector.probe(movie)
    #expect(probe.decodedFrames == (spacedOut ? 30 : 29), "\(probe.output)")
  }
}
