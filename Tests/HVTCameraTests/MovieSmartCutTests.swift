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

  /// Writes a 4 s, 10 fps, 320x240 movie of `videotestsrc pattern=ball` encoded by `x264enc` at its
  /// defaults (B-frames: pts != dts) with a key frame every 10 frames, as `name` in `directory`: an MP4
  /// or, for a `.mkv` name, a Matroska file; with 4 s of AAC sound when `sound`.
  static func makeBFrameMovie(in directory: URL, named name: String = "b.mp4", sound: Bool = false) async throws
    -> URL
  {
    let path = directory.appendingPathComponent(name).path
    let muxer = name.hasSuffix(".mkv") ? "matroskamux" : "mp4mux"
    let audio =
      sound
      ? [
        "audiotestsrc", "num-buffers=188", "samplesperbuffer=1024", "!", "audio/x-raw,rate=48000,channels=2", "!",
        "voaacenc", "!", "mux.",
      ] : []
    let result = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=40", "pattern=ball", "!",
        "video/x-raw,format=I420,width=320,height=240,framerate=10/1", "!", "x264enc", "key-int-max=10", "!",
        "h264parse", "!", muxer, "name=mux", "!", "filesink", "location=\(path)",
      ] + audio)
    guard result.status == 0 else { throw TestFailure("gst-launch-1.0 failed: \(result.output)") }
    return URL(fileURLWithPath: path)
  }

  /// Checks, with ffprobe and ffmpeg, that `movie` holds the frames `first` to `first + count - 1` of
  /// the 10 fps `source`: that many packets, a key frame first, every one decoded without an error, a
  /// duration of `count` frames, and its first and last frames the source's (PSNR at least 30 dB and
  /// 3 dB better than against the neighbouring frames). Returns its streams.
  @discardableResult
  static func expectFrames(
    of movie: URL, are first: Int, count: Int, of source: URL, sourceFrames: Int = 40
  ) async throws -> [MediaInspector.Stream] {
    let packets = try await MediaInspector.packets(movie.path)
    #expect(packets.count == count && packets.keyFrames.first == 0, "\(packets)")
    let decoding = try await MediaInspector.run("ffmpeg", ["-v", "error", "-i", movie.path, "-f", "null", "-"])
    #expect(decoding.status == 0 && decoding.output.isEmpty, "\(decoding.output)")
    #expect(try await MediaInspector.probe(movie.path).decodedFrames == count)
    let streams = try await MediaInspector.streams(movie.path)
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    #expect(abs(video.start) < 0.001 && abs(video.duration - Double(count) / 10) < 0.1, "\(video)")
    for (frame, index) in [(0, first), (count - 1, first + count - 1)] {
      let quality = try await MediaInspector.psnr(
        of: movie.path, skipping: frame, against: source.path, from: index, count: 1)
      let best = try #require(quality.first, "frame \(frame)")
      #expect(best >= 30, "frame \(frame) against \(index): \(best) dB")
      for neighbour in [index - 1, index + 1] where neighbour >= 0 && neighbour < sourceFrames {
        let other = try await MediaInspector.psnr(
          of: movie.path, skipping: frame, against: source.path, from: neighbour, count: 1)
        #expect(other.allSatisfy { best > $0 + 3 }, "frame \(frame): \(best) dB, \(other) against \(neighbour)")
      }
    }
    return streams
  }

  @Test("B-frames: a key-frame trim keeps the frames shown up to the end, those after the last key frame encoded again")
  func bFramesAtKeyFrame() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeBFrameMovie(in: directory)
    // 1.0 to 2.35 s: frames 10 to 23; 2.3 s is shown before, but decoded after, the frame at 2.6 s.
    let movie = try await HVTMovieTrim.trim(source, start: 1.0, end: 2.35)
    #expect(movie.start == 1.0 && movie.frames == 14 && movie.reencodedFrames == 4, "\(movie)")
    #expect(abs(movie.duration - 1.4) < 0.001, "\(movie)")
    try await Self.expectFrames(of: movie.url, are: 10, count: 14, of: source)
    // Up to a key frame: copied alone.
    let copied = try await HVTMovieTrim.trim(source, start: 0, end: 2.0)
    #expect(copied.start == 0 && copied.frames == 20 && copied.reencodedFrames == 0, "\(copied)")
    try await Self.expectFrames(of: copied.url, are: 0, count: 20, of: source)
    // From 0, the end among B-frames (2.5 s is decoded after 2.6 s).
    let fromZero = try await HVTMovieTrim.trim(source, start: 0, end: 2.55)
    #expect(fromZero.frames == 26 && fromZero.reencodedFrames == 6, "\(fromZero)")
    try await Self.expectFrames(of: fromZero.url, are: 0, count: 26, of: source)
  }

  @Test("B-frames: a frame-exact trim begins and ends at the frames asked")
  func bFramesFrameExact() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeBFrameMovie(in: directory)
    // 1.15 to 2.35 s: frames 12 to 23, 12…19 (head) and 20…23 (tail) encoded again.
    let movie = try await HVTMovieTrim.trim(source, start: 1.15, end: 2.35, precision: .frame)
    #expect(abs(movie.start - 1.2) < 0.001 && movie.frames == 12 && movie.reencodedFrames == 12, "\(movie)")
    #expect(abs(movie.duration - 1.2) < 0.001, "\(movie)")
    try await Self.expectFrames(of: movie.url, are: 12, count: 12, of: source)
    // 1.25 to 3.55 s: head 13…19, 20…29 copied, tail 30…35 (3.5 s is decoded after 3.8 s).
    let long = try await HVTMovieTrim.trim(source, start: 1.25, end: 3.55, precision: .frame)
    #expect(long.frames == 23 && long.reencodedFrames == 7 + 6, "\(long)")
    try await Self.expectFrames(of: long.url, are: 13, count: 23, of: source)
    // Within one group of pictures, its end among B-frames: all encoded again.
    let inside = try await HVTMovieTrim.trim(source, start: 2.1, end: 2.55, precision: .frame)
    #expect(inside.frames == 5 && inside.reencodedFrames == 5, "\(inside)")
    try await Self.expectFrames(of: inside.url, are: 21, count: 5, of: source)
  }

  @Test("B-frames with sound: the sound starts and ends with the picture, at both precisions")
  func bFramesWithSound() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeBFrameMovie(in: directory, sound: true)
    for (start, precision, first, count) in [
      (1.0, HVTMovieTrim.Precision.keyFrame, 10, 14), (1.15, .frame, 12, 12),
    ] {
      let movie = try await HVTMovieTrim.trim(source, start: start, end: 2.35, precision: precision)
      let streams = try await Self.expectFrames(of: movie.url, are: first, count: count, of: source)
      let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
      let sound = try #require(streams.first { $0.type == "audio" }, "\(streams)")
      #expect(abs(sound.start - video.start) < 0.1 && abs(sound.end - video.end) < 0.1, "\(streams)")
      #expect(abs((movie.soundDuration ?? 0) - Double(count) / 10) < 0.1, "\(movie)")
    }
  }

  @Test("B-frames in Matroska (no decoding times): key-frame and frame-exact trims keep the frames asked")
  func bFramesInMatroska() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeBFrameMovie(in: directory, named: "b.mkv")
    let atKeyFrame = try await HVTMovieTrim.trim(source, start: 1.0, end: 2.35)
    #expect(atKeyFrame.frames == 14 && atKeyFrame.url.pathExtension == "mkv", "\(atKeyFrame)")
    try await Self.expectFrames(of: atKeyFrame.url, are: 10, count: 14, of: source)
    let exact = try await HVTMovieTrim.trim(source, start: 1.25, end: 3.55, precision: .frame)
    #expect(exact.frames == 23, "\(exact)")
    try await Self.expectFrames(of: exact.url, are: 13, count: 23, of: source)
  }
}
