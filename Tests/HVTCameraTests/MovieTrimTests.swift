import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Trimming movies (``HVTMovieTrim``, ``HVTCameraController/trimMovie(_:start:end:)``), checked with
/// ffprobe and ffmpeg on movies `gst-launch-1.0` wrote: a moving picture, so that frames can be told
/// apart by their decoded pixels.
@Suite("Trimming movies")
struct MovieTrimTests {
  /// Frames per second of the test movies.
  static let rate = 30.0

  /// Writes a 3 s, 320x240 movie of `videotestsrc pattern=ball` (a key frame every 15 frames) with 3 s of
  /// AAC sound, as `name` in `directory`.
  static func makeMovie(in directory: URL, named name: String = "source.mp4") async throws -> URL {
    let path = directory.appendingPathComponent(name).path
    let result = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=90", "pattern=ball", "!",
        "video/x-raw,format=I420,width=320,height=240,framerate=30/1", "!", "x264enc", "key-int-max=15", "bframes=0",
        "!",
        "h264parse", "!", "mp4mux", "name=mux", "!", "filesink", "location=\(path)", "audiotestsrc",
        "num-buffers=141", "samplesperbuffer=1024", "!", "audio/x-raw,rate=48000,channels=2", "!", "voaacenc", "!",
        "mux.",
      ])
    guard result.status == 0 else { throw TestFailure("gst-launch-1.0 failed: \(result.output)") }
    return URL(fileURLWithPath: path)
  }

  /// The MD5 of each frame ffmpeg decodes from the movie's video, in presentation order (`-f framemd5`).
  static func frameDigests(_ url: URL) async throws -> [String] {
    let output = try await MediaInspector.standardOutput(
      of: "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "framemd5", "-"])
    return output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  @Test("a trim begins at the key frame at or before its start and ends before its end, frames and sound copied")
  func trimsAtKeyFrame() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeMovie(in: directory)
    let before = try Data(contentsOf: source)
    let keyFrames = try await MediaInspector.packets(source.path).keyFrames
    let first = try #require(keyFrames.last { $0 <= 36 }, "key frames \(keyFrames)")  // 1.2 s in
    let last = 74  // the frame before 2.5 s

    let movie = try await HVTMovieTrim.trim(source, start: 1.2, end: 2.5)
    #expect(movie.url.lastPathComponent == "source.trimmed.mp4" && movie.source == source)
    #expect(abs(movie.start - Double(first) / Self.rate) < 0.001 && movie.requestedStart == 1.2, "\(movie)")
    #expect(movie.frames == last - first + 1, "\(movie)")
    #expect(abs(movie.duration - Double(movie.frames) / Self.rate) < 0.001, "\(movie)")

    // Read back by ffprobe and ffmpeg: a key frame first, the frames from `first` to `last`, and sound
    // over the same stretch.
    let packets = try await MediaInspector.packets(movie.url.path)
    #expect(packets.count == movie.frames && packets.keyFrames.first == 0, "\(packets)")
    let streams = try await MediaInspector.streams(movie.url.path)
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    let sound = try #require(streams.first { $0.type == "audio" }, "\(streams)")
    #expect(abs(video.start) < 0.001 && abs(video.duration - movie.duration) < 0.001, "\(video)")
    #expect(sound.codec == "aac" && abs(sound.start) < 0.03 && abs(sound.end - movie.duration) < 0.03, "\(sound)")
    #expect(abs((movie.soundDuration ?? 0) - sound.duration) < 0.005, "\(movie)")
    // Decoded, the frames are the source's from `first` to `last`, pixel for pixel.
    let sourceFrames = try await Self.frameDigests(source)
    #expect(try await Self.frameDigests(movie.url) == Array(sourceFrames[first...last]))
    #expect(try await MediaInspector.decodedFrameCount(movie.url.path) == movie.frames)
    // The source is kept as it was.
    #expect(try Data(contentsOf: source) == before)
  }

  @Test("an end past the movie's keeps it to its end; a second trim beside the first is numbered")
  func toTheEnd() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeMovie(in: directory)
    let whole = try await HVTMovieTrim.trim(source, start: 0, end: 100)
    #expect(whole.start == 0 && whole.frames == 90 && abs(whole.duration - 3) < 0.001, "\(whole)")
    let tail = try await HVTMovieTrim.trim(source, start: 2.5, end: .infinity)
    #expect(tail.url.lastPathComponent == "source.trimmed-2.mp4", "\(tail)")
    #expect(tail.start <= 2.5 && tail.start > 2.0 && abs(tail.start + tail.duration - 3) < 0.001, "\(tail)")
    let discovery = try await MediaInspector.discover(tail.url.path)
    #expect(discovery.isH264 && discovery.size == "320x240", "\(discovery)")
  }

  @Test("stretches the movie lacks, files that are not movies and taken names are refused; nothing is written")
  func refusals() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try await Self.makeMovie(in: directory)
    for (start, end, reason) in [
      (4.0, 5.0, "the movie's last frame is at 2.967 s"), (2.0, 1.0, "not a forward stretch"),
      (-1.0, 1.0, "not a forward stretch"), (Double.nan, 1.0, "not a forward stretch"),
    ] {
      do {
        let movie = try await HVTMovieTrim.trim(source, start: start, end: end)
        Issue.record("\(start)…\(end) s was trimmed: \(movie)")
      } catch let error as HVTCameraError {
        guard case .invalidTrim(let path, _) = error, path == source.path else {
          Issue.record("\(start)…\(end) s: \(error)")
          continue
        }
        #expect(error.description.contains(reason), "\(error)")
      }
    }
    let text = directory.appendingPathComponent("notes.mp4")
    try Data("not a movie\n".utf8).write(to: text)
    await #expect(throws: HVTCameraError.notAMovie(path: text.path, found: nil)) {
      try await HVTMovieTrim.trim(text, start: 0, end: 1)
    }
    let taken = directory.appendingPathComponent("taken.mp4")
    try Data("mine".utf8).write(to: taken)
    await #expect(throws: HVTCameraError.fileExists(path: taken.path, kept: nil)) {
      try await HVTMovieTrim.trim(source, start: 0, end: 1, to: taken)
    }
    #expect(try Data(contentsOf: taken) == Data("mine".utf8))
    // The source itself, also through a hard link, is never replaced.
    let link = directory.appendingPathComponent("link.mp4")
    try FileManager.default.linkItem(at: source, to: link)
    defer { try? FileManager.default.removeItem(at: link) }
    for target in [source, link] {
      await #expect(
        throws: HVTCameraError.fileWriteFailed(
          path: target.path,
          reason: "it is the file being read (\(source.path)), which is always kept; choose another name")
      ) {
        try await HVTMovieTrim.trim(source, start: 0, end: 1, to: target, replacingExisting: true)
      }
    }
    try FileManager.default.removeItem(at: link)
    // Only what the test wrote is there: no partial file, no trimmed movie.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(names == ["notes.mp4", "source.mp4", "taken.mp4"], "\(names)")
  }

  @Test("trimMovie edits a delivered movie into a new file with its own metadata; the original is kept")
  func controllerTrim() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.capturesAudio = false
    camera.controller.videoKeyFrameInterval = 0.5
    try await camera.controller.presentAndWait()
    let original = try await camera.controller.recordMovie(maximumDuration: 2)
    let originalBytes = try Data(contentsOf: original.url)
    let originalFrames = try #require(original.metadata.frameCount)
    // It begins at the last key frame at or before 0.6 s (frame 18), and lasts videoMaximumDuration from
    // there, not from 0.6 s: the frames that start within 0.55 s of its first (17 at 30 fps), where
    // 0.6 s + 0.55 s would have reached frame 34, up to a key-frame interval more.
    camera.controller.videoMaximumDuration = 0.55
    let keyFrames = try await MediaInspector.packets(original.url.path).keyFrames
    let first = try #require(keyFrames.last { $0 <= 18 }, "key frames \(keyFrames)")
    let frames = Int((0.55 * 30).rounded(.up))
    let edited = try await camera.controller.trimMovie(original, start: 0.6, end: 1.8)
    #expect(
      edited.url != original.url && edited.url.deletingLastPathComponent() == original.url.deletingLastPathComponent())
    #expect(edited.url.lastPathComponent.hasSuffix(".trimmed.mp4") && edited.info[.mediaURL] as? URL == edited.url)
    let metadata = edited.metadata
    #expect(metadata.frameCount == frames && abs((metadata.duration ?? 0) - Double(frames) / 30) < 0.001, "\(metadata)")
    let later = metadata.captureDate.timeIntervalSince(original.metadata.captureDate)
    #expect(abs(later - Double(first) / 30) < 0.001, "\(later) s later, key frames \(keyFrames)")
    #expect(metadata.fileSize == (try FileManager.default.attributesOfItem(atPath: edited.url.path)[.size] as? Int))
    let discovery = try await MediaInspector.discover(edited.url.path)
    #expect(discovery.isH264 && abs((discovery.duration ?? 0) - Double(frames) / 30) <= 1.0 / 30, "\(discovery)")
    #expect(try await MediaInspector.decodedFrameCount(edited.url.path) == frames)
    #expect(try Data(contentsOf: original.url) == originalBytes && original.metadata.frameCount == originalFrames)
    let photo = try await camera.controller.capturePhoto()
    await #expect(throws: HVTCameraError.invalidTrim(path: photo.url.path, reason: "it is a photo, not a movie")) {
      try await camera.controller.trimMovie(photo, start: 0, end: 1)
    }
  }
}
