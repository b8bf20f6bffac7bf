import Foundation

/// The controls of one V4L2 camera — list them with their ranges and defaults, read and set them while
/// the camera runs (or while nothing uses it) — and the values set here, kept per camera so that
/// ``HVTCameraController`` applies them again whenever it opens that camera, after a replug or a restart
/// too. Each call opens the device node beside any stream (``V4L2Node``: `VIDIOC_QUERY_EXT_CTRL`,
/// `VIDIOC_G_EXT_CTRLS`, `VIDIOC_S_EXT_CTRLS`); controls belong to the device, so a value set here reaches
/// the `v4l2src` streaming from it at once.
public struct HVTCameraControls: Sendable {
  /// The camera's V4L2 node.
  public let path: String
  /// The camera's stable ID (``HVTCameraDeviceInfo/uniqueID``), under which its values are kept.
  public let cameraID: String
  /// Where the values are kept (default: ``HVTCameraSettingsStore/standard``).
  public var store: HVTCameraSettingsStore

  /// The controls of `camera`, which must have a V4L2 node (the simulated camera has none: its
  /// brightness and contrast are the preset's filters).
  public init(camera: HVTCameraDeviceInfo, store: HVTCameraSettingsStore = .standard) throws(HVTCameraError) {
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
  }

  /// Every control with its current value.
  public func all() throws(HVTCameraError) -> [HVTCameraControl] {
    try withNode { node throws(V4L2Failure) in try V4L2Controls.controls(of: node) }
  }

  /// The control called `name` (`brightness`, as ``HVTCameraControl/name`` spells it), with its value.
  public func control(named name: String) throws(HVTCameraError) -> HVTCameraControl {
    let controls = try all()
    guard let control = controls.first(where: { $0.name == name }) else {
      throw .unknownControl(name: name, camera: path, available: controls.map(\.name))
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
      throw .controlRejected(name: name, value: value, camera: path, reason: "the control is read-only")
    }
    guard control.accepts(value) else {
      throw .controlRejected(name: name, value: value, camera: path, reason: "it takes \(control.rangeText)")
    }
    try withNode { node throws(V4L2Failure) in try node.setValue(value, of: control.id) }
    if keeping, control.kind != .button { try store.keep(value, for: name, camera: cameraID) }
    return try self.control(named: name)
  }

  /// Sets every control back to its default and forgets the values kept for this camera.
  public func resetToDefaults() throws(HVTCameraError) {
    try withNode { node throws(V4L2Failure) in
      for control in try V4L2Controls.controls(of: node)
      where !control.isReadOnly && control.kind != .button && control.value != nil {
        try node.setValue(control.defaultValue, of: control.id)
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
    do throws(HVTCameraError) {
      return try withNode { node throws(V4L2Failure) in
        var applied: [String: Int64] = [:]
        var failed: [String: String] = [:]
        let controls = try V4L2Controls.controls(of: node)
        for control in controls {
          guard let value = kept[control.name] else { continue }
          do throws(V4L2Failure) {
            try node.setValue(value, of: control.id)
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
    } catch {
      return ([:], kept.mapValues { _ in error.description })
    }
  }

  /// Runs `body` on the device node, opened for it; a V4L2 failure becomes an ``HVTCameraError``.
  private func withNode<T>(_ body: (V4L2Node) throws(V4L2Failure) -> T) throws(HVTCameraError) -> T {
    do {
      return try body(try V4L2Node(path: path))
    } catch {
      throw error.deviceIsGone
        ? .cameraDisconnected(name: cameraID, path: path)
        : .controlsUnavailable(camera: path, reason: error.description)
    }
  }
}
