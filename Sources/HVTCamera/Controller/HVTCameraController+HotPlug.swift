import Dispatch
import HVTGStreamer
import HVTSupport

extension HVTCameraController {
  /// A camera that came or went: its name, its V4L2 node, and for a PipeWire camera its node's
  /// `object.serial`.
  enum DeviceChange: Sendable, Hashable {
    case connected(name: String, path: String?, serial: String? = nil)
    case disconnected(name: String, path: String?, serial: String? = nil)
  }

  /// Watches for cameras coming and going while `session` runs: a `GstDeviceMonitor` for `Video/Source`
  /// devices where udev runs, else a ``DeviceNodeWatcher`` on `/dev` (the monitor's V4L2 provider hears
  /// nothing without udev). The monitor probes the devices when it starts, which takes a moment, so the
  /// watcher starts off the controller queue (on a queue of its own, not a global one, whose few threads
  /// blocking work would hold up) and is kept only if the session is still the current one. For a
  /// PipeWire camera it is always the monitor: its PipeWire provider needs no udev.
  func watchDevices(for session: ControllerMachine.Session) {
    let relay = ControllerRelay(self)
    let pipewire = session.camera.isPipeWire
    DispatchQueue(label: "hvtcamera.devices", qos: .utility).async {
      let watcher = Self.deviceWatcher(forPipeWire: pipewire) { change in relay.post(.deviceChanged(change)) }
      relay.run { controller in
        guard let watcher, controller.read(\.session) == session.id else { return }
        controller.resources.withLock { $0.deviceWatcher = (session.id, watcher) }
      }
    }
  }

  /// Starts watching for `Video/Source` devices coming and going: `GstDeviceMonitor`'s ``DeviceWatcher``
  /// where udev runs or `forPipeWire` (PipeWire's cameras, which its PipeWire provider reports with or
  /// without udev), else a ``DeviceNodeWatcher`` on `/dev`. `report` runs on the watcher's thread. The
  /// watcher stops when released; `nil` when neither can start.
  ///
  /// The monitor also announces, as added, the V4L2 nodes already there when it starts; those are not
  /// reported (a node present at the start counts as connected until it goes). PipeWire's provider runs
  /// from the first listing on (``DeviceMonitor/devices(ofClass:)``), so it announces only what comes after.
  static func deviceWatcher(
    forPipeWire: Bool = false, report: @escaping @Sendable (DeviceChange) -> Void
  ) -> (any AnyObject & Sendable)? {
    guard forPipeWire || DeviceNodeWatcher.udevIsRunning() else { return DeviceNodeWatcher(handler: report) }
    let present = Locked(Set(V4L2Discovery.videoNodes()))
    return DeviceWatcher(deviceClass: "Video/Source") { change in
      switch change {
      case .added(let added):
        let device = MonitoredDevice(added)
        if let path = device.nodePath, !present.withLock({ $0.insert(path).inserted }) { return }
        report(.connected(name: device.displayName, path: device.nodePath, serial: device.pipewireSerial))
      case .removed(let removed):
        let device = MonitoredDevice(removed)
        if let path = device.nodePath { present.withLock { _ = $0.remove(path) } }
        report(.disconnected(name: device.displayName, path: device.nodePath, serial: device.pipewireSerial))
      }
    }
  }

  /// Whether the camera that went (`name`, `path`, `serial` as ``DeviceChange/disconnected(name:path:serial:)``
  /// gives them) is the one `model` runs (``ControllerMachine/Camera/matches(name:path:serial:)``).
  static func isInUse(name: String, path: String?, serial: String?, by model: HVTPipelineModel) -> Bool {
    ControllerMachine.Camera(model).matches(name: name, path: path, serial: serial)
  }
}

extension ControllerMachine.Camera {
  /// The camera `model` runs: a PipeWire node's serial when the source targets one.
  init(_ model: HVTPipelineModel) {
    let source = model.source.first
    let pipewire = source?.factory == "pipewiresrc"
    self.init(
      configuration: model.configuration, isPipeWire: pipewire,
      pipewireSerial: pipewire ? source?.value(of: "target-object") : nil)
  }
}
