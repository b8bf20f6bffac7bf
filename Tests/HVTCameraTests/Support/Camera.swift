import Foundation
import HVTCamera
import MediaInspection

/// A presented simulated camera with a recorder as its delegate, writing into a fresh directory that is
/// removed with it. Its recordings keep every frame (``HVTSlowEncoderPolicy/keepEveryFrame``): the tests
/// read them back frame by frame, and on a loaded two-core machine the encoder falls behind real time for
/// seconds, when the default policy leaves frames out (which `RecordingDrainTests` tests).
final class TestCamera {
  let controller: HVTCameraController
  let delegate = DelegateRecorder()
  let directory: URL

  init(
    source: HVTCameraSource = .simulated, quality: HVTCameraController.QualityType = .type640x480,
    mode: HVTCameraController.CameraCaptureMode = .photo, mediaTypes: [HVTMediaType] = [.image, .movie],
    present: Bool = true
  ) throws {
    controller = try HVTCameraController(source: source)
    directory = try TemporaryDirectory().url
    delegate.attach(to: controller)
    controller.previewOutput = .none  // headless whatever display the test process has
    controller.outputDirectory = directory
    controller.videoQuality = quality
    controller.slowEncoderPolicy = .keepEveryFrame
    try controller.setMediaTypes(mediaTypes)
    controller.cameraCaptureMode = mode
    if present { try controller.present() }
  }

  deinit {
    controller.dismiss()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Starts a recording and waits until its first frame reached the encoder.
  func startRecording() async throws {
    guard controller.startVideoCapture() else { throw TestFailure("startVideoCapture() returned false") }
    _ = try await delegate.nextEvent { if case .recordingStarted(let url) = $0 { url } else { nil } }
  }

  /// Waits until the recording has at least `seconds` of frames.
  func waitForRecorded(seconds: Double) async throws {
    _ = try await delegate.nextEvent { event -> Bool? in
      if case .recordingProgress(let elapsed, _) = event, elapsed >= seconds { true } else { nil }
    }
  }
}
