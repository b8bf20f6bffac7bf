import Foundation
import HVTGStreamer
import MediaInspection
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

@Suite("HVTMovieRepair", .timeLimit(.minutes(2)))
struct MovieRepairTests {
  /// The simulated camera's frame rate, and so the length of one frame.
  static let frame = 1.0 / 30

  /// Records with the simulated camera at 640x480 and returns a copy of the movie's partial file taken
  /// while it is still being written — what a crash at that moment leaves behind — at the first progress
  /// event (one per recorded second) from `seconds` on at which `enough` holds for the copy.
  static func partialCopy(
    preset: String? = nil, capturesAudio: Bool = true, seconds: Double, enough: @escaping (Data) -> Bool = { _ in true }
  ) async throws -> (data: Data, partial: URL, recordedFrames: Int) {
    let camera = try TestCamera(mode: .video, present: false)
    if let preset { camera.controller.preset = try HVTPreset.named(preset) }
    camera.controller.capturesAudio = capturesAudio
    camera.controller.videoQuality = .type640x480
    try await camera.controller.presentAndWait()
    guard camera.controller.startVideoCapture() else { throw TestFailure("startVideoCapture() returned false") }
    let partial = try await camera.delegate.nextEvent { if case .recordingStarted(let url) = $0 { url } else { nil } }
    var copy = Data()
    while true {
      try await camera.waitForRecorded(seconds: seconds)
      copy = try Data(contentsOf: partial)
      if enough(copy) { break }
    }
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    await camera.controller.dismissAndWait()
    return (copy, partial, try movie.metadata.frameCount ?? 0)
  }

  /// Expects that the container duration of `movie` — as `gst-discoverer-1.0`, `ffprobe` (when installed)
  /// and the repair itself report it — is the duration of the frames it decodes to, within one frame,
  /// and that it decodes to the frames the repair counted.
  static func expectWhole(_ movie: HVTMovieRepair.RepairedMovie, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let decoded = try await MediaInspector.decodedFrameCount(movie.url.path)
    let framesDuration = Double(decoded) * frame
    #expect(decoded == movie.frames, "decoded \(decoded), the repair said \(movie)", sourceLocation: sourceLocation)
    #expect(abs(movie.duration - framesDuration) <= frame, "\(movie)", sourceLocation: sourceLocation)
    let discovery = try await MediaInspector.discover(movie.url)
    #expect(!discovery.failed, "\(discovery)", sourceLocation: sourceLocation)
    let discovered = try #require(discovery.duration, "\(discovery)", sourceLocation: sourceLocation)
    #expect(
      abs(discovered - framesDuration) <= frame, "discoverer: \(discovered) s for \(decoded) frames",
      sourceLocation: sourceLocation)
    if MediaInspector.hasFFprobe {
      let probe = try await MediaInspector.probe(movie.url.path)
      #expect(probe.decodedFrames == decoded, "\(probe)", sourceLocation: sourceLocation)
      let probed = try #require(probe.duration, "\(probe)", sourceLocation: sourceLocation)
      #expect(
        abs(probed - framesDuration) <= frame, "ffprobe: \(probed) s for \(decoded) frames",
        sourceLocation: sourceLocation)
    }
    #expect(movie.bytes == CaptureFiles.size(of: movie.url), sourceLocation: sourceLocation)
  }

  @Test(
    "a partial MP4 cut in the middle of its last fragment: the frames before the cut are kept, the file is whole",
    arguments: [false, true])
  func truncatedMP4(withSound: Bool) async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let recorded = try await Self.partialCopy(capturesAudio: withSound, seconds: 2) { data in
      MP4Box.topLevel(of: data).filter { $0.type == "moof" }.count >= 3
    }
    let boxes = MP4Box.topLevel(of: recorded.data)
    let lastFragment = try #require(boxes.last { $0.type == "moof" })
    let lastData = try #require(boxes.last { $0.type == "mdat" && $0.offset > lastFragment.offset }, "\(boxes)")
    let cut = lastData.offset + min(lastData.size, recorded.data.count - lastData.offset) / 2
    let source = directory.appendingPathComponent("cut.partial.mp4")
    try recorded.data.prefix(cut).write(to: source)
    // What an independent reader gets from the whole fragments before the cut, and from the uncut copy.
    let wholeFragments = directory.appendingPathComponent("whole-fragments.mp4")
    try recorded.data.prefix(lastFragment.offset).write(to: wholeFragments)
    let uncut = directory.appendingPathComponent("uncut.mp4")
    try recorded.data.write(to: uncut)
    let before = try await MediaInspector.frameCount(wholeFragments)
    let all = try await MediaInspector.frameCount(uncut)
    let partialDiscovery = try await MediaInspector.discover(source)

    let movie = try await HVTMovieRepair.repair(source)
    print("repair: \(boxes.count) boxes, cut at \(cut) of \(recorded.data.count) bytes; \(movie)")
    print("repair: discoverer read \(partialDiscovery.duration ?? -1) s from the partial file")
    #expect(movie.url == directory.appendingPathComponent("cut.mp4"))
    #expect(movie.container == "MP4" && movie.codec.hasPrefix("H.264"), "\(movie)")
    #expect(movie.width == 640 && movie.height == 480, "\(movie)")
    #expect(movie.sourceBytes == cut)
    // With sound, qtdemux, which reads the streams in the order of their timestamps, may end both at the cut
    // fragment before it has given every frame of the whole fragment before it: up to one fragment (500 ms,
    // 15 frames) is lost then (96 of 101 once).
    let lost = withSound ? 15 : 0
    #expect(
      before > 0 && before - lost <= movie.frames && movie.frames <= all,
      "\(before) - \(lost) ≤ \(movie.frames) ≤ \(all)")
    try await Self.expectWhole(movie)
    // The partial file's own duration, as the discoverer reads it, is short: it has no final index.
    let partialDuration = try #require(partialDiscovery.duration, "\(partialDiscovery)")
    #expect(partialDuration < movie.duration - Self.frame, "partial \(partialDuration) s, repaired \(movie)")
    // The source is left as it was, and nothing else is written.
    #expect(try Data(contentsOf: source) == recorded.data.prefix(cut))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        == ["cut.mp4", "cut.partial.mp4", "uncut.mp4", "whole-fragments.mp4"])

    // Cut before the first fragment, or inside the headers, nothing is recoverable, and nothing is written.
    let firstFragment = try #require(boxes.first { $0.type == "moof" })
    let movieHeader = try #require(boxes.first { $0.type == "moov" })
    for (name, length) in [
      ("headers", firstFragment.offset), ("half-header", movieHeader.offset + movieHeader.size / 2),
    ] {
      let headers = directory.appendingPathComponent("\(name).partial.mp4")
      try recorded.data.prefix(length).write(to: headers)
      await #expect {
        try await HVTMovieRepair.repair(headers)
      } throws: { error in
        guard case .nothingRecoverable(let path, _) = error as? HVTCameraError else { return false }
        return path == headers.path && "\(error)".contains(headers.path)
      }
      #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(name).mp4").path))
    }
  }

  @Test(
    "a Matroska or WebM partial file is repaired into a whole file of the same kind",
    arguments: [("webm-vp8", "WebM", "VP8", "webm"), ("archival", "Matroska", "H.264", "mkv")])
  func matroska(preset: String, container: String, codec: String, ext: String) async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let recorded = try await Self.partialCopy(preset: preset, seconds: 2)
    #expect(recorded.partial.lastPathComponent.hasSuffix(".partial.\(ext)"), "\(recorded.partial)")
    let source = directory.appendingPathComponent("crash.partial.\(ext)")
    try recorded.data.write(to: source)
    // Printed, not checked: for Matroska the discoverer reads the start of the last cluster, short by that
    // cluster's frames, unless the copy caught a cluster whose first block was still being written.
    let partialDiscovery = try await MediaInspector.discover(source)

    let movie = try await HVTMovieRepair.repair(source)
    print("repair: \(movie); discoverer read \(partialDiscovery.duration ?? -1) s from the partial file")
    #expect(movie.url == directory.appendingPathComponent("crash.\(ext)"))
    #expect(movie.container == container && movie.codec.hasPrefix(codec), "\(movie)")
    // Every frame the copy holds whole, by FFmpeg's count (its last block may be cut), and no more than
    // the whole recording has. (How many reached the disk by the copy depends on the muxer's buffering
    // and the machine's load, so a number of seconds is not asserted.)
    #expect(movie.frames > 0 && movie.frames <= recorded.recordedFrames, "\(movie), of \(recorded.recordedFrames)")
    if MediaInspector.hasFFprobe, let held = try await MediaInspector.probe(source.path).decodedFrames {
      #expect(movie.frames >= held - 1, "ffprobe decodes \(held) frames of the partial copy; \(movie)")
    }
    try await Self.expectWhole(movie)
  }

  @Test("a Matroska movie whose sound begins 1.5 s after its picture is repaired whole, both streams kept")
  func lateSound() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("late.partial.mkv")
    // In the file's order, 1.5 s of picture (45 frames) comes before the first sound packet.
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "-e", "videotestsrc", "num-buffers=120", "!", "video/x-raw,format=I420,framerate=30/1,width=320",
        "!", "x264enc", "tune=zerolatency", "!", "h264parse", "!", "matroskamux", "name=mux", "!", "filesink",
        "location=\(source.path)", "audiotestsrc", "num-buffers=100", "timestamp-offset=1500000000", "!",
        "voaacenc", "!", "mux.",
      ])
    try #require(made.status == 0, "\(made.output)")
    let movie = try await HVTMovieRepair.repair(source)
    #expect(movie.container == "Matroska" && movie.frames == 120, "\(movie)")
    let streams = try await MediaInspector.streams(movie.url.path)
    let sound = try #require(streams.first { $0.type == "audio" }, "\(streams)")
    #expect(abs(sound.start - 1.5) < 0.03, "\(sound)")
    try await Self.expectWhole(movie)
  }

  @Test("a repair never replaces an existing file unless asked, and then only a regular file")
  func destinationTaken() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("taken.partial.mp4")
    // A copy with two whole fragments, however far the muxer lags on a loaded machine.
    let recorded = try await Self.partialCopy(seconds: 1) {
      MP4Box.topLevel(of: $0).filter { $0.type == "moof" }.count >= 2
    }
    try recorded.data.write(to: source)
    let taken = directory.appendingPathComponent("taken.mp4")
    try Data("mine".utf8).write(to: taken)
    await #expect(throws: HVTCameraError.fileExists(path: taken.path, kept: nil)) {
      try await HVTMovieRepair.repair(source)
    }
    #expect(try Data(contentsOf: taken) == Data("mine".utf8))

    let folder = directory.appendingPathComponent("folder.mp4")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    await #expect(throws: HVTCameraError.notARegularFile(path: folder.path, kept: nil)) {
      try await HVTMovieRepair.repair(source, to: folder, replacingExisting: true)
    }

    let movie = try await HVTMovieRepair.repair(source, replacingExisting: true)
    #expect(movie.url == taken)
    try await Self.expectWhole(movie)
    let elsewhere = directory.appendingPathComponent("new folder/ü \"quoted\" !.mp4")
    #expect(try await HVTMovieRepair.repair(source, to: elsewhere).url == elsewhere)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        == ["folder.mp4", "new folder", "taken.mp4", "taken.partial.mp4"])
  }

  @Test("files that are not partial movies fail with an error naming the file and what is wrong")
  func notMovies() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = directory.appendingPathComponent("notes.partial.mp4")
    try Data("hello world, not a movie\n".utf8).write(to: text)
    let empty = directory.appendingPathComponent("empty.partial.mp4")
    try Data().write(to: empty)
    let missing = directory.appendingPathComponent("missing.partial.mp4")

    let cases: [(URL, HVTCameraError)] = [
      (text, .notAMovie(path: text.path, found: nil)),
      (empty, .nothingRecoverable(path: empty.path, reason: "the file is empty")),
      (missing, .fileReadFailed(path: missing.path, reason: "No such file or directory (errno 2)")),
      (directory, .fileReadFailed(path: directory.path, reason: "not a regular file")),
    ]
    for (file, expected) in cases {
      let error = await #expect(throws: HVTCameraError.self) { try await HVTMovieRepair.repair(file) }
      #expect(error == expected)
      #expect(error?.description.contains(file.path) == true, "\(String(describing: error))")
    }
    // Nothing was written.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        == ["empty.partial.mp4", "notes.partial.mp4"])
  }

  @Test("a JPEG photo is recognised, and refused as not a movie")
  func photoIsNotAMovie() async throws {
    let camera = try TestCamera()
    let photo = try await camera.controller.capturePhoto()
    let url = photo.url
    await #expect(throws: HVTCameraError.notAMovie(path: url.path, found: "image/jpeg")) {
      try await HVTMovieRepair.repair(url)
    }
    await camera.controller.dismissAndWait()
  }

  @Test("default destinations: .partial is dropped, any other name gets .repaired")
  func defaultDestinations() {
    let folder = URL(fileURLWithPath: "/videos")
    let cases = [
      ("MOV_20261130-221727_0002.partial.mp4", "MOV_20261130-221727_0002.mp4"), ("name.partial.webm", "name.webm"),
      ("name.partial", "name"), ("name.mp4", "name.repaired.mp4"), ("name", "name.repaired"),
      (".partial.mp4", ".partial.repaired.mp4"),
    ]
    for (source, destination) in cases {
      #expect(
        HVTMovieRepair.defaultDestination(for: folder.appendingPathComponent(source)).lastPathComponent == destination)
    }
  }

  @Test("a run without progress ends as stalled after the stall timeout; progress keeps a run going")
  func stall() throws {
    let silent = Pipeline(named: "stall-test")
    _ = try ElementChain(
      [
        HVTElementDescription("videotestsrc", ["is-live": "true"]),
        HVTElementDescription("fakesink", ["sync": "false"]),
      ], in: silent)
    let started = ContinuousClock.now
    let end = HVTMovieRepair.Progress(stallTimeout: 0.3).run(silent)
    guard case .stalled(let seconds) = end, seconds == 0.3 else {
      Issue.record("a pipeline that reports no progress did not stall: \(end)")
      return
    }
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    let source = URL(fileURLWithPath: "/videos/MOV_1.partial.mp4")
    #expect(
      end.error(for: .repair, of: source, frames: 7) == .repairStalled(path: source.path, seconds: 0.3, frames: 7))
    #expect(end.error(for: .repair, of: source, frames: 7).description.contains(source.path))

    let moving = Pipeline(named: "progress-test")
    let elements = try ElementChain(
      [
        HVTElementDescription("videotestsrc", ["is-live": "true", "num-buffers": "45"]),
        HVTElementDescription("fakesink", ["sync": "false"]),
      ], in: moving)
    let progress = HVTMovieRepair.Progress(stallTimeout: 1)
    elements.last.staticPad("sink")?.addProbe(.buffer) { _, _ in
      progress.noteProgress()
      return .ok
    }
    let running = ContinuousClock.now
    guard case .endOfStream = progress.run(moving) else {
      Issue.record("a pipeline that reports progress did not run to its end")
      return
    }
    #expect(ContinuousClock.now - running >= .seconds(1.4), "45 frames at 30 fps outlast the 1 s stall timeout")
  }
}
