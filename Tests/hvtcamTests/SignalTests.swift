import Foundation
import MediaInspection
import Testing

/// The stop signals end a capture cleanly, whenever they come: a signal during start-up or between photos
/// is acted on, never lost and never fatal. (A signal during a recording: `RecordCommandTests`.)
@Suite("hvtcam and stop signals", .timeLimit(.minutes(2)))
struct SignalTests {
  @Test("SIGTERM while the camera starts: the command ends by itself, cleanly, leaving no partial file")
  func duringStartUp() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    // -v prints the first bus message as the pipeline starts: the handlers are installed by then.
    let recording = try HVTCam.start(["record", "-v"] + HVTCam.recording + ["--max-duration", "600", "-o", path])
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
