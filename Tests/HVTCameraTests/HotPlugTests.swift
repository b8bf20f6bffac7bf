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
    await camera.controller.dismiss()
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

extension HVTCameraController {
  /// Hands a device change to the controller on its queue, as the device monitor's handler does.
  fileprivate func deliverDeviceChange(_ change: DeviceChange) {
    queue.async { self.handleDeviceChange(change) }
  }
}
