import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

@Suite("Simulated camera")
struct SimulatedCameraTests {
  @Test("offers a rear and a front device with different patterns, and a flash on the rear")
  func devices() throws {
    let cameras = HVTCameraController.cameras(for: .simulated)
    #expect(cameras.map(\.position) == [.rear, .front])
    #expect(cameras[0].sourceElement.value(of: "pattern") != cameras[1].sourceElement.value(of: "pattern"))
    #expect(
      cameras.allSatisfy {
        $0.sourceElement.factory == "videotestsrc" && $0.sourceElement.value(of: "is-live") == "true"
      })
    #expect(HVTCameraController.isFlashAvailable(for: .rear, source: .simulated))
    #expect(!HVTCameraController.isFlashAvailable(for: .front, source: .simulated))
    #expect(HVTCameraController.isCameraDeviceAvailable(.front, source: .simulated))
    #expect(HVTCameraController.isSourceTypeAvailable(.camera, source: .simulated))
    #expect(HVTCameraController.availableMediaTypes(for: .camera, source: .simulated) == [.image, .movie])
  }

  @Test("HVT_CAMERA_SOURCE=simulated selects it for the automatic source")
  func environmentVariable() throws {
    let cameras = try CameraDiscovery.devices(for: .automatic, environment: ["HVT_CAMERA_SOURCE": "simulated"])
    #expect(cameras.map(\.api) == ["simulated", "simulated"])
  }

  @Test("offers every quality up to 3840x2160 at 30 fps", arguments: HVTCameraController.QualityType.allCases)
  func qualities(quality: HVTCameraController.QualityType) throws {
    let camera = try #require(HVTCameraController.cameras(for: .simulated).first)
    let choice = try #require(
      try HVTCapsSelection.choose(deviceCaps: camera.caps, size: quality.requestedSize, frameRate: HVTFrameRate(30)))
    #expect(choice.size == quality.requestedSize ?? HVTFrameSize(width: 3840, height: 2160))
    #expect(choice.frameRate == HVTFrameRate(30))
    #expect(!choice.isMJPEG)
  }

  @Test("a 3840x2160 photo is 3840x2160", .timeLimit(.minutes(1)))
  func ultraHDPhoto() async throws {
    let camera = try TestCamera(quality: .type3840x2160)
    camera.controller.takePicture()
    let photo = try await camera.delegate.nextCapture(.image)
    let report = try await MediaInspector.discover(try photo.imageURL)
    #expect(report.width == 3840 && report.height == 2160)
    await camera.controller.dismissAndWait()
  }

  @Test(
    "without any camera, isSourceTypeAvailable(.camera) is false and present() throws",
    .enabled(if: ProcessInfo.processInfo.environment["HVT_CAMERA_SOURCE"] == nil && !hasVideoDevices))
  func noCamera() async throws {
    #expect(!HVTCameraController.isSourceTypeAvailable(.camera))
    #expect(HVTCameraController.availableMediaTypes(for: .camera) == nil)
    let controller = try HVTCameraController()
    await #expect {
      try await controller.presentAndWait()
    } throws: { error in
      guard case .noCameraAvailable(let reason) = error as? HVTCameraError else { return false }
      return reason.contains("HVT_CAMERA_SOURCE=simulated")
    }
    #expect(!controller.isPresented)
  }

  @Test("a device node that does not exist is refused when the controller is made")
  func missingDeviceNode() {
    #expect(throws: HVTCameraError.self) { try HVTCameraController(source: .device("/dev/video-does-not-exist")) }
  }
}
