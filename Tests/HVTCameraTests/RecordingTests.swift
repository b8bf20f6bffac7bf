import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

@Suite("Recording", .timeLimit(.minutes(2)))
struct RecordingTests {
  @Test("startVideoCapture returns false in photo mode, without .movie, and while recording")
  func refusals() async throws {
    let camera = try TestCamera(mode: .photo)
    #expect(!camera.controller.startVideoCapture())
    camera.controller.cameraCaptureMode = .video
    try camera.controller.setMediaTypes([.image])
    #expect(!camera.controller.startVideoCapture())
    try camera.controller.setMediaTypes([.movie])
    #expect(camera.controller.startVideoCapture())
    #expect(!camera.controller.startVideoCapture())
    #expect(camera.controller.isRecording)
    camera.controller.stopVideoCapture()
    _ = try await camera.delegate.nextCapture(.movie)
    await camera.controller.dismissAndWait()
  }

  @Test("a recording is an H.264 MP4 of the right size and duration; twice in a row works")
  func recordTwice() async throws {
    let camera = try TestCamera(quality: .type640x480, mode: .video)
    var urls: [URL] = []
    for _ in 0..<2 {
      try await camera.startRecording()
      try await camera.waitForRecorded(seconds: 1)
      camera.controller.stopVideoCapture()
      let movie = try await camera.delegate.nextCapture(.movie)
      let url = try movie.movieURL
      let metadata = try movie.metadata
      let report = try await MediaInspector.discover(url)
      #expect(report.isH264)
      #expect(report.width == 640 && report.height == 480)
      let duration = try #require(metadata.duration)
      #expect(duration >= 1)
      #expect(
        abs(try #require(report.duration) - duration) <= 1.0 / 30 + 0.001,
        "file \(report.duration ?? -1) s, recorded \(duration) s")
      #expect(try await MediaInspector.frameCount(url) == metadata.frameCount)
      #expect(metadata.encoder == "x264enc" && metadata.muxer == "mp4mux" && metadata.stopReason == .requested)
      #expect(url.pathExtension == "mp4" && !url.lastPathComponent.contains("partial"))
      urls.append(url)
    }
    #expect(Set(urls).count == 2)
    // Nothing partial is left behind.
    let files = try FileManager.default.contentsOfDirectory(atPath: camera.directory.path)
    #expect(files.sorted() == urls.map(\.lastPathComponent).sorted())
    #expect(camera.controller.isPresented)
    await camera.controller.dismissAndWait()
  }

  @Test("the torch in video mode: .on lights the simulated rear camera's movie, .off does not, and it goes out after")
  func torch() async throws {
    let camera = try TestCamera(quality: .type640x480, mode: .video)
    var lumas: [HVTCameraController.CameraFlashMode: Double] = [:]
    for mode in [HVTCameraController.CameraFlashMode.off, .on] {
      camera.controller.cameraFlashMode = mode
      try await camera.startRecording()
      try await camera.waitForRecorded(seconds: 1)
      camera.controller.stopVideoCapture()
      let movie = try await camera.delegate.nextCapture(.movie)
      lumas[mode] = try await MediaInspector.meanLuma(ofMovie: try movie.movieURL.path, at: 0.8)
    }
    let (lit, unlit) = (try #require(lumas[.on]), try #require(lumas[.off]))
    #expect(lit > unlit + 0.1, "torch on \(lit), off \(unlit)")
    // Out once the recording ends: a photo taken with the flash off after it is as dark as the unlit movie.
    camera.controller.cameraFlashMode = .off
    camera.controller.cameraCaptureMode = .photo
    try camera.controller.setMediaTypes([.image, .movie])
    let photo = try await camera.controller.capturePhoto()
    let after = try await MediaInspector.meanLuma(ofJPEG: photo.url.path)
    #expect(abs(after - unlit) < 0.05, "a photo after the recording \(after), the unlit movie \(unlit)")
    await camera.controller.dismissAndWait()
  }

  @Test("videoMaximumDuration stops the recording; the file lasts the limit within one frame", arguments: [1.0, 1.5])
  func maximumDuration(limit: Double) async throws {
    let camera = try TestCamera(mode: .video)
    camera.controller.videoMaximumDuration = limit
    try await camera.startRecording()
    let movie = try await camera.delegate.nextCapture(.movie)
    let report = try await MediaInspector.discover(try movie.movieURL)
    #expect(
      abs(try #require(report.duration) - limit) <= 1.0 / 30,
      "file lasts \(report.duration ?? -1) s for a limit of \(limit) s")
    #expect(try movie.metadata.stopReason == .maximumDurationReached)
    #expect(try await MediaInspector.frameCount(movie.movieURL) == Int((limit * 30).rounded()))
    #expect(!camera.controller.isRecording)
    await camera.controller.dismissAndWait()
  }

  @Test("a photo taken while recording does not disturb the recording")
  func photoWhileRecording() async throws {
    let camera = try TestCamera(mode: .video)
    try await camera.startRecording()
    camera.controller.takePicture()
    let photo = try await camera.delegate.nextCapture(.image)
    #expect(try photo.image.width == 640)
    #expect(camera.controller.isRecording)
    try await camera.waitForRecorded(seconds: 2)
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    let url = try movie.movieURL
    let metadata = try movie.metadata
    // The photo's frame is one of the movie's, and every frame of the movie is there: none lost to it.
    let start = metadata.frameTimestamp
    let photoTime = try photo.metadata.frameTimestamp
    #expect(photoTime >= start && photoTime <= start + (metadata.duration ?? 0))
    let frames = try await MediaInspector.frameCount(url)
    #expect(frames == metadata.frameCount)
    #expect(abs(Double(frames) / 30 - (try #require(try await MediaInspector.discover(url).duration))) <= 1.0 / 30)
    await camera.controller.dismissAndWait()
  }

  @Test("dismiss() finalizes and delivers a recording in progress")
  func dismissFinalizes() async throws {
    let camera = try TestCamera(mode: .video)
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    await camera.controller.dismissAndWait()
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(try movie.metadata.stopReason == .cameraStopped)
    #expect(try await MediaInspector.discover(movie.movieURL).isH264)
    #expect(!camera.controller.isPresented)
  }

  @Test("recording events: started with the partial file, progress each second, stopped")
  func events() async throws {
    let camera = try TestCamera(mode: .video)
    camera.controller.videoMaximumDuration = 2
    #expect(camera.controller.startVideoCapture())
    let partial = try await camera.delegate.nextEvent { if case .recordingStarted(let url) = $0 { url } else { nil } }
    #expect(partial.lastPathComponent.hasSuffix(".partial.mp4"))
    let progress = try await camera.delegate.nextEvent { event -> (Double, Double)? in
      if case .recordingProgress(let elapsed, let limit) = event { (elapsed, limit) } else { nil }
    }
    #expect(progress == (1, 2))
    let stopped = try await camera.delegate.nextEvent { event -> HVTRecordingStopReason? in
      if case .recordingStopped(_, let reason) = event { reason } else { nil }
    }
    #expect(stopped == .maximumDurationReached)
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(try movie.movieURL.deletingLastPathComponent() == partial.deletingLastPathComponent())
    #expect(!FileManager.default.fileExists(atPath: partial.path))
    await camera.controller.dismissAndWait()
  }

  @Test("a movie starts with the frame of the moment, and a stop right after the start still plays")
  func startsWithTheFrameOfTheMoment() async throws {
    let camera = try TestCamera(mode: .video)
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    // What the preview has seen before the call passed the tee earlier than the frame of the moment.
    let shown = try #require(camera.controller.previewStatistics?.latestFrameTimestamp)
    try await camera.startRecording()
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    let metadata = try movie.metadata
    // The first frame already existed at the call (the camera's next frame would be younger than it).
    let age = try #require(metadata.frameAge)
    #expect(age >= 0, "first frame \(age) s old at the call")
    #expect(metadata.frameTimestamp >= shown, "first frame at \(metadata.frameTimestamp) s, preview at \(shown) s")
    #expect(try #require(metadata.frameCount) >= RecordingClock.minimumFrames)
    let report = try await MediaInspector.discover(movie.movieURL)
    #expect(report.isH264 && !report.failed, "\(report)")
    await camera.controller.dismissAndWait()
  }
}
