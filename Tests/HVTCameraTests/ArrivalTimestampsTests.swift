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
  @Test(
    "a frame less than 1 ms after the one before, or before it, is moved to 1 ms after it; others are left alone")
  func spacing() {
    let ms: UInt = 1_000_000
    #expect(ArrivalTimestamps.spaced(5 * ms, after: nil) == 5 * ms)
    #expect(ArrivalTimestamps.spaced(38 * ms, after: 5 * ms) == 38 * ms)
    #expect(ArrivalTimestamps.spaced(5 * ms + 100_000, after: 5 * ms) == 6 * ms)
    #expect(ArrivalTimestamps.spaced(5 * ms, after: 5 * ms) == 6 * ms)
    #expect(ArrivalTimestamps.spaced(6 * ms, after: 5 * ms) == 6 * ms)
    // A burst of three: the second moves to 1 ms after the first; the third, stamped before that, to 1 ms
    // after the second, so that the three stay in order.
    let second = ArrivalTimestamps.spaced(5 * ms + 200_000, after: 5 * ms)
    #expect(second == 6 * ms)
    #expect(ArrivalTimestamps.spaced(5 * ms + 700_000, after: second) == 7 * ms)
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
    let movie = try await Self.record(into: directory, spacedOut: spacedOut) { frame in
      frame >= 5 ? Self.interval - 100_000 : 0
    }
    #expect(try await MediaInspector.frameCount(movie).frames == 30)
    let probe = try await MediaInspector.probe(movie)
    #expect(probe.decodedFrames == (spacedOut ? 30 : 29), "\(probe.output)")
  }

  /// A burst of three: the fifth frame stamped 0.2 ms after the fourth, the sixth 0.7 ms after it (before
  /// the time the fifth is moved to), the later ones at their pace after it. Spaced out, the frames keep
  /// their order in the movie, and FFmpeg decodes all 30.
  @Test("a burst of three frames: spaced out, they stay in order and every frame decodes")
  func burstOfThree() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let movie = try await Self.record(into: directory, spacedOut: true) { frame in
      switch frame {
      case 5: Self.interval - 200_000
      case 6...: 2 * Self.interval - 700_000
      default: 0
      }
    }
    let packets = try await MediaInspector.packets(movie)
    let times = packets.presentationTimes
    #expect(packets.count == 30 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(packets.output)")
    let probe = try await MediaInspector.probe(movie)
    #expect(probe.decodedFrames == 30, "\(probe.output)")
  }

  /// 30 fps.
  static let interval: UInt = 1_000_000_000 / 30

  /// Records 30 frames of 160x120 into a fragmented MP4 of three frames a fragment in `directory`, each
  /// frame (counted from 1) stamped `earlier(frame)` nanoseconds before its time, then spaced out or not;
  /// returns the movie's path.
  static func record(into directory: TemporaryDirectory, spacedOut: Bool, earlier: @escaping @Sendable (Int) -> UInt)
    async throws -> String
  {
    let movie = directory.path("burst.mp4")
    let pipeline = try Pipeline(
      launch: "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
        + "! identity name=burst ! identity name=spacer ! x264enc tune=zerolatency ! h264parse "
        + "! mp4mux fragment-duration=100 ! filesink location=\(LaunchQuoting.launchValue(movie))")
    let frames = Locked(0)
    pipeline.element(named: "burst")?.staticPad("src")?.addProbe(.buffer) { _, info in
      let count = frames.withLock { count in
        count += 1
        return count
      }
      let shift = earlier(count)
      if shift > 0, let buffer = info.writableBuffer() {
        buffer.presentationTime = buffer.presentationTime - shift
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
    return movie
  }
}
