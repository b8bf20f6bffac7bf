import Foundation
import HVTCamera
import HVTGStreamer

/// The unplug row, on a V4L2 camera whose driver can pull its own cable (vivid's `disconnect` button,
/// after which every request on the node fails with `ENODEV`, as a pulled USB camera's does): while a
/// movie records, the cable is pulled, and the time until the app hears of it is measured. HVTCamera's
/// app hears of it from `didFailWithError` with `cameraDisconnected`; the same pipeline under
/// `gst-launch-1.0` posts its source's error on the bus, which an app hears of on its main loop. The
/// clock starts before the button is pressed through ``HVTCameraControls``, which opens the node and
/// lists its controls first, alike for both. vivid comes back once the last handle on the node is
/// closed, so each round ends with its camera stopped.
struct UnplugRows {
  let resolution: String
  let camera: BenchCamera
  let rounds: Int
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    guard let node = camera.node else { return [] }
    var (ours, line) = (Series(), Series())
    for round in 1...rounds {
      log("\(resolution): unplug \(round)/\(rounds)")
      ours.add(try unplugOurs(node).milliseconds)
      line.add(try unplugLaunchLine(node).milliseconds)
    }
    return [
      Row(
        id: "unplug-noticed",
        title: "a camera unplugged while recording: until the app is told (HVTCamera: didFailWithError "
          + "cameraDisconnected)", resolution: resolution, unit: "ms", hvtcamera: ours,
        reference: ("gst-launch-1.0", "its source's error, heard on the main thread", line))
    ]
  }

  /// HVTCamera records, a second on its schedule, then the cable is pulled: the time until
  /// `didFailWithError` says `cameraDisconnected`.
  private func unplugOurs(_ node: String) throws -> Duration {
    let ours = try OurCamera(quality: BenchPlan.quality(resolution), directory: directory, camera: camera)
    ours.setVideoMode(true)
    _ = try ours.present()
    defer { ours.dismiss() }
    let failure = ours.delegate.expectFailure()
    _ = try ours.startRecording()
    waitForSchedule(until: .now + .seconds(1))
    let pulled = try Self.pullCable(of: node)
    let told = try failure.wait("HVTCamera's error after the unplug")
    guard case .cameraDisconnected? = told.error else {
      throw BenchError.failed("after the unplug HVTCamera said \(told.text), not cameraDisconnected")
    }
    return pulled.duration(to: told.arrival)
  }

  /// The movie line runs, a second on its schedule after its first frame reached the preview, then the
  /// cable is pulled: the time until its error, posted on the bus, reaches the main thread.
  private func unplugLaunchLine(_ node: String) throws -> Duration {
    let model = try OurCamera.pipelineModel(
      quality: BenchPlan.quality(resolution), directory: directory, camera: camera)
    let path = directory.appendingPathComponent("unplug-\(UUID().uuidString.prefix(8)).mp4").path
    let pipeline = try Pipeline(launch: model.launchDescription(mode: .video, output: path, frames: nil))
    defer {
      pipeline.setState(.null)
      try? FileManager.default.removeItem(atPath: path)
    }
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
    let pulled = try Self.pullCable(of: node)
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
