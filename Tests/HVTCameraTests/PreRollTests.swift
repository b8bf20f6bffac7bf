import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Movies that begin before they are asked for (``HVTCameraController/preRollDuration``), read back by
/// ffprobe and by decoding, and placed on the camera's running clock by a photo taken just before the
/// call. With the sound tests, one at a time.
extension AudioRecordingTests {
  /// A presented simulated camera in video mode at 640x480 with a 2 s pre-roll and key frames every half
  /// second, once the pre-roll holds its two seconds.
  static func preRollCamera(capturesAudio: Bool = true, keyFrameInterval: Double = 0.5) async throws -> TestCamera {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preRollDuration = 2
    camera.controller.videoKeyFrameInterval = keyFrameInterval
    camera.controller.capturesAudio = capturesAudio
    try await camera.controller.presentAndWait()
    let fill = try await camera.delegate.nextEvent { if case .preRollFilled(let fill) = $0 { fill } else { nil } }
    #expect(fill.seconds >= 2 && fill.seconds < 2 + keyFrameInterval + 2 * frame && fill.bytes > 0, "\(fill)")
    return camera
  }

  @Test(
    "a pre-roll movie begins 2 s before the call, at a key frame, its sound lined up with its picture and no hole where the pre-roll meets the live frames"
  )
  func preRollMovie() async throws {
    let camera = try await Self.preRollCamera()
    // The frame of the moment, on the camera's running clock: the call comes right after it.
    let photo = try await camera.controller.capturePhoto()
    let movie = try await camera.controller.recordMovie(maximumDuration: 3)
    let metadata = movie.metadata
    let before = photo.metadata.frameTimestamp - metadata.frameTimestamp
    #expect(before >= 2 - Self.frame && before <= 2.5 + 3 * Self.frame, "begins \(before) s before the photo's frame")
    let age = try #require(metadata.frameAge)
    #expect(age >= 2 && age <= 2.5 + 3 * Self.frame, "the pre-roll's age at the call: \(age) s")
    #expect(metadata.stopReason == .maximumDurationReached, "\(metadata)")

    let path = movie.url.path
    let streams = try await MediaInspector.streams(path)
    try expectLinedUp(streams, Capture(movie.info), codec: "aac")
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    #expect(abs(video.start) < 0.001 && abs(video.end - 3) < Self.frame / 2, "\(video)")
    #expect(video.packets == 90 && video.largestGap < Self.frame, "\(video)")
    expectNoHole(streams.first { $0.type == "audio" })
    // Every frame decodes: the movie begins with a key frame.
    #expect(try await MediaInspector.decodedFrameCount(path) == 90)
    #expect(metadata.frameCount == 90, "\(metadata)")
    let thumbnail = try #require(movie.thumbnail, "made from the file")
    #expect(thumbnail.width == 320 && thumbnail.height == 240, "\(thumbnail.width)x\(thumbnail.height)")
  }

  @Test("a paused pre-roll movie goes on with a key frame: every frame decodes, and neither stream has a hole")
  func pausedPreRollMovie() async throws {
    // Key frames 2 s apart: the resume's own key frame, asked of the encoder, ends the pause.
    let camera = try await Self.preRollCamera(keyFrameInterval: 2)
    camera.controller.videoMaximumDuration = 6
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 3)
    _ = try await pause(camera)
    let clock = ContinuousClock()
    let paused = clock.now
    // The pause lasts as long as photos taken one after another for half a second.
    while clock.now - paused < .milliseconds(500) { _ = try await camera.controller.capturePhoto() }
    #expect(camera.controller.resumeVideoCapture())
    let waited = (clock.now - paused) / .seconds(1)
    let pausedFor = try await camera.delegate.nextEvent { event -> Double? in
      if case .recordingResumed(_, let pausedFor) = event { pausedFor } else { nil }
    }
    #expect(pausedFor > 0.4 && abs(pausedFor - waited) < 0.25, "paused for \(pausedFor) s, waited \(waited) s")
    let movie = try await camera.delegate.nextCapture(.movie)
    let metadata = try movie.metadata
    #expect(metadata.stopReason == .maximumDurationReached && abs((metadata.duration ?? 0) - 6) < Self.frame)
    #expect(metadata.pauses == 1, "\(metadata)")
    let path = try movie.movieURL.path
    let streams = try await MediaInspector.streams(path)
    try expectLinedUp(streams, movie, codec: "aac")
    expectNoHole(streams.first { $0.type == "video" })
    expectNoHole(streams.first { $0.type == "audio" })
    #expect(try await MediaInspector.decodedFrameCount(path) == metadata.frameCount, "\(metadata)")
  }

  @Test("pre-roll movies one after another each begin with their own pre-roll; memory stays bounded")
  func consecutivePreRollMovies() async throws {
    let camera = try await Self.preRollCamera(capturesAudio: false)
    for _ in 0..<2 {
      #expect(camera.controller.startVideoCapture())
      try await camera.waitForRecorded(seconds: 3)
      camera.controller.stopVideoCapture()
      let movie = try await camera.delegate.nextCapture(.movie)
      let metadata = try movie.metadata
      #expect((metadata.frameAge ?? 0) >= 2 && metadata.audioEncoder == nil, "\(metadata)")
      let path = try movie.movieURL.path
      let duration = try #require(try await MediaInspector.discover(path).duration)
      #expect(abs(duration - (metadata.duration ?? 0)) < Self.frame && duration >= 3, "\(duration) s: \(metadata)")
      #expect(try await MediaInspector.streams(path).map(\.type) == ["video"], "silent as asked")
      let fill = try #require(camera.controller.preRollFill)
      #expect(fill.seconds >= 2 && fill.seconds < 2.5 + 2 * Self.frame, "\(fill)")
    }
  }

  @Test("a pre-roll whose microphone cannot be opened: an event says why, and its movies keep their video, silent")
  func preRollMicrophoneMissing() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    var preset = try HVTPreset.default
    preset.audioSource = HVTElementDescription("filesrc", ["location": "/nonexistent/microphone"])
    camera.controller.preset = preset
    camera.controller.preRollDuration = 1
    try await camera.controller.presentAndWait()
    let reason = try await camera.delegate.nextEvent {
      if case .audioUnavailable(let reason) = $0 { reason } else { nil }
    }
    #expect(reason.contains("the pre-roll's microphone (microphone) could not be opened"), "\(reason)")
    _ = try await camera.delegate.nextEvent { if case .preRollFilled(let fill) = $0 { fill } else { nil } }
    let movie = try await camera.controller.recordMovie(maximumDuration: 2)
    let streams = try await MediaInspector.streams(movie.url.path)
    #expect(streams.map(\.type) == ["video"] && abs((streams.first?.duration ?? 0) - 2) < Self.frame, "\(streams)")
    #expect(movie.metadata.audioEncoder == nil && (movie.metadata.frameAge ?? 0) >= 1, "\(movie.metadata)")
  }
}
