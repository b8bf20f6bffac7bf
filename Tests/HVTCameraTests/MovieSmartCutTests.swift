import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Frame-exact trims (``HVTMovieTrim/Precision/frame``, a smart cut), checked with ffprobe and ffmpeg on
/// the movies of ``MovieTrimTests``: a key frame every 15 frames (0.5 s), a moving ball.
@Suite("Trimming movies frame-exact")
struct MovieSmartCutTests {
  @Test("the movie begins at the frame asked: frames to the next key frame encoded again, the rest copied, sound kept")
  func beginsAtTheFrameAsked() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await MovieTrimTests.makeMovie(in: directory)
    let before = try Data(contentsOf: source)
    let keyFrames = try await MediaInspector.packets(source.path).keyFrames
    let next = try #require(keyFrames.first { $0 > 36 }, "key frames \(keyFrames)")  // after 1.2 s
    let movie = try await HVTMovieTrim.trim(source, start: 1.2, end: 2.5, precision: .frame)
    // Frames 36 (1.2 s) to 74 (the one before 2.5 s); 36 up to the next key frame made again.
    #expect(abs(movie.start - 1.2) < 0.001 && movie.frames == 39, "\(movie)")
    #expect(movie.reencodedFrames == next - 36 && movie.summary.contains("\(next - 36) encoded again"), "\(movie)")
    #expect(abs(movie.duration - 1.3) < 0.001, "\(movie)")

    let streams = try await MediaInspector.streams(movie.url.path)
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    let sound = try #require(streams.first { $0.type == "audio" }, "\(streams)")
    #expect(video.codec == "h264" && abs(video.start) < 0.001 && abs(video.duration - 1.3) < 0.001, "\(video)")
    #expect(sound.codec == "aac" && abs(sound.start) < 0.03 && abs(sound.end - 1.3) < 0.03, "\(sound)")
    let packets = try await MediaInspector.packets(movie.url.path)
    #expect(packets.count == 39 && packets.keyFrames.first == 0, "\(packets)")
    // Counted by FFmpeg's decoder (GStreamer's openh264dec can lose the frame before the joint: README).
    #expect(try await MediaInspector.probe(movie.url.path).decodedFrames == 39)
    // From the next key frame on, the source's frames pixel for pixel; before it, the same pictures
    // through one more encoding.
    let sourceFrames = try await MovieTrimTests.frameDigests(source)
    let trimmedFrames = try await MovieTrimTests.frameDigests(movie.url)
    #expect(Array(trimmedFrames[(next - 36)...]) == Array(sourceFrames[next...74]))
    let quality = try await MediaInspector.psnr(of: movie.url.path, against: source.path, from: 36, count: next - 36)
    #expect(quality.count == next - 36 && quality.allSatisfy { $0 >= 30 }, "PSNR \(quality)")
    // A frame off would show the ball elsewhere: the first frame is frame 36's, not 35's or 37's.
    let shifted = try await MediaInspector.psnr(of: movie.url.path, against: source.path, from: 35, count: 3)
    #expect(quality.first.map { first in shifted.allSatisfy { first > $0 + 3 } } ?? false, "\(quality) \(shifted)")
    #expect(try Data(contentsOf: source) == before)
  }

  @Test("a start on a key frame copies every frame; a stretch before the next key frame is all encoded again")
  func edges() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await MovieTrimTests.makeMovie(in: directory)
    let sourceFrames = try await MovieTrimTests.frameDigests(source)
    let onKeyFrame = try await HVTMovieTrim.trim(source, start: 1.0, end: 2.0, precision: .frame)
    #expect(onKeyFrame.reencodedFrames == 0 && onKeyFrame.frames == 30, "\(onKeyFrame)")
    #expect(try await MovieTrimTests.frameDigests(onKeyFrame.url) == Array(sourceFrames[30..<60]))
    // 1.2 to 1.4 s lies between two key frames: all six frames are made again, nothing copied.
    let inside = try await HVTMovieTrim.trim(source, start: 1.2, end: 1.4, precision: .frame)
    #expect(inside.reencodedFrames == 6 && inside.frames == 6 && abs(inside.start - 1.2) < 0.001, "\(inside)")
    #expect(try await MediaInspector.probe(inside.url.path).decodedFrames == 6)
  }

  @Test("a frame-exact trim of VP8 is refused, saying why; nothing is written")
  func refusesOtherCodecs() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("vp8.webm").path
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=30", "!", "video/x-raw,width=160,height=120,framerate=30/1", "!",
        "vp8enc", "!", "webmmux", "!", "filesink", "location=\(path)",
      ])
    try #require(made.status == 0, "\(made.output)")
    do {
      let movie = try await HVTMovieTrim.trim(URL(fileURLWithPath: path), start: 0.5, end: 1, precision: .frame)
      Issue.record("trimmed: \(movie)")
    } catch HVTCameraError.invalidTrim(let failed, let reason) {
      #expect(failed == path && reason.contains("H.264") && reason.contains("video/x-vp8"), "\(reason)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["vp8.webm"])
  }
}
