import Foundation

/// The controls of one camera — list them with their ranges and defaults, read and set them while the
/// camera runs (or while nothing uses it) — and the values set here, kept per camera so that
/// ``HVTCameraController`` applies them again whenever it opens that camera, after a replug or a restart
/// too.
///
/// A V4L2 camera's controls are the driver's: each call opens the device node beside any stream
/// (`V4L2Node`: `VIDIOC_QUERY_EXT_CTRL`, `VIDIOC_G_EXT_CTRLS`, `VIDIOC_S_EXT_CTRLS`), and a value set
/// here reaches the `v4l2src` streaming from it at once. The simulated camera models `brightness`,
/// `contrast`, `saturation` (`videobalance`) and `zoom_absolute` (`videocrop` and `videoscale`), held by
/// the controller as a device holds its own and shown at once by its running pipeline.
public struct HVTCameraControls: Sendable {
  /// The camera's V4L2 node; `nil` for the simulated camera.
  public let path: String?
  /// The camera's stable ID (``HVTCameraDeviceInfo/uniqueID``), under which its values are kept.
  public let cameraID: String
  /// Where the values are kept (default: ``HVTCameraSettingsStore/standard``).
  public var store: HVTCameraSettingsStore
  private let simulated: SimulatedCameraControls?

  /// The controls of `camera`: a V4L2 node's or the simulated camera's. A camera with neither (a
  /// PipeWire stream) has none it can be asked for. A simulated camera's values live in the controller
  /// running it (``HVTCameraController/cameraControls()`` reaches them); here they start from the values
  /// kept in `store`, and values set are kept for its next start.
  public init(camera: HVTCameraDeviceInfo, store: HVTCameraSettingsStore = .standard) throws(HVTCameraError) {
    if camera.isSimulated {
      let simulated = SimulatedCameraControls(values: store.values(for: camera.uniqueID))
      self.init(simulated: simulated, cameraID: camera.uniqueID, store: store)
      return
    }
    guard let path = camera.path else {
      throw .controlsUnavailable(camera: camera.name, reason: "it has no V4L2 device node")
    }
    self.init(path: path, cameraID: camera.uniqueID, store: store)
  }

  /// The controls of the node at `path`, kept under `cameraID`.
  public init(path: String, cameraID: String, store: HVTCameraSettingsStore = .standard) {
    self.path = path
    self.cameraID = cameraID
    self.store = store
    simulated = nil
  }

  /// The simulated camera's controls, kept under `cameraID`.
  init(simulated: SimulatedCameraControls, cameraID: String, store: HVTCameraSettingsStore) {
    (path, self.cameraID, self.store, self.simulated) = (nil, cameraID, store, simulated)
  }

  /// Where the controls are, for messages: the node, or the camera's ID.
  private var location: String { path ?? cameraID }

  /// Every control with its current value.
  public func all() throws(HVTCameraError) -> [HVTCameraControl] {
    if let simulated { return simulated.controls() }
    return try withNode { node throws(V4L2Failure) in try V4L2Controls.controls(of: node) }
  }

  /// The control called `name` (`brightness`, as ``HVTCameraControl/name`` spells it), with its value.
  public func control(named name: String) throws(HVTCameraError) -> HVTCameraControl {
    let controls = try all()
    guard let control = controls.first(where: { $0.name == name }) else {
      throw .unknownControl(name: name, camera: location, available: controls.map(\.name))
    }
    return control
  }

  /// Sets control `name` to `value` and, when `keeping` (the default), keeps the value for this camera.
  /// The value must be one the control takes (``HVTCameraControl/accepts(_:)``), and the control must
  /// not be read-only. Returns the control as the device now reports it.
  @discardableResult
  public func set(_ name: String, to value: Int64, keeping: Bool = true) throws(HVTCameraError) -> HVTCameraControl {
    let control = try control(named: name)
    guard !control.isReadOnly else {
      throw .controlRejected(name: name, value: value, camera: location, reason: "the control is read-only")
    }
    guard control.accepts(value) else {
      throw .controlRejected(name: name, value: value, camera: location, reason: "it takes \(control.rangeText)")
    }
    try setValue(value, of: control)
    if keeping, control.kind != .button { try store.keep(value, for: name, camera: cameraID) }
    return try self.control(named: name)
  }

  /// Sets every control back to its default and forgets the values kept for this camera.
  public func resetToDefaults() throws(HVTCameraError) {
    if let simulated {
      for control in simulated.controls() { try setValue(control.defaultValue, of: control) }
    } else {
      try withNode { node throws(V4L2Failure) in
        for control in try V4L2Controls.controls(of: node)
        where !control.isReadOnly && control.kind != .button && control.value != nil {
          try node.setValue(control.defaultValue, of: control.id)
        }
      }
    }
    try store.forget(camera: cameraID)
  }

  /// Sets the values kept for this camera, in the driver's order of its controls (automatic modes before
  /// the values they govern). Returns what was applied and what could not be (a control the camera no
  /// longer has, or a value it refuses), each with the reason.
  public func applyKept() -> (applied: [String: Int64], failed: [String: String]) {
    let kept = store.values(for: cameraID)
    guard !kept.isEmpty else { return ([:], [:]) }
    if let simulated {
      // The simulated camera's elements take any number: its ranges are checked here.
      return Self.apply(kept, to: simulated.controls(), checkingRanges: true) {
        value, control throws(HVTCameraError) in try setValue(value, of: control)
      }
    }
    do throws(HVTCameraError) {
      return try withNode { node throws(V4L2Failure) in
        Self.apply(kept, to: try V4L2Controls.controls(of: node), checkingRanges: false) {
          value, control throws(V4L2Failure) in try node.setValue(value, of: control.id)
        }
      }
    } catch {
      return ([:], kept.mapValues { _ in error.description })
    }
  }

  /// Sets each kept value with `set`, in the order of `controls` (a driver's puts automatic modes before
  /// the values they govern), first checking it against the control's range when `checkingRanges`.
  /// Returns what was applied and, with the reason, what was not.
  private static func apply<Failure: Error & CustomStringConvertible>(
    _ kept: [String: Int64], to controls: [HVTCameraControl], checkingRanges: Bool,
    with set: (Int64, HVTCameraControl) throws(Failure) -> Void
  ) -> (applied: [String: Int64], failed: [String: String]) {
    var applied: [String: Int64] = [:]
    var failed: [String: String] = [:]
    for control in controls {
      guard let value = kept[control.name] else { continue }
      guard !checkingRanges || control.accepts(value) else {
        failed[control.name] = "it takes \(control.rangeText)"
        continue
      }
      do throws(Failure) {
        try set(value, control)
        applied[control.name] = value
      } catch {
        failed[control.name] = error.description
      }
    }
    for name in kept.keys where !controls.contains(where: { $0.name == name }) {
      failed[name] = "the camera has no control \(name)"
    }
    return (applied, failed)
  }

  /// Sets one control: through the device node, or on the simulated camera's elements.
  private func setValue(_ value: Int64, of control: HVTCameraControl) throws(HVTCameraError) {
    guard let simulated else {
      return try withNode { node throws(V4L2Failure) in try node.setValue(value, of: control.id) }
    }
    do {
      try simulated.set(control.name, to: value)
    } catch {
      throw .controlRejected(name: control.name, value: value, camera: cameraID, reason: "\(error)")
    }
  }

  /// Runs `body` on the device node, opened for it; a V4L2 failure becomes an ``HVTCameraError``.
  private func withNode<T>(_ body: (V4L2Node) throws(V4L2Failure) -> T) throws(HVTCameraError) -> T {
    guard let path else {
      throw .controlsUnavailable(camera: cameraID, reason: "it has no V4L2 device node")
    }
    do {
      return try body(try V4L2Node(path: path))
    } catch {
      throw error.deviceIsGone
        ? .cameraDisconnected(name: cameraID, path: path)
        : .controlsUnavailable(camera: path, reason: error.description)
    }
  }
}
