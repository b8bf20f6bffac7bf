import Foundation

/// The default camera controls (``HVTCameraController/showsCameraControls``): a label per button on a
/// shaded background, the recording clock on the record button, and, on the review screen of an
/// editable photo, the square crop box with the picture outside it shaded. One `overlaycomposition`
/// element draws them all (``ControlsPicture`` renders them, ``ControlsOverlay`` hands them to the
/// element), on every sink alike.
///
/// The picture is split into zones a person clicks: a top bar (flash on the left, camera switch on the
/// right) and a bottom bar in thirds (Cancel, Pause or Resume while recording, or Retake; the shutter; the mode
/// switch or Use Photo).
/// Everything here is a pure function of ``Look`` and the picture's size.
enum CameraControls {
  /// What the controls show.
  struct Look: Hashable, Sendable {
    var mode: HVTCameraController.CameraCaptureMode
    var flash: HVTCameraController.CameraFlashMode
    /// Whether the mode can be switched (both media types enabled).
    var canSwitchMode: Bool
    /// Whether photos are edited: the review screen shows the crop box.
    var editing: Bool
    /// Seconds recorded and the limit, while recording.
    var recording: (elapsed: Double, limit: Double)?
    /// The review screen of a photo, with its crop box when editing.
    var review: Review?
    /// The recording is paused: its button says Resume.
    var paused = false

    static func == (lhs: Look, rhs: Look) -> Bool {
      lhs.mode == rhs.mode && lhs.flash == rhs.flash && lhs.canSwitchMode == rhs.canSwitchMode
        && lhs.editing == rhs.editing
        && lhs.recording?.elapsed == rhs.recording?.elapsed && lhs.recording?.limit == rhs.recording?.limit
        && lhs.review == rhs.review && lhs.paused == rhs.paused
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(mode)
      hasher.combine(flash)
      hasher.combine(canSwitchMode)
      hasher.combine(editing)
      hasher.combine(recording?.elapsed)
      hasher.combine(recording?.limit)
      hasher.combine(review)
      hasher.combine(paused)
    }
  }

  /// The review screen.
  struct Review: Hashable, Sendable {
    /// The crop box, in pixels of the photo (which the review shows without zoom or mirror); `nil`
    /// without editing.
    var crop: HVTRect?
  }

  /// What a click or key asks for.
  enum Action: Equatable {
    case shutter, cancel, flash, switchCamera, switchMode, retake, use
    /// Pauses the recording, or resumes it when paused.
    case pauseOrResume
    /// Moves the crop box by a number of pixels.
    case moveCrop(dx: Int, dy: Int)
    /// Scales the crop box about its centre.
    case scaleCrop(Double)
  }

  /// The buttons, in drawing order.
  enum Button: CaseIterable {
    case flash, camera, left, shutter, right

    /// Where the label sits across the picture (0 against the left edge, 0.5 centred, 1 against the
    /// right edge), and whether in the top bar or the bottom one.
    var placement: (across: Double, top: Bool) {
      switch self {
      case .flash: (0, true)
      case .camera: (1, true)
      case .left: (0, false)
      case .shutter: (0.5, false)
      case .right: (1, false)
      }
    }
  }

  /// The name of the preview's element that draws the controls.
  static let elementName = "preview-controls"

  /// The element that draws the controls, as the pipeline model holds it: `overlaycomposition`, with no
  /// property. What it draws comes from the engine's handler of its `draw` signal (``ControlsOverlay``),
  /// so the same element in a `gst-launch-1.0` line passes the frames on undrawn.
  static let element = HVTElementDescription("overlaycomposition", name: elementName)

  /// The label `button` shows for `look`, or `nil` when the button is not shown.
  static func label(_ button: Button, _ look: Look) -> String? {
    let live = look.review == nil
    switch button {
    case .flash: return live ? "Flash: \(look.flash.label)" : nil
    case .camera: return live ? "Switch Camera" : nil
    case .left: return leftLabel(look)
    case .shutter: return live ? shutterLabel(look) : nil
    case .right: return live ? (look.canSwitchMode ? "Mode: \(look.mode.label)" : nil) : "Use Photo"
    }
  }

  /// The crop box drawn on the review screen of an editable photo, on a `size` picture: the picture
  /// outside it shaded (four rectangles: above, below, before and after it) and its four edges (top,
  /// bottom, left, right), `thickness` pixels wide; rectangles without area are left out. None without a crop.
  static func cropBox(_ look: Look, size: HVTFrameSize, thickness: Int) -> (shades: [HVTRect], edges: [HVTRect]) {
    guard look.editing, let box = look.review?.crop else { return ([], []) }
    let (width, height) = (size.width, size.height)
    let shades = [
      HVTRect(x: 0, y: 0, width: width, height: box.y),
      HVTRect(x: 0, y: box.y + box.height, width: width, height: height - box.y - box.height),
      HVTRect(x: 0, y: box.y, width: box.x, height: box.height),
      HVTRect(x: box.x + box.width, y: box.y, width: width - box.x - box.width, height: box.height),
    ]
    let edges = [
      HVTRect(x: box.x, y: box.y, width: box.width, height: thickness),
      HVTRect(x: box.x, y: box.y + box.height - thickness, width: box.width, height: thickness),
      HVTRect(x: box.x, y: box.y, width: thickness, height: box.height),
      HVTRect(x: box.x + box.width - thickness, y: box.y, width: thickness, height: box.height),
    ]
    let drawn = { (rect: HVTRect) in rect.width > 0 && rect.height > 0 }
    return (shades.filter(drawn), edges.filter(drawn))
  }

  /// The bottom left button's label: Retake on the review, Pause or Resume while recording, else Cancel.
  private static func leftLabel(_ look: Look) -> String {
    if look.review != nil { return "Retake" }
    if look.recording != nil { return look.paused ? "Resume" : "Pause" }
    return "Cancel"
  }

  /// The shutter's label: the photo button, the record button, or stop with the time recorded.
  private static func shutterLabel(_ look: Look) -> String {
    switch (look.mode, look.recording) {
    case (.photo, _): "( Take Photo )"
    case (.video, nil): "( Record )"
    case (.video, let recording?): "( Stop )  \(clock(recording.elapsed)) / \(clock(recording.limit))"
    }
  }

  /// `MM:SS`.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.down))
    return String(format: "%02d:%02d", whole / 60, whole % 60)
  }

  /// The share of the picture's height each bar takes.
  static let barHeight = 0.14

  /// What a click at (`x`, `y`) on a `size` picture asks for, by the zone it falls in.
  static func action(clickAt x: Double, _ y: Double, size: HVTFrameSize, look: Look) -> Action? {
    let (width, height) = (Double(size.width), Double(size.height))
    let bar = height * barHeight
    if y >= height - bar {
      switch (x < width / 3, x >= width * 2 / 3, look.review != nil) {
      case (true, _, false): return look.recording == nil ? .cancel : .pauseOrResume
      case (true, _, true): return .retake
      case (_, true, false): return look.canSwitchMode ? .switchMode : nil
      case (_, true, true): return .use
      case (false, false, false): return .shutter
      case (false, false, true): return nil
      }
    }
    guard y < bar, look.review == nil else { return nil }
    return x < width / 2 ? .flash : .switchCamera
  }

  /// What a key asks for: space the shutter, Escape Cancel, `f` flash, `c` camera, `m` mode, `p` pause
  /// or resume while recording; on the
  /// review screen Enter Use and `r` Retake, and, when editing, the arrows move the crop box and `+`/`-`
  /// scale it.
  static func action(key: String, look: Look, size: HVTFrameSize) -> Action? {
    let step = max(2, min(size.width, size.height) / 20)
    if look.review != nil {
      switch key {
      case "Return", "KP_Enter": return .use
      case "r", "R": return .retake
      case "Escape": return .cancel
      default: break
      }
      guard look.review?.crop != nil else { return nil }
      switch key {
      case "Left": return .moveCrop(dx: -step, dy: 0)
      case "Right": return .moveCrop(dx: step, dy: 0)
      case "Up": return .moveCrop(dx: 0, dy: -step)
      case "Down": return .moveCrop(dx: 0, dy: step)
      case "plus", "equal", "KP_Add": return .scaleCrop(1.1)
      case "minus", "KP_Subtract": return .scaleCrop(1 / 1.1)
      default: return nil
      }
    }
    switch key {
    case "space": return .shutter
    case "Escape": return .cancel
    case "f", "F": return .flash
    case "c", "C": return .switchCamera
    case "m", "M": return look.canSwitchMode ? .switchMode : nil
    case "p", "P": return look.recording == nil ? nil : .pauseOrResume
    default: return nil
    }
  }
}

extension HVTCameraController.CameraFlashMode {
  /// `Auto`, `On` or `Off`.
  var label: String {
    switch self {
    case .auto: "Auto"
    case .on: "On"
    case .off: "Off"
    }
  }

  /// The next mode a press of the flash button chooses: auto, on, off, auto…
  var next: Self {
    switch self {
    case .auto: .on
    case .on: .off
    case .off: .auto
    }
  }
}

extension HVTCameraController.CameraCaptureMode {
  /// `Photo` or `Video`.
  var label: String { self == .photo ? "Photo" : "Video" }
}
