import Foundation
import HVTCamera

extension ChildMode {
  /// Shows the simulated camera in a window on the parent's X display for `--seconds`: HVTCamera's
  /// `.window` preview, with the default controls when `--controls`. With `--activity`, records all the
  /// while (the record button's clock redraws every second), changes the flash mode every second, stops
  /// (with the controls, into the movie's review screen), then takes three stills and one more with
  /// `takePicture()`. Reports the process's CPU over that time and the
  /// preview frames lost (by timestamps).
  static func preview(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    let controller = camera.controller
    controller.previewOutput = .window(title: "hvtcam-bench")
    controller.showsCameraControls = options.controls
    _ = try camera.present()
    // The window is mapped and the first frames drawn before the measured time begins.
    waitForSchedule(until: .now + .milliseconds(500))
    let before = camera.previewCount
    let cpuStart = processCPUSeconds()
    let wallStart = ContinuousClock.now
    if options.activity {
      camera.setVideoMode(true)
      let started = camera.delegate.expectRecordingStarted()
      _ = try camera.startRecording()
      _ = try started.wait("the recording's first frame")
      for second in 1...options.seconds {
        waitForSchedule(until: wallStart + .seconds(second))
        controller.cameraFlashMode = controller.cameraFlashMode == .auto ? .off : .auto
      }
      if options.controls {
        // With the default controls the stopped movie goes to its review screen, which shows it still.
        let reviewed = camera.delegate.expectReviewStarted()
        controller.stopVideoCapture()
        _ = try reviewed.wait("the movie's review screen")
      } else {
        _ = try camera.stopRecording()
      }
      camera.setVideoMode(false)
      for _ in 0..<3 { _ = try photo(from: controller) }
      // A still with the controls goes to the review screen, which shows it instead of the live frames.
      controller.takePicture()
      waitForSchedule(until: .now + .milliseconds(500))
    } else {
      waitForSchedule(until: wallStart + .seconds(options.seconds))
    }
    let cpu = processCPUSeconds() - cpuStart
    let wall = wallStart.duration(to: .now).seconds
    let lost = before.framesLost(until: camera.previewCount, frameRate: try camera.frameRate)
    camera.dismiss()
    var report = ChildReport()
    report.cpuPercent = cpu / wall * 100
    report.previewLost = [lost]
    try report.emit()
  }

  /// A still through `capturePhoto()`, which never goes to the review screen.
  private static func photo(from controller: HVTCameraController) throws -> HVTCapture {
    let awaited = Awaited<HVTCapture>()
    Task {
      do { awaited.fulfill(try await controller.capturePhoto()) } catch {
        awaited.fail(.failed("a still: \(error)"))
      }
    }
    return try awaited.wait("a still")
  }

  /// camerabin with a window sink as its viewfinder on the parent's X display, for `--seconds`. Reports
  /// the process's CPU over that time.
  static func camerabinPreview(_ options: BenchOptions) throws {
    guard let size = options.quality.requestedSize else { throw BenchError.failed("no size") }
    let model = try OurCamera.pipelineModel(quality: options.quality, directory: options.directory)
    guard let encoder = model.movieEncoderElement, let photoEncoder = model.photoEncoderElement
    else { throw BenchError.failed("the model has no encoders") }
    let camera = try CameraBin(
      size: size, encoder: encoder, photoEncoder: photoEncoder, directory: options.directory,
      viewfinder: PreviewRows.windowSink)
    _ = try camera.start()
    waitForSchedule(until: .now + .milliseconds(500))
    let cpuStart = processCPUSeconds()
    let wallStart = ContinuousClock.now
    waitForSchedule(until: wallStart + .seconds(options.seconds))
    let cpu = processCPUSeconds() - cpuStart
    let wall = wallStart.duration(to: .now).seconds
    camera.stop()
    var report = ChildReport()
    report.cpuPercent = cpu / wall * 100
    try report.emit()
  }
}
