import Foundation
import HVTCamera
import MediaInspection
import Testing

/// A movie recorded while streaming takes the streams' encoder (``HVTCameraController/startStreaming(to:)``
/// without a pre-roll): one encoder for both, the movie as whole as one with an encoder of its own. With
/// the sound tests, one at a time.
extension AudioRecordingTests {
  @Test(
    "a movie made while streaming takes the streams' encoder: it begins at the call with a key frame, lasts its maximum duration, pauses, decodes whole with its sound lined up, and outlives the stream"
  )
  func movieOnStreamEncoder() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    // Key frames 4 s apart and none at x264's scene cuts (which the simulated camera's pattern makes every
    // few frames): a movie that began at the encoder's next key frame, not one asked for, would start late.
    var preset = try HVTPreset.named("default")
    preset.movieEncoder = HVTElementSlot([
      HVTElementDescription(
        "x264enc", ["speed-preset": "superfast", "tune": "zerolatency", "option-string": "scenecut=0"])
    ])
    camera.controller.preset = preset
    camera.controller.videoQuality = .type640x480
    camera.controller.videoKeyFrameInterval = 4
    let messages = camera.controller.busMessages
    let encoders = Task {
      var playing: [String] = []
      for await message in messages
      where message.element.contains("GstX264Enc") && message.details.hasPrefix("PAUSED -> PLAYING") {
        playing.append(message.element)
      }
      return playing
    }
    try await camera.controller.presentAndWait()
    let target = HVTStreamTarget.rtspServer(port: 0, address: "127.0.0.1")
    try await camera.controller.startStreaming(to: target)

    // The frame of the moment, on the camera's running clock: the call comes right after it.
    let photo = try await camera.controller.capturePhoto()
    camera.controller.videoMaximumDuration = 3
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    _ = try await pause(camera)
    // The last stream stops while the movie is paused: the encoder runs on for the movie.
    camera.controller.stopStreaming()
    _ = try await camera.delegate.nextEvent { if case .streamStopped(target) = $0 { true } else { nil } }
    #expect(camera.controller.resumeVideoCapture())
    _ = try await camera.delegate.nextEvent { if case .recordingResumed = $0 { true } else { nil } }
    let movie = try await camera.delegate.nextCapture(.movie)
    let metadata = try movie.metadata
    // The movie begins after the call, with the key frame asked for when the branch linked (frameAge: how
    // old the first frame was then; negative, a frame made after it): within 0.2 s of the link. The time
    // from the call to the link is the worker's (the record-start row of the benchmark measures it); a
    // loaded machine stretched it to 0.33 s once, with the movie beginning on time after its link.
    let late = metadata.frameTimestamp - photo.metadata.frameTimestamp
    #expect(late >= 0, "the movie begins \(late) s after the frame before the call")
    let afterLink = -(metadata.frameAge ?? .infinity)
    #expect(afterLink < 0.2, "the movie begins \(afterLink) s after its branch was linked: \(metadata)")
    #expect(metadata.stopReason == .maximumDurationReached && metadata.pauses == 1, "\(metadata)")
    let path = try movie.movieURL.path
    let streams = try await MediaInspector.streams(path)
    try expectLinedUp(streams, movie, codec: "aac")
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    #expect(abs(video.start) < 0.001 && abs(video.end - 3) < Self.frame / 2 && video.packets == 90, "\(video)")
    expectNoHole(video)
    expectNoHole(streams.first { $0.type == "audio" })
    #expect(try await MediaInspector.decodedFrameCount(path) == 90)
    #expect(movie.info[.thumbnail] != nil, "made from the file")

    // With no stream left, the next movie encodes for itself.
    _ = try await camera.controller.recordMovie(maximumDuration: 0.5)
    await camera.controller.dismissAndWait()
    encoders.cancel()
    // The movies' own encoder, armed when the camera started (before the stream), runs again after the
    // streams' encoder: for the last movie.
    let seen = await encoders.value.map { $0.split(separator: ":").last.map(String.init) ?? $0 }
    let stream = try #require(seen.firstIndex(of: "stream-encoding-encoder"), "the encoders that ran: \(seen)")
    #expect(seen[stream...].contains("movie-encoder"), "the encoders that ran, in order: \(seen)")
  }
}
