import Foundation
import HVTGStreamer
import Testing

@testable import HVTCamera

@Suite("Real cameras (v4l2src)")
struct RealCameraPathTests {
  /// A V4L2 device as the monitor would report it, with a typical UVC webcam's caps.
  static func webcam() -> HVTCameraDeviceInfo {
    var device = CameraDiscovery.unprobedDevice(path: "/dev/video0")
    device.caps = CapsFixtures.uvcWebcam
    return device
  }

  /// The model of `camera` with `choice`, the default preset and no preview.
  static func model(
    _ camera: HVTCameraDeviceInfo, _ choice: HVTCapsChoice, _ quality: HVTCameraController.QualityType
  ) throws -> HVTPipelineModel {
    try HVTPipelineModel.build(
      camera: camera, choice: choice,
      settings: .init(preset: try .default, quality: quality, failingAfterFrames: nil, preview: .init(output: .none)))
  }

  @Test("an MJPEG mode is built as v4l2src ! image/jpeg ! jpegdec, and the live pipeline links")
  func mjpegPipeline() throws {
    let camera = Self.webcam()
    let choice = try #require(
      try HVTCapsSelection.choose(
        deviceCaps: camera.caps, size: HVTFrameSize(width: 1280, height: 720), frameRate: HVTFrameRate(30)))
    let model = try Self.model(camera, choice, .type1280x720)
    #expect(model.source.map(\.factory) == ["v4l2src", "capsfilter", "jpegdec"])
    #expect(model.source[0].value(of: "device") == "/dev/video0")
    #expect(model.source[1].value(of: "caps") == "image/jpeg,width=1280,height=720,framerate=30/1")
    #expect(model.configuration.sourceFormat == "MJPEG")
    let launch = model.launchCommand(mode: .video, output: "movie.mp4", frames: 10)
    #expect(launch.hasPrefix("gst-launch-1.0 -e v4l2src name=camera device=/dev/video0 num-buffers=10 ! image/jpeg,"))
    // The live pipeline is made of the same elements and links in NULL, exactly as on hardware.
    let session = try CaptureSession(model: model, output: .none, name: "v4l2-test") { _, _ in }
    #expect(session.pipeline.element(named: "camera")?.factoryName == "v4l2src")
    #expect(session.pipeline.element(named: "camera-decoder")?.factoryName == "jpegdec")
    #expect(try session.pipeline.element(named: "camera")?.propertyString("device") == "/dev/video0")
    session.stop()
  }

  @Test("a raw mode that meets the frame rate is used as it is, without a decoder")
  func rawPipeline() throws {
    let camera = Self.webcam()
    let choice = try #require(
      try HVTCapsSelection.choose(
        deviceCaps: camera.caps, size: HVTFrameSize(width: 640, height: 480), frameRate: HVTFrameRate(30)))
    let model = try Self.model(camera, choice, .type640x480)
    #expect(model.source.map(\.factory) == ["v4l2src", "capsfilter"])
    #expect(model.configuration.sourceFormat == "YUY2")
  }

  @Test("a PipeWire camera runs as pipewiresrc do-timestamp=true always-copy=true ! fixed caps it offers")
  func pipewirePipeline() throws {
    let camera = try #require(
      CameraDiscovery.describe([CameraListingTests.virtualCamera("Virtual", serial: "37")]).first)
    let choice = try #require(
      try HVTCapsSelection.choose(
        deviceCaps: camera.caps, size: HVTFrameSize(width: 1920, height: 1080), frameRate: HVTFrameRate(30)))
    let model = try Self.model(camera, choice, .type1920x1080)
    #expect(model.source.map(\.factory) == ["pipewiresrc", "capsfilter"])
    #expect(model.source[1].value(of: "caps") == "video/x-raw,format=I420,width=640,height=480,framerate=30/1")
    let launch = model.launchCommand(mode: .video, output: "movie.mp4", frames: 10)
    #expect(
      launch.hasPrefix(
        "gst-launch-1.0 -e pipewiresrc name=camera target-object=37 do-timestamp=true always-copy=true num-buffers=10 "
          + "! video/x-raw,format=I420,width=640,height=480,framerate=30/1 ! "))
  }

  @Test("a device node that is not a camera fails at present() with GStreamer's message", .timeLimit(.minutes(1)))
  func notACamera() async throws {
    let controller = try HVTCameraController(source: .device("/dev/null"))
    controller.videoQuality = .type640x480
    await #expect {
      try await controller.presentAndWait()
    } throws: { error in
      guard case .gstreamer(let message) = error as? HVTCameraError else { return false }
      return message.domain == "gst-resource-error-quark" && message.element.contains("GstV4l2Src:camera")
        && !message.message.isEmpty
    }
    #expect(!controller.isPresented)
  }

  @Test("devices are ordered by node number: the first is .rear")
  func nodeOrder() {
    #expect(CameraDiscovery.nodeNumber("/dev/video2") < CameraDiscovery.nodeNumber("/dev/video10"))
    #expect(CameraDiscovery.nodeNumber("/dev/video0") == 0)
  }
}
