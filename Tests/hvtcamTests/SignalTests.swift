import Foundation
import MediaInspection
import Testing

/// The stop signals end a capture cleanly, whenever they come: SIGHUP and SIGQUIT finalize like SIGINT
/// and SIGTERM, and a signal during start-up is acted on, never lost and never fatal.
@Suite("hvtcam and stop signals", .timeLimit(.minutes(2)))
struct SignalTests {
  @Test(
    "SIGHUP or SIGQUIT during a recording finalizes the movie; exit 0; no crash report", arguments: [SIGHUP, SIGQUIT])
  func finalizes(_ signal: Int32) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let recording = try HVTCam.start(["record"] + HVTCam.simulated + ["--max-duration", "600", "-o", path])
    _ = try await recording.requireStandardErrorLine("progress line") { $0.hasPrefix("elapsed 1 / ") }
    recording.send(signal)
    let result = await recording.result()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    #expect(!result.standardError.contains("crashed") && !result.standardError.contains("Backtrace"), "\(result)")
    #expect(result.errorLines.contains { $0.hasPrefix("stopped after ") && $0.hasSuffix("(requested)") }, "\(result)")
    try await expectH264Movie(at: path)
    #expect(try directory.contents() == ["movie.mp4"])
  }

  @Test("SIGTERM while the camera starts: the command ends by itself, cleanly, leaving no partial file")
  func duringStartUp() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    // -v prints the first bus message as the pipeline starts: the handlers are installed by then.
    let recording = try HVTCam.start(["record", "-v"] + HVTCam.simulated + ["--max-duration", "600", "-o", path])
    _ = try await recording.requireStandardErrorLine("first bus message") { $0.contains("state-changed") }
    recording.send(SIGTERM)
    let result = await recording.result()
    #expect(!result.signalled, "\(result)")
    if result.status == 0 {
      // The recording had started: it is finalized, and short.
      #expect(result.outputLines == [path], "\(result)")
      try await expectH264Movie(at: path)
    } else {
      #expect(result.status == 1, "\(result)")
      #expect(result.standardError.contains("interrupted by SIGTERM before the recording started"), "\(result)")
    }
    let left = try directory.contents()
    #expect(left.allSatisfy { !$0.contains("partial") }, "\(left)")
  }

  @Test("SIGINT during --count 10000 stops after the photo in progress: exit 1, every photo written whole")
  func duringPhotos() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photos = try HVTCam.start(
      ["photo", "-v"] + HVTCam.simulated + ["--count", "10000", "-o", directory.path("shot.jpg")])
    _ = try await photos.requireStandardErrorLine("the camera playing") {
      $0.contains("GstPipeline:hvtcamera1: PAUSED -> PLAYING")
    }
    photos.send(SIGINT)
    let result = await photos.result()
    #expect(result.status == 1 && !result.signalled, "\(result)")
    let taken = result.outputLines.count
    #expect(taken < 10000)
    #expect(result.standardError.contains("interrupted by SIGINT after \(taken) of 10000 photos"), "\(result)")
    #expect(try directory.contents().count == taken)
    for path in result.outputLines { try await expectJPEG(at: path) }
  }
}
