import Foundation
import MediaInspection
import Testing

@Suite("hvtcam record")
struct RecordCommandTests {
  @Test("--flash on lights the simulated rear camera's torch for the movie; off does not", .timeLimit(.minutes(2)))
  func torch() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var lumas: [String: Double] = [:]
    for mode in ["off", "on"] {
      let path = directory.path("\(mode).mp4")
      let result = try await HVTCam.run(
        ["record"] + HVTCam.recording + ["--flash", mode, "--max-duration", "1", "-o", path])
      #expect(result.succeeded, "\(result)")
      lumas[mode] = try await MediaInspector.meanLuma(ofMovie: path, at: 0.7)
    }
    let (lit, unlit) = (try #require(lumas["on"]), try #require(lumas["off"]))
    #expect(lit > unlit + 0.1, "--flash on \(lit), off \(unlit)")
    let wrong = try await HVTCam.run(["record"] + HVTCam.recording + ["--flash", "strobe"])
    #expect(wrong.status == 64 && wrong.standardError.contains("--flash"), "\(wrong)")
  }

  @Test(
    "by default, with an encoder stage of 300 ms a frame (a preset's identity sleep-time), frames are left out: the 3 s movie's frames each at its own time, those missing the ones it says it left out",
    .timeLimit(.minutes(2)))
  func leaveFramesOut() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let preset = directory.path("slow.json")
    try Data(
      """
      {
        "name": "slow", "description": "an encoder stage of 300 ms a frame", "quality": "640x480",
        "preview": "fakesink sync=false", "photo": { "encoder": "jpegenc", "extension": "jpg" },
        "movie": {
          "encoder": "x264enc speed-preset=ultrafast tune=zerolatency", "parser": "identity sleep-time=300000",
          "muxer": "mp4mux fragment-duration=500", "extension": "mp4"
        }
      }
      """.utf8
    ).write(to: URL(fileURLWithPath: preset))
    let path = directory.path("movie.mp4")
    let result = try await HVTCam.run(
      ["record", "--device", "simulated", "--preset", preset, "--max-duration", "3", "-o", path])
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    let said = result.errorLines.first { $0.hasPrefix("frames left out because the encoder could not keep up: ") }
    let dropped = try #require(said.flatMap { Int($0.split(separator: " ").last ?? "") }, "\(result)")
    #expect(result.errorLines.contains { $0.hasPrefix("the encoder cannot keep up: ") }, "\(result)")
    let times = try await MediaInspector.presentationTimes(path)
    let slots = Set(times.map { Int(($0 * 30).rounded()) })
    #expect(slots.count == times.count && slots.allSatisfy { (0..<90).contains($0) }, "\(times)")
    #expect(dropped > 0 && 90 - slots.count == dropped, "\(dropped) left out, \(times.count) kept")
  }

  @Test("--max-duration 2 writes a 640x480 H.264 MP4 of 2.0 s and prints its path", .timeLimit(.minutes(2)))
  func maximumDuration() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let result = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "2", "-o", path])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path])
    let discovery = try await expectH264Movie(at: path)
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(abs(duration - 2.0) <= 1.0 / 30 + 1e-6, "duration \(duration) s")
    let count = try await MediaInspector.frameCount(path)
    #expect(abs(count.frames - 60) <= 1, "\(count.frames) frames\n\(count.output)")
    #expect(try directory.contents() == ["movie.mp4"], "no partial file is left behind")
  }

  @Test(
    "--keyframe-interval 0.2 puts key frames at most 6 frames apart at 30 fps, as ffprobe reads the movie",
    .timeLimit(.minutes(2)), .enabled(if: MediaInspector.hasFFprobe, "ffprobe is not installed"))
  func keyFrameInterval() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let result = try await HVTCam.run(
      ["record"] + HVTCam.recording + [
        "--max-duration", "1", "--keyframe-interval", "0.2", "--bitrate", "400000", "-o", path,
      ])
    #expect(result.succeeded, "\(result)")
    let packets = try await MediaInspector.packets(path)
    #expect(packets.count == 30 && packets.keyFrames.count >= 5, "\(packets.keyFrames) of \(packets.count)")
    #expect(packets.longestKeyFrameDistance <= 6, "\(packets.keyFrames) of \(packets.count)")
  }

  @Test(
    "SIGTERM, SIGINT, SIGHUP or SIGQUIT during a long recording finalizes the movie and exits 0, no crash report",
    .timeLimit(.minutes(2)), arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
  func stopsOnSignal(_ signal: Int32) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let recording = try HVTCam.start(["record"] + HVTCam.recording + ["--max-duration", "600", "-o", path])
    _ = try await recording.requireStandardErrorLine("progress line") { $0.hasPrefix("elapsed 1 / ") }
    recording.send(signal)
    let result = await recording.result()
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path])
    #expect(result.errorLines.contains { $0.hasPrefix("stopped after ") && $0.hasSuffix("(requested)") }, "\(result)")
    #expect(!result.standardError.contains("crashed") && !result.standardError.contains("Backtrace"), "\(result)")
    let discovery = try await expectH264Movie(at: path)
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(duration >= 1.0 && duration < 30, "duration \(duration) s")
    let count = try await MediaInspector.frameCount(path)
    #expect(count.clean, "\(count.output)")
    #expect(count.frames >= 30, "\(count.frames) frames")
  }

  @Test(
    "SIGUSR1 pauses the recording and resumes it: one movie whose frames follow each other with no hole",
    .timeLimit(.minutes(2)))
  func pausesOnSignal() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    // No limit to race: beside the whole suite, the progress line can reach the test seconds late. The
    // recording pauses, resumes, goes on to its second second, and is stopped with SIGINT.
    let recording = try HVTCam.start(["record"] + HVTCam.recording + ["--max-duration", "60", "-o", path])
    _ = try await recording.requireStandardErrorLine("progress line") { $0.hasPrefix("elapsed 1 / ") }
    recording.send(SIGUSR1)
    // The pause takes the moment of the signal, on the camera's clock; on a loaded machine the encoder's
    // progress lags it (a pause at 00:12.1 for a signal sent at "elapsed 1" once), so any time will do.
    _ = try await recording.requireStandardErrorLine("pause line") { $0.hasPrefix("paused at ") }
    recording.send(SIGUSR1)
    _ = try await recording.requireStandardErrorLine("resume line") { $0.hasPrefix("resumed at ") }
    _ = try await recording.requireStandardErrorLine("progress line") { $0.hasPrefix("elapsed 2 / ") }
    recording.send(SIGINT)
    let result = await recording.result()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    let stopped = try #require(
      result.standardError.split(separator: "\n").first { $0.hasPrefix("stopped after 00:") }, "\(result)")
    let recorded = try #require(Double(stopped.dropFirst("stopped after 00:".count).prefix(4)), "\(stopped)")
    let discovery = try await expectH264Movie(at: path)
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(abs(duration - recorded) <= 0.1 + 1.0 / 30, "\(duration) s in the file, \(stopped)")
    let count = try await MediaInspector.frameCount(path)
    #expect(abs(Double(count.frames) - duration * 30) <= 1 && count.clean, "\(count.frames) frames\n\(count.output)")
    let streams = try await MediaInspector.streams(path)
    for stream in streams { #expect(stream.largestGap < 1.0 / 30, "\(stream)") }
    #expect(streams.map(\.type).sorted() == ["audio", "video"], "\(streams)")
  }

  @Test("-o with spaces, quotes, !, = and ü in the path", .timeLimit(.minutes(2)))
  func awkwardPath() async throws {
    let directory = try TemporaryDirectory(awkwardDirectory)
    defer { directory.remove() }
    let path = directory.path("\(awkwardName).mp4")
    let result = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path])
    let discovery = try await expectH264Movie(at: path)
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(abs(duration - 1.0) <= 1.0 / 30 + 1e-6, "duration \(duration) s")
  }
}
