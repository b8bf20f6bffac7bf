import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Pausing a recording with sound (``HVTCameraController/pauseVideoCapture()``): one movie, both streams
/// with no hole in their timestamps, read back by ffprobe. With the sound tests, one at a time.
extension AudioRecordingTests {
  /// Pauses the recording of `camera`, waits until the pause took effect, and returns the seconds of the
  /// movie when it did.
  func pause(_ camera: TestCamera) async throws -> Double {
    #expect(camera.controller.pauseVideoCapture())
    #expect(!camera.controller.pauseVideoCapture(), "a second pause is refused")
    #expect(camera.controller.isVideoCapturePaused)
    return try await camera.delegate.nextEvent { if case .recordingPaused(let elapsed) = $0 { elapsed } else { nil } }
  }

  /// Checks that `stream` has no hole longer than a frame between its packets.
  func expectNoHole(_ stream: MediaInspector.Stream?) {
    #expect(stream.map { $0.largestGap < Self.frame } ?? false, "\(String(describing: stream))")
  }

  @Test("a paused and resumed recording is one movie whose picture and sound have no hole where the pause was")
  func pauseAndResume() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.videoQuality = .type640x480
    camera.controller.videoMaximumDuration = 2
    try await camera.controller.presentAndWait()
    #expect(!camera.controller.pauseVideoCapture(), "nothing records yet")
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    let pausedAt = try await pause(camera)
    let clock = ContinuousClock()
    let paused = clock.now
    // Photos go on while the movie is paused; they are taken one after another for half a second, and the
    // time they take is the pause.
    var photos = 0
    while clock.now - paused < .milliseconds(500) {
      _ = try await camera.controller.capturePhoto()
      photos += 1
    }
    #expect(photos >= 2, "photos while paused")
    #expect(camera.controller.resumeVideoCapture())
    #expect(!camera.controller.resumeVideoCapture(), "a second resume is refused")
    let (resumedAt, pausedFor) = try await camera.delegate.nextEvent { event -> (Double, Double)? in
      if case .recordingResumed(let elapsed, let pausedFor) = event { (elapsed, pausedFor) } else { nil }
    }
    let waited = (clock.now - paused) / .seconds(1)
    #expect(!camera.controller.isVideoCapturePaused)
    #expect(abs(resumedAt - pausedAt) <= Self.frame + 0.001, "paused at \(pausedAt) s, resumed at \(resumedAt) s")
    // The pause lasted from its event to the resume's, give or take a frame and the delegate's delivery.
    #expect(pausedFor > 0.4 && abs(pausedFor - waited) < 0.25, "paused for \(pausedFor) s, waited \(waited) s")

    let movie = try await camera.delegate.nextCapture(.movie)
    let metadata = try movie.metadata
    // The limit counts the time recorded, not the time paused.
    #expect(metadata.stopReason == .maximumDurationReached)
    #expect(abs((metadata.duration ?? 0) - 2) < Self.frame, "\(metadata)")
    #expect(metadata.pauses == 1 && abs((metadata.pausedDuration ?? 0) - pausedFor) < 0.001, "\(metadata)")
    let streams = try await MediaInspector.streams(try movie.movieURL.path)
    try expectLinedUp(streams, movie, codec: "aac")
    expectNoHole(streams.first { $0.type == "video" })
    expectNoHole(streams.first { $0.type == "audio" })
    let decoded = try await MediaInspector.decodedFrameCount(try movie.movieURL.path)
    #expect(decoded == metadata.frameCount, "decoded \(decoded) frames: \(metadata)")
  }

  @Test("a recording stopped while paused is delivered as it stood, its sound ending with its picture")
  func stopWhilePaused() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.videoQuality = .type640x480
    camera.controller.videoMaximumDuration = 60
    try await camera.controller.presentAndWait()
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    let pausedAt = try await pause(camera)
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(!camera.controller.isVideoCapturePaused)
    let metadata = try movie.metadata
    #expect(metadata.stopReason == .requested, "\(metadata)")
    #expect(abs((metadata.duration ?? 0) - pausedAt) < Self.frame, "paused at \(pausedAt) s: \(metadata)")
    #expect(metadata.pauses == 1 && metadata.pausedDuration == 0, "\(metadata)")
    let streams = try await MediaInspector.streams(try movie.movieURL.path)
    try expectLinedUp(streams, movie, codec: "aac")
  }
}
