import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

@Suite("Reconfiguring a presented camera", .timeLimit(.minutes(1)))
struct ReconfigurationTests {
  @Test("switching the capture mode keeps the source running")
  func modeSwitch() async throws {
    let camera = try TestCamera(mode: .photo)
    _ = try await camera.delegate.nextEvent { if case .stateChanged(_, .playing) = $0 { true } else { nil } }
    let configuration = camera.controller.configuration
    camera.controller.takePicture()
    let before = try await camera.delegate.nextCapture(.image).metadata.frameTimestamp
    camera.controller.cameraCaptureMode = .video
    try await camera.startRecording()
    camera.controller.cameraCaptureMode = .photo  // finalizes and delivers the movie
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(try movie.metadata.stopReason == .cameraStopped)
    camera.controller.takePicture()
    let after = try await camera.delegate.nextCapture(.image).metadata.frameTimestamp
    await camera.controller.dismissAndWait()
    await camera.delegate.flush()
    // One pipeline throughout: configured once, never left PLAYING until dismissed, and the running time
    // of its frames kept growing.
    let calls = camera.delegate.calls
    let configured = calls.filter { if case .event(.configured) = $0 { true } else { false } }
    #expect(configured.count == 1)
    let states = calls.compactMap { call -> HVTPipelineState? in
      if case .event(.stateChanged(_, let to)) = call { to } else { nil }
    }
    #expect(states.firstIndex(of: .playing).map { Array(states[($0 + 1)...]) } == [.paused, .ready, .null])
    #expect(after > before)
    #expect(camera.controller.configuration == nil && configuration?.size == HVTFrameSize(width: 640, height: 480))
  }

  @Test("changing the quality restarts the camera at the new size")
  func qualitySwitch() async throws {
    let camera = try TestCamera(quality: .type640x480)
    camera.controller.videoQuality = .type1280x720
    // The setter returns at once; the new camera announces itself, and a photo asked for meanwhile takes
    // its first frame.
    camera.controller.takePicture()
    let configured = try await camera.delegate.nextEvent { event -> HVTCaptureConfiguration? in
      if case .configured(let configuration) = event, configuration.size.width == 1280 { configuration } else { nil }
    }
    #expect(camera.controller.configuration == configured)
    let photo = try await camera.delegate.nextCapture(.image)
    #expect(try photo.image.width == 1280 && photo.image.height == 720)
    #expect(try photo.metadata.configuration.requestedQuality == .type1280x720)
    await camera.controller.dismissAndWait()
  }

  @Test("changing the device switches cameras; a recording in progress is delivered first")
  func deviceSwitch() async throws {
    let camera = try TestCamera(mode: .video)
    try await camera.startRecording()
    camera.controller.cameraDevice = .front
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(try movie.metadata.configuration.device == .rear)
    #expect(try await MediaInspector.discover(movie.movieURL).isH264)
    // The movie is delivered as soon as it is finalized, before or after the new camera plays.
    let front = try await camera.delegate.nextEvent { event -> HVTCaptureConfiguration? in
      if case .configured(let configuration) = event, configuration.device == .front { configuration } else { nil }
    }
    #expect(camera.controller.configuration == front)
    #expect(front.deviceName.contains("ball"))
    camera.controller.takePicture()
    #expect(try await camera.delegate.nextCapture(.image).metadata.configuration.device == .front)
    await camera.controller.dismissAndWait()
  }

  @Test("a change made while dismissed takes effect at the next present()")
  func changeWhileDismissed() async throws {
    let camera = try TestCamera(present: false)
    camera.controller.videoQuality = .type1280x720
    camera.controller.cameraDevice = .front
    #expect(camera.controller.configuration == nil)
    try await camera.controller.presentAndWait()
    #expect(camera.controller.configuration?.size == HVTFrameSize(width: 1280, height: 720))
    #expect(camera.controller.configuration?.device == .front)
    await camera.controller.dismissAndWait()
  }
}

@Suite("Media types")
struct MediaTypeTests {
  @Test("setMediaTypes([]) throws; the default is [.image]")
  func emptyMediaTypes() throws {
    let controller = try HVTCameraController(source: .simulated)
    #expect(controller.mediaTypes == [.image])
    #expect(throws: HVTCameraError.emptyMediaTypes) { try controller.setMediaTypes([]) }
    #expect(controller.mediaTypes == [.image])
    try controller.setMediaTypes([.movie, .image])
    #expect(controller.mediaTypes == [.movie, .image])
  }

  @Test("a library source type takes both media types on a machine without a camera; the camera refuses, naming it")
  func checkedAgainstTheSourceType() throws {
    let controller = try HVTCameraController(source: .device("/dev/null"))
    #expect(throws: HVTCameraError.self) { try controller.setMediaTypes([.image, .movie]) }
    #expect(controller.mediaTypes == [.image])
    for library in [HVTCameraController.SourceType.photoLibrary, .savedPhotosAlbum] {
      controller.sourceType = library
      try controller.setMediaTypes([.image, .movie])
      #expect(controller.mediaTypes == [.image, .movie])
      try controller.setMediaTypes([.movie])
      #expect(controller.mediaTypes == [.movie])
    }
  }

  @Test("none of the types asked offered: mediaTypesUnavailable says what was asked and what there is")
  func unavailableTypes() {
    #expect(throws: HVTCameraError.mediaTypesUnavailable(requested: [.movie], available: [.image])) {
      try HVTCameraController.check([.movie], offered: [.image])
    }
    #expect(
      HVTCameraError.mediaTypesUnavailable(requested: [.movie], available: [.image]).description.contains("movie"))
    #expect(throws: Never.self) { try HVTCameraController.check([.image, .movie], offered: [.image]) }
  }

  @Test("media types keep their uniform type identifiers")
  func rawValues() {
    #expect(HVTMediaType.image.rawValue == "public.image")
    #expect(HVTMediaType.movie.rawValue == "public.movie")
  }

  @Test("the defaults are those of the reference")
  func defaults() throws {
    let controller = try HVTCameraController(source: .simulated)
    #expect(controller.videoQuality == .type1920x1080)
    #expect(controller.videoMaximumDuration == 600)
    #expect(controller.cameraDevice == .rear)
    #expect(controller.cameraCaptureMode == .photo)
    #expect(controller.cameraFlashMode == .auto)
    #expect(!controller.isPresented && !controller.isRecording)
  }

  @Test("removing .movie while recording finalizes the recording", .timeLimit(.minutes(1)))
  func removeMovieWhileRecording() async throws {
    let camera = try TestCamera(mode: .video)
    try await camera.startRecording()
    try camera.controller.setMediaTypes([.image])
    #expect(try await camera.delegate.nextCapture(.movie).metadata.stopReason == .cameraStopped)
    #expect(!camera.controller.startVideoCapture())
    await camera.controller.dismissAndWait()
  }
}
