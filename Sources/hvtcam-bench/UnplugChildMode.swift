import Foundation
import HVTCamera
import HVTGStreamer

extension ChildMode {
  /// `unplug`: the `--engine` (`hvtcamera`, `gst-launch-1.0`) records from the V4L2 node `--camera` at
  /// `--quality`; a second on its schedule after its first frame, vivid's `disconnect` button is pressed
  /// (``HVTCameraControls``, which opens the node and lists its controls first, alike for both), and the
  /// time until the app is told is reported, in milliseconds. A process of its own: vivid comes back only
  /// once every file open on its node is closed, and GStreamer 1.22's `v4l2src` leaves one open in the
  /// process that ran it (`CamerasAndDevices.md`); the process's exit closes it.
  static func unplug(_ options: BenchOptions) throws {
    guard let node = options.cameraNode else { throw BenchError.failed("unplug: no --camera node") }
    var report = ChildReport()
    switch options.engine {
    case "hvtcamera": report.unplugNoticed = try unplugOurs(options, node: node).milliseconds
    case "gst-launch-1.0": report.unplugNoticed = try unplugLaunchLine(options, node: node).milliseconds
    default: throw BenchError.failed("unplug: unknown engine \(options.engine)")
    }
    try report.emit()
  }

  /// HVTCamera records; the cable is pulled: the time until `didFailWithError` says `cameraDisconnected`.
  private static func unplugOurs(_ options: BenchOptions, node: String) throws -> Duration {
    let ours = try OurCamera(quality: options.quality, directory: options.directory, camera: .vivid(node))
    ours.setVideoMode(true)
    _ = try ours.present()
    defer { ours.dismiss() }
    let failure = ours.delegate.expectFailure()
    _ = try ours.startRecording()
    waitForSchedule(until: .now + .seconds(1))
    let pulled = try pullCable(of: node)
    let told = try failure.wait("HVTCamera's error after the unplug")
    guard case .cameraDisconnected? = told.error else {
      throw BenchError.failed("after the unplug HVTCamera said \(told.text), not cameraDisconnected")
    }
    return pulled.duration(to: told.arrival)
  }

  /// The movie line runs; the cable is pulled: the time until its error, posted on the bus, reaches the
  /// main thread, where an app's bus watch runs.
  private static func unplugLaunchLine(_ options: BenchOptions, node: String) throws -> Duration {
    let model = try OurCamera.pipelineModel(
      quality: options.quality, directory: options.directory, camera: .vivid(node))
    let path = options.directory.appendingPathComponent("unplug-line.mp4").path
    let pipeline = try Pipeline(launch: model.launchDescription(mode: .video, output: path, frames: nil))
    defer { pipeline.setState(.null) }
    guard let preview = pipeline.element(named: "preview")?.staticPad("sink") else {
      throw BenchError.failed("the launch line has no preview sink")
    }
    let running = Awaited<Void>()
    preview.addProbe(.buffer) { _, _ in
      running.fulfill(())
      return .ok
    }
    let heard = Awaited<Instant>()
    pipeline.bus.setSyncHandler { message in
      if case .error = message { DispatchQueue.main.async { heard.fulfill(.now) } }
    }
    defer { pipeline.bus.removeSyncHandler() }
    guard pipeline.setState(.playing) != .failure else { throw BenchError.failed("the movie line did not start") }
    try running.wait("the movie line's first preview frame")
    waitForSchedule(until: .now + .seconds(1))
    let pulled = try pullCable(of: node)
    return pulled.duration(to: try heard.wait("the movie line's error after the unplug"))
  }

  /// Presses vivid's `disconnect` button on `node`; returns the moment before.
  private static func pullCable(of node: String) throws -> Instant {
    let controls = HVTCameraControls(path: node, cameraID: "hvtcam-bench")
    let pulled = ContinuousClock.now
    do {
      try controls.set("disconnect", to: 1, keeping: false)
    } catch {
      // Reading the button back after the press fails, the node being gone: that is the unplug.
      guard case .cameraDisconnected = error else { throw error }
    }
    return pulled
  }
}
