import Foundation
import HVTCamera
import HVTGStreamer
import HVTSupport

extension ChildMode {
  /// Shows the simulated camera in a window on the parent's X display for `--seconds`: HVTCamera's
  /// `.window` preview, with the default controls when `--controls`. With `--activity`, records all the
  /// while (the record button's clock redraws every second), changes the flash mode every second, stops
  /// (with the controls, into the movie's review screen), then takes three stills and one more with
  /// `takePicture()`. Reports the process's CPU over that time, the
  /// preview frames lost (by timestamps) and the preview's mean latency (``HVTPreviewStatistics``).
  static func preview(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    let controller = camera.controller
    controller.previewOutput = .window(title: "hvtcam-bench")
    controller.showsCameraControls = options.controls
    _ = try camera.present()
    // The window is mapped and the first frames drawn before the measured time begins.
    waitForSchedule(until: .now + .milliseconds(500))
    let before = camera.previewCount
    let latencyBefore = controller.previewStatistics
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
    let latencyAfter = controller.previewStatistics
    camera.dismiss()
    var report = ChildReport()
    report.cpuPercent = cpu / wall * 100
    report.previewLost = [lost]
    if let latencyBefore, let latencyAfter, latencyAfter.measuredFrames > latencyBefore.measuredFrames {
      report.previewLatency =
        (latencyAfter.totalLatency - latencyBefore.totalLatency)
        / Double(latencyAfter.measuredFrames - latencyBefore.measuredFrames) * 1000
    }
    try report.emit()
  }

  /// The bare line of the preview rows (``PreviewRows/bareLine(width:height:frames:)``), parsed and played in
  /// this process as `gst-launch-1.0` would, on the parent's X display for `--seconds`, with the probe
  /// ``HVTPreviewStatistics`` uses on its sink's pad. Reports the mean latency over the same time as the
  /// `preview` child's.
  static func linePreview(_ options: BenchOptions) throws {
    guard let size = options.quality.requestedSize else { throw BenchError.failed("no size") }
    let pipeline = try Pipeline(launch: PreviewRows.bareLine(width: size.width, height: size.height))
    guard let sinkPad = pipeline.element(named: "preview")?.staticPad("sink") else {
      throw BenchError.failed("the line has no preview sink")
    }
    let measuring = Locked(false)
    let sum = Locked((latency: 0.0, frames: 0))
    let failure = Locked<String?>(nil)
    pipeline.bus.setSyncHandler { message in
      if case .error(let report) = message { failure.withLock { $0 = $0 ?? "\(report)" } }
    }
    defer { pipeline.bus.removeSyncHandler() }
    sinkPad.addProbe(.buffer) { pad, info in
      guard measuring.withLock({ $0 }), let pts = info.buffer?.presentationTime, ClockTime.isValid(pts),
        let now = pad.parentElement?.runningTime
      else { return .ok }
      sum.withLock { $0 = ($0.latency + ClockTime.seconds(now) - ClockTime.seconds(pts), $0.frames + 1) }
      return .ok
    }
    guard pipeline.setState(.playing) != .failure else { throw BenchError.failed("the line did not start") }
    defer { _ = pipeline.setState(.null) }
    waitForSchedule(until: .now + .milliseconds(500))
    measuring.withLock { $0 = true }
    waitForSchedule(until: .now + .seconds(options.seconds))
    measuring.withLock { $0 = false }
    if let failure = failure.withLock({ $0 }) { throw BenchError.failed("the line: \(failure)") }
    let (latency, frames) = sum.withLock { $0 }
    guard frames > 0 else { throw BenchError.failed("no frame reached the line's preview sink") }
    var report = ChildReport()
    report.previewLatency = latency / Double(frames) * 1000
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
