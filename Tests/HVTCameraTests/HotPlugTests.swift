import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The controller's answer to cameras coming and going. GstDeviceMonitor reports real V4L2 devices only
/// (these machines have none), so the changes are handed to the controller as the monitor's handler would.
@Suite("Hot-plug", .timeLimit(.minutes(1)))
struct HotPlugTests {
  @Test("another camera coming and going is reported; the camera in use keeps running")
  func otherCamera() async throws {
    let camera = try TestCamera()
    camera.controller.deliverDeviceChange(.connected(name: "USB Camera", path: "/dev/video4"))
    let connected = try await camera.delegate.nextEvent { event -> String? in
      if case .cameraConnected(let name, let path) = event { "\(name) \(path ?? "")" } else { nil }
    }
    #expect(connected == "USB Camera /dev/video4")
    camera.controller.deliverDeviceChange(.disconnected(name: "USB Camera", path: "/dev/video4"))
    _ = try await camera.delegate.nextEvent { if case .cameraDisconnected = $0 { true } else { nil } }
    #expect(camera.controller.isPresented)
    camera.controller.takePicture()
    _ = try await camera.delegate.nextCapture(.image)
    await camera.controller.dismissAndWait()
  }

  @Test("the camera in use going away finalizes the recording and reports a typed error")
  func cameraInUse() async throws {
    let camera = try TestCamera(mode: .video)
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    let name = try #require(camera.controller.configuration?.deviceName)
    camera.controller.deliverDeviceChange(.disconnected(name: name, path: nil))
    let error = try await camera.delegate.nextError()
    #expect(error as? HVTCameraError == .cameraDisconnected(name: name, path: nil))
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(try movie.metadata.stopReason == .error)
    #expect(try await MediaInspector.discover(movie.movieURL).isH264)
    #expect(!camera.controller.isPresented)
  }
}

/// Which camera that went is the one in use (``HVTCameraController/isInUse(name:path:serial:by:)``).
@Suite("Hot-plug: the camera in use")
struct CameraInUseTests {
  /// The model of `camera` at 640x480 and 30 frames per second.
  static func model(_ camera: HVTCameraDeviceInfo) throws -> HVTPipelineModel {
    let choice = try #require(
      try HVTCapsSelection.choose(
        deviceCaps: camera.caps, size: HVTFrameSize(width: 640, height: 480), frameRate: HVTFrameRate(30)))
    return try RealCameraPathTests.model(camera, choice, .type640x480)
  }

  /// The model of a PipeWire camera named `name`, `pipewiresrc target-object=SERIAL`.
  static func pipewireModel(_ name: String, serial: String) throws -> HVTPipelineModel {
    try model(try #require(CameraDiscovery.describe([CameraListingTests.virtualCamera(name, serial: serial)]).first))
  }

  @Test("a PipeWire camera is the one in use by its serial: not another of the same name, whatever its name")
  func pipewireBySerial() throws {
    let model = try Self.pipewireModel("Virtual", serial: "37")
    #expect(model.source.first?.value(of: "target-object") == "37")
    #expect(HVTCameraController.isInUse(name: "Virtual", path: nil, serial: "37", by: model))
    #expect(!HVTCameraController.isInUse(name: "Virtual", path: nil, serial: "52", by: model))
    #expect(HVTCameraController.isInUse(name: "Renamed", path: nil, serial: "37", by: model))
  }

  @Test("a monitored device's PipeWire serial: PipeWire's object.serial, none for another API's device")
  func pipewireSerial() {
    #expect(CameraListingTests.virtualCamera("Virtual", serial: "37").pipewireSerial == "37")
    var v4l2 = CameraListingTests.pipewireServed
    v4l2.properties["object.serial"] = "12"
    #expect(v4l2.pipewireSerial == nil)
  }

  @Test("a V4L2 camera is the one in use by its node; without a node or serial, by its name")
  func v4l2ByNode() throws {
    let camera = RealCameraPathTests.webcam()
    let model = try Self.model(camera)
    #expect(HVTCameraController.isInUse(name: "other", path: "/dev/video0", serial: nil, by: model))
    #expect(!HVTCameraController.isInUse(name: camera.name, path: "/dev/video2", serial: nil, by: model))
    // A PipeWire node serving the same V4L2 node (its api.v4l2.path) going away: the device went.
    #expect(HVTCameraController.isInUse(name: "other", path: "/dev/video0", serial: "40", by: model))
    #expect(HVTCameraController.isInUse(name: camera.name, path: nil, serial: nil, by: model))
    #expect(!HVTCameraController.isInUse(name: "other", path: nil, serial: nil, by: model))
  }
}

extension HVTCameraController {
  /// Hands a device change to the controller on its queue, as the device monitor's handler does.
  fileprivate func deliverDeviceChange(_ change: DeviceChange) {
    queue.async { self.send(.deviceChanged(change)) }
  }
}
