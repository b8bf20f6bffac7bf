import Foundation
import MediaInspection
import Testing

extension RecordCommandTests {
  @Test(
    "--pre-roll 1: SIGUSR1 starts a 2 s movie of which 1 s came before it; under the leaks tracer, no object alive",
    .timeLimit(.minutes(2)))
  func preRollTrigger() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let recording = try HVTCam.start(
      ["record"] + HVTCam.recording + [
        "--pre-roll", "1", "--keyframe-interval", "0.5", "--max-duration", "2", "-o", path,
      ],
      environment: LeakTests.tracing(configHome: directory.url))
    _ = try await recording.requireStandardErrorLine("pre-roll line") { $0.hasPrefix("pre-roll holds 1.") }
    // Nothing records before the trigger.
    #expect(!FileManager.default.fileExists(atPath: directory.path("movie.partial.mp4")))
    recording.send(SIGUSR1)
    let result = await recording.result()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    // The limit counts the pre-roll: once triggered, the second second of the movie is recorded.
    #expect(result.errorLines.contains { $0.hasPrefix("stopped after 00:02.0") }, "\(result)")
    let discovery = try await expectH264Movie(at: path)
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(abs(duration - 2.0) <= 1.0 / 30 + 1e-6, "duration \(duration) s")
    // Picture and sound, both from the pre-roll on, lined up, with no hole.
    let streams = try await MediaInspector.streams(path)
    #expect(streams.map(\.type).sorted() == ["audio", "video"], "\(streams)")
    for stream in streams { #expect(stream.largestGap < 1.0 / 30 && abs(stream.start) < 1.0 / 30, "\(stream)") }
    if streams.count == 2 { #expect(abs(streams[0].end - streams[1].end) < 1.0 / 30, "\(streams)") }
    #expect(try await MediaInspector.decodedFrameCount(path) == 60)
    LeakTests.expectNoLeaks(result)
  }

  @Test(
    "--pre-roll: a stop signal before the trigger ends hvtcam with an error that says so, and no movie",
    .timeLimit(.minutes(2)))
  func preRollStoppedBeforeTrigger() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let recording = try HVTCam.start(["record"] + HVTCam.recording + ["--pre-roll", "1", "-o", path])
    _ = try await recording.requireStandardErrorLine("pre-roll line") { $0.hasPrefix("pre-roll holds 1.") }
    recording.send(SIGINT)
    let result = await recording.result()
    #expect(!result.succeeded && !result.signalled, "\(result)")
    #expect(result.standardError.contains("interrupted by SIGINT before the recording was triggered"), "\(result)")
    #expect(try directory.contents().isEmpty, "no movie, no partial file")
  }
}
