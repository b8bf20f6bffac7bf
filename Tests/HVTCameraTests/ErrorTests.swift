import Foundation
import MediaInspection
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

@Suite("Errors", .timeLimit(.minutes(1)))
struct ErrorTests {
  @Test("a failing element reaches didFailWithError with GStreamer's text; the recording is delivered")
  func failingElement() async throws {
    // The simulated camera fails after 45 frames (an `identity error-after=45` behind the source).
    let camera = try TestCamera(source: .simulated(failingAfterFrames: 45), mode: .video)
    try await camera.startRecording()
    let error = try await camera.delegate.nextError()
    guard case .gstreamer(let message) = error as? HVTCameraError else {
      Issue.record("expected a GStreamer error, got \(error)")
      return
    }
    #expect(message.domain == "gst-core-error-quark")
    #expect(message.message.contains("Failed after iterations as requested"))
    #expect(message.debug?.contains("gstidentity.c") == true)
    #expect(message.element.hasSuffix("GstIdentity:fault"))
    let movie = try await camera.delegate.nextCapture(.movie)
    let url = try movie.movieURL
    #expect(try movie.metadata.stopReason == .error)
    let frames = try await MediaInspector.frameCount(url)
    #expect(frames > 0 && frames <= 45)
    #expect(frames == (try movie.metadata.frameCount))
    #expect(try await MediaInspector.discover(url).isH264)
    // The camera stopped with the failure; it can be presented again.
    #expect(!camera.controller.isPresented)
  }

  @Test("a camera that fails at its first frame: recordMovie(), asked while it starts, throws why; no file is left")
  func failureBeforeFirstFrame() async throws {
    let camera = try TestCamera(source: .simulated(failingAfterFrames: 1), mode: .video)
    do {
      let movie = try await camera.controller.recordMovie(to: camera.directory.appendingPathComponent("movie.mp4"))
      Issue.record("a movie came: \(movie.url.path), \(movie.metadata.frameCount.map(String.init) ?? "?") frames")
    } catch HVTCameraError.gstreamer(let message) {
      #expect(message.message.contains("Failed after iterations as requested"))
      #expect(message.element.hasSuffix("GstIdentity:fault"))
    }
    // The delegate heard of the failure too.
    guard case .gstreamer = try await camera.delegate.nextError() as? HVTCameraError else {
      Issue.record("the delegate was not told of the camera's failure")
      return
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: camera.directory.path) == [])
  }

  @Test("an unwritable output directory is reported, not crashed on")
  func unwritableDirectory() async throws {
    let camera = try TestCamera()
    camera.controller.outputDirectory = URL(fileURLWithPath: "/proc/hvtcamera-cannot-write-here")
    camera.controller.takePicture()
    let error = try await camera.delegate.nextError()
    guard case .fileWriteFailed(let path, _) = error as? HVTCameraError else {
      Issue.record("expected a file error, got \(error)")
      return
    }
    #expect(path.hasPrefix("/proc/hvtcamera-cannot-write-here"))
    // The failed photo is no longer in flight: the next one works.
    camera.controller.outputDirectory = camera.directory
    camera.controller.takePicture()
    _ = try await camera.delegate.nextCapture(.image)
    await camera.controller.dismissAndWait()
  }

  @Test("errors read well")
  func descriptions() {
    #expect(HVTCameraError.emptyMediaTypes.description == "mediaTypes must not be empty")
    #expect(HVTCameraError.cameraDeviceUnavailable(.front).description == "no front camera on this machine")
    let message = HVTGStreamerMessage(
      domain: "gst-resource-error-quark", code: 3, message: "Could not open", debug: "gstv4l2object.c: no device",
      element: "/GstPipeline:p/GstV4l2Src:camera")
    #expect(HVTCameraError.gstreamer(message).description.contains("Could not open (/GstPipeline:p/GstV4l2Src:camera)"))
  }
}

@Suite("Delegate and threads", .timeLimit(.minutes(1)))
struct DelegateTests {
  @Test("cancel() calls cameraControllerDidCancel on the main actor; the camera stays presented")
  func cancel() async throws {
    let camera = try TestCamera()
    camera.controller.cancel()
    _ = try await camera.delegate.next { if case .cancelled = $0 { true } else { nil } }
    #expect(camera.controller.isPresented)
    camera.controller.takePicture()
    _ = try await camera.delegate.nextCapture(.image)
    await camera.controller.dismissAndWait()
    #expect(camera.delegate.callsOffMain == 0)
  }

  @Test("the public API may be called from many threads at once; callbacks stay on the main actor")
  func concurrentCalls() async throws {
    let camera = try TestCamera(mode: .video)
    let controller = camera.controller
    DispatchQueue.concurrentPerform(iterations: 64) { index in
      switch index % 8 {
      case 0: controller.takePicture()
      case 1: _ = controller.startVideoCapture()
      case 2: controller.cameraFlashMode = index % 16 == 2 ? .off : .auto
      case 3: _ = controller.configuration
      case 4: _ = controller.isRecording
      case 5: controller.videoMaximumDuration = 30
      case 6: _ = controller.sourceFrameCount
      default: _ = controller.mediaTypes
      }
    }
    #expect(controller.isRecording)
    controller.stopVideoCapture()
    _ = try await camera.delegate.nextCapture(.movie)
    await controller.dismissAndWait()
    await camera.delegate.flush()
    #expect(camera.delegate.captures.filter { $0[.mediaType] as? HVTMediaType == .movie }.count == 1)
    #expect(camera.delegate.callsOffMain == 0)
    #expect(camera.delegate.errors.isEmpty)
  }

  @Test("events also arrive on an AsyncStream, in the same order")
  func eventStream() async throws {
    let camera = try TestCamera(present: false)
    var events = camera.controller.events.makeAsyncIterator()
    try await camera.controller.presentAndWait()
    var sawConfigured = false
    var sawPlaying = false
    while !(sawConfigured && sawPlaying), let event = await events.next() {
      if case .configured(let configuration) = event { sawConfigured = configuration.size.width == 640 }
      if case .stateChanged(_, .playing) = event { sawPlaying = true }
    }
    #expect(sawConfigured && sawPlaying)
    await camera.controller.dismissAndWait()
  }

  @Test("the delegate is held weakly")
  func weakDelegate() throws {
    let controller = try HVTCameraController(source: .simulated)
    do {
      let delegate = DelegateRecorder()
      controller.cameraDelegate = delegate
      #expect(controller.cameraDelegate != nil)
    }
    #expect(controller.cameraDelegate == nil)
  }
}
