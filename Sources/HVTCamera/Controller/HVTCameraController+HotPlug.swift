import Dispatch
import HVTGStreamer

extension HVTCameraController {
  /// A camera that came or went.
  enum DeviceChange: Sendable, Hashable {
    case connected(name: String, path: String?)
    case disconnected(name: String, path: String?)
  }

  /// Watches for cameras coming and going while `session` runs: a `GstDeviceMonitor` for `Video/Source`
  /// devices where udev runs, else a ``DeviceNodeWatcher`` on `/dev` (the monitor's V4L2 provider hears
  /// nothing without udev). The monitor probes the devices when it starts, which takes a moment, so the
  /// watcher starts off the controller queue (on a queue of its own, not a global one, whose few threads
  /// blocking work would hold up) and is kept only if the session is still the current one.
  func watchDevices(for session: CaptureSession) {
    let controller = WeakReference(self)
    let queue = self.queue
    DispatchQueue(label: "hvtcamera.devices", qos: .utility).async {
      let watcher = Self.deviceWatcher { change in
        queue.async { controller.target?.handleDeviceChange(change) }
      }
      queue.async {
        guard let self = controller.target, self.state.session === session else { return }
        self.state.deviceWatcher = watcher
      }
    }
  }

  /// Starts watching for `Video/Source` devices coming and going: `GstDeviceMonitor`'s ``DeviceWatcher``
  /// where udev runs, else a ``DeviceNodeWatcher`` on `/dev`. `report` runs on the watcher's thread. The
  /// watcher stops when released; `nil` when neither can start.
  ///
  /// The monitor also announces, as added, the devices already there when it starts; those are not
  /// reported (a node present at the start counts as connected until it goes).
  static func deviceWatcher(report: @escaping @Sendable (DeviceChange) -> Void) -> (any AnyObject & Sendable)? {
    guard DeviceNodeWatcher.udevIsRunning() else { return DeviceNodeWatcher(handler: report) }
    let present = Locked(Set(V4L2Discovery.videoNodes()))
    return DeviceWatcher(deviceClass: "Video/Source") { change in
      switch change {
      case .added(let added):
        let device = MonitoredDevice(added)
        if let path = device.nodePath, !present.withLock({ $0.insert(path).inserted }) { return }
        report(.connected(name: device.displayName, path: device.nodePath))
      case .removed(let removed):
        let device = MonitoredDevice(removed)
        if let path = device.nodePath { present.withLock { _ = $0.remove(path) } }
        report(.disconnected(name: device.displayName, path: device.nodePath))
      }
    }
  }

  /// Reports a camera coming or going; when the camera in use goes, finalizes and delivers a recording,
  /// reports ``HVTCameraError/cameraDisconnected(name:path:)`` and stops the camera (on `queue`).
  func handleDeviceChange(_ change: DeviceChange) {
    switch change {
    case .connected(let name, let path):
      debugLog.log(.info, "camera connected: \(name) \(path ?? "")")
      publish(.cameraConnected(name: name, path: path))
    case .disconnected(let name, let path):
      debugLog.log(.info, "camera disconnected: \(name) \(path ?? "")")
      publish(.cameraDisconnected(name: name, path: path))
      guard let configuration = state.session?.model.configuration,
        path.map({ $0 == configuration.devicePath }) ?? (name == configuration.deviceName)
      else { return }
      let error = HVTCameraError.cameraDisconnected(name: name, path: path)
      fail(error)
      state.recording?.interruption = error
      finishRecording(reason: .error)
      markDismissed()
      stopSession(then: .nothing)
    }
  }
}
