import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The next recording's encoding, made and opened before the recording is asked for (``ArmedRecording``),
/// seen as GStreamer reports it: `x264enc` (a `GstVideoEncoder`) posts `latency` once it has opened its
/// encoder for the camera's caps.
@Suite("The next recording's encoding, ready ahead", .timeLimit(.minutes(1)))
struct ArmedRecordingTests {
  static let encoder = "/GstBin:recording/GstX264Enc:movie-encoder"

  /// Whether `message` says the armed encoding's encoder has opened (its `latency` message).
  static func saysOpened(_ message: HVTBusMessage) -> Bool {
    message.type == "latency" && message.element.hasSuffix(encoder)
  }

  @Test(
    "in video mode the movies' encoder opens with no recording asked for; a recording takes it without opening one, the next is ready after it; photo mode takes it out"
  )
  func armedAhead() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    var messages = camera.controller.busMessages.makeAsyncIterator()
    try await camera.controller.presentAndWait()
    while let message = await messages.next(), !Self.saysOpened(message) {}
    let idle = try #require(camera.controller.pipelineGraph())
    #expect(idle.contains("movie-encoder") && idle.contains("muxer") && !idle.contains("GstFileSink"), "\(idle)")

    let movie = try await camera.controller.recordMovie(maximumDuration: 1)
    let counted = try await MediaInspector.frameCount(movie.url.path)
    #expect(counted.frames == 30, "\(counted.output)")
    #expect(try await MediaInspector.discover(movie.url.path).isH264)
    // The next encoder to open is the next recording's, made once this one's branch has stopped: the
    // recording opened none of its own.
    var branchStopped = false
    while let message = await messages.next() {
      if Self.saysOpened(message) { break }
      if message.type == "state-changed", message.element.hasSuffix("/GstBin:recording"),
        message.details.hasPrefix("READY -> NULL")
      {
        branchStopped = true
      }
    }
    #expect(branchStopped, "an encoder opened while the movie was recorded")

    camera.controller.cameraCaptureMode = .photo
    while let message = await messages.next(),
      !(message.type == "state-changed" && message.element.hasSuffix("/GstBin:recording")
        && message.details.hasPrefix("READY -> NULL"))
    {}
    // The worker takes the stopped bin out of the pipeline right after it posts that message (`Teardown`):
    // the next block on the worker runs once it has.
    await withCheckedContinuation { done in camera.controller.worker.async { done.resume() } }
    let photoMode = try #require(camera.controller.pipelineGraph())
    #expect(!photoMode.contains("movie-encoder"), "\(photoMode)")
    await camera.controller.dismissAndWait()
  }
}
