import HVTGStreamer
import HVTSupport

/// The controls the simulated camera models, held as a device holds its own: one set of values per
/// simulated camera of a controller, shown at once by the pipeline running that camera and taken on by
/// the next one. Brightness, contrast and saturation drive a `videobalance`; zoom crops the frame's
/// centre (`videocrop`) and scales it back to the frame size (`videoscale`, then caps of that size).
final class SimulatedCameraControls: Sendable {
  /// The elements one running pipeline shows the values with.
  struct Elements: Sendable {
    /// `videobalance`: brightness, contrast, saturation.
    let balance: Element
    /// `videocrop`: zoom.
    let crop: Element
    /// The frame size the crop is scaled back to.
    let size: HVTFrameSize
  }

  private struct State {
    var values: [String: Int64]
    /// The pipelines running this camera, by ``CaptureSession/id``.
    var attached: [UInt64: Elements] = [:]
  }

  private let state: Locked<State>

  /// A simulated camera's controls at their defaults, or at `values` where they are values it takes.
  init(values: [String: Int64] = [:]) {
    let current = Self.definitions.map { control in
      (control.name, values[control.name].flatMap { control.accepts($0) ? $0 : nil } ?? control.defaultValue)
    }
    state = Locked(State(values: Dictionary(uniqueKeysWithValues: current)))
  }

  /// Names of the source chain's elements that show the values.
  static let balanceName = "camera-balance"
  static let cropName = "camera-zoom"

  /// The elements appended to the simulated camera's source chain for frames of `size`. At the default
  /// values `videobalance`, `videocrop` and `videoscale` pass frames through untouched.
  static func elements(size: HVTFrameSize) -> [HVTElementDescription] {
    [
      HVTElementDescription("videobalance", name: balanceName),
      HVTElementDescription("videocrop", name: cropName),
      HVTElementDescription("videoscale", name: "camera-zoom-scale"),
      .capsFilter("video/x-raw,width=\(size.width),height=\(size.height)", name: "camera-zoom-caps"),
    ]
  }

  /// The four controls, with V4L2's names and integer ranges (`zoom_absolute` in hundredths: 100 is no
  /// zoom, 400 four times).
  static let definitions: [HVTCameraControl] = [
    control("brightness", "Brightness"),
    control("contrast", "Contrast"),
    control("saturation", "Saturation"),
    HVTCameraControl(
      name: "zoom_absolute", title: "Zoom, Absolute", kind: .integer(minimum: 100, maximum: 400, step: 1),
      defaultValue: 100, value: nil, isReadOnly: false, isInactive: false, id: 0),
  ]

  private static func control(_ name: String, _ title: String) -> HVTCameraControl {
    HVTCameraControl(
      name: name, title: title, kind: .integer(minimum: 0, maximum: 255, step: 1), defaultValue: 128, value: nil,
      isReadOnly: false, isInactive: false, id: 0)
  }

  /// Every control with its current value.
  func controls() -> [HVTCameraControl] {
    let values = state.withLock { $0.values }
    return Self.definitions.map { control in
      var control = control
      control.value = values[control.name]
      return control
    }
  }

  /// Sets control `name` (one of ``definitions``, its value already checked) and shows it in every
  /// running pipeline of this camera.
  func set(_ name: String, to value: Int64) throws {
    let (values, attached) = state.withLock { state in
      state.values[name] = value
      return (state.values, Array(state.attached.values))
    }
    for elements in attached { try Self.show(values, on: elements) }
  }

  /// A pipeline of this camera started: it shows the current values until ``detach(session:)``.
  func attach(_ elements: Elements, session: UInt64) throws {
    let values = state.withLock { state in
      state.attached[session] = elements
      return state.values
    }
    try Self.show(values, on: elements)
  }

  /// The pipeline stopped; its elements are let go.
  func detach(session: UInt64) {
    _ = state.withLock { $0.attached.removeValue(forKey: session) }
  }

  /// Sets the elements' properties for `values`: 128 is `videobalance`'s neutral 0 (brightness) or 1
  /// (contrast, saturation); the zoom crops an even number of pixels from each side, keeping the centre.
  private static func show(_ values: [String: Int64], on elements: Elements) throws {
    let level = { (name: String) in Double(values[name] ?? 128) / 128 }
    try elements.balance.set("brightness", level("brightness") - 1)
    try elements.balance.set("contrast", level("contrast"))
    try elements.balance.set("saturation", level("saturation"))
    let zoom = Double(values["zoom_absolute"] ?? 100) / 100
    let margin = { (length: Int) in Int(Double(length) * (1 - 1 / zoom) / 4) * 2 }
    let (x, y) = (margin(elements.size.width), margin(elements.size.height))
    try elements.crop.set("left", x)
    try elements.crop.set("right", x)
    try elements.crop.set("top", y)
    try elements.crop.set("bottom", y)
  }
}
