import Foundation

/// The default camera controls (``HVTCameraController/showsCameraControls``), drawn on the preview by
/// GStreamer's own overlay elements: a `textoverlay` per button, with a shaded background, and, on the
/// review screen of an editable photo, the square crop box as four `gdkpixbufoverlay` edges.
///
/// The picture is split into zones a person clicks: a top bar (flash on the left, camera switch on the
/// right) and a bottom bar in thirds (Cancel, Pause or Resume while recording, or Retake; the shutter; the mode
/// switch or Use Photo).
/// Everything here is a pure function of ``Look`` and the picture's size, so the same properties build
/// the elements and update them on the running preview.
enum CameraControls {
  /// What the controls show.
  struct Look: Equatable, Sendable {
    var mode: HVTCameraController.CameraCaptureMode
    var flash: HVTCameraController.CameraFlashMode
    /// Whether the mode can be switched (both media types enabled).
    var canSwitchMode: Bool
    /// Whether photos are edited: the crop box's elements are there (hidden until a review).
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
  }

  /// The review screen.
  struct Review: Equatable, Sendable {
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

  /// The buttons, by element name.
  enum Button: String, CaseIterable {
    case flash = "control-flash", camera = "control-camera", left = "control-left", shutter = "control-shutter"
    case right = "control-right"
  }

  /// The crop box's edges and the shades around it, by element name.
  static let cropEdges = ["control-crop-top", "control-crop-bottom", "control-crop-left", "control-crop-right"]
  static let cropShades = ["control-crop-above", "control-crop-below", "control-crop-before", "control-crop-after"]

  /// Every element of the controls, by name, with the properties `look` gives it on a `size` picture.
  static func properties(_ look: Look, size: HVTFrameSize) -> [(name: String, properties: [(String, String)])] {
    let fontPixels = max(10, size.height / 22)
    let pad = String(max(4, size.height / 40))
    let buttons: [(Button, text: String?, halign: String, valign: String)] = [
      (.flash, look.review == nil ? "Flash: \(look.flash.label)" : nil, "left", "top"),
      (.camera, look.review == nil ? "Switch Camera" : nil, "right", "top"),
      (.left, leftLabel(look), "left", "bottom"),
      (.shutter, look.review == nil ? shutterLabel(look) : nil, "center", "bottom"),
      (
        .right, look.review == nil ? (look.canSwitchMode ? "Mode: \(look.mode.label)" : nil) : "Use Photo", "right",
        "bottom"
      ),
    ]
    let texts = buttons.map { button in
      (
        name: button.0.rawValue,
        properties: [
          ("text", button.text ?? ""), ("silent", button.text == nil ? "true" : "false"),
          ("font-desc", "Sans Bold \(fontPixels)px"), ("auto-resize", "false"), ("shaded-background", "true"),
          ("halignment", button.halign), ("valignment", button.valign), ("xpad", pad), ("ypad", pad),
        ]
      )
    }
    return (look.editing ? cropBoxProperties(look.review?.crop, size: size) : []) + texts
  }

  /// The crop box: the picture outside it shaded (four half-transparent black rectangles), and its four
  /// white edges; hidden (transparent) without a crop.
  private static func cropBoxProperties(_ crop: HVTRect?, size: HVTFrameSize) -> [(
    name: String, properties: [(String, String)]
  )] {
    let thickness = max(2, size.height / 160)
    let box = crop ?? HVTRect(x: 0, y: 0, width: thickness, height: thickness)
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
    let rectangle = { (name: String, rect: HVTRect, image: String, alpha: String) in
      (
        name: name,
        properties: [
          ("location", image), ("positioning-mode", "pixels-absolute"), ("offset-x", String(rect.x)),
          ("offset-y", String(rect.y)), ("overlay-width", String(max(1, rect.width))),
          ("overlay-height", String(max(1, rect.height))),
          ("alpha", crop == nil || rect.width < 1 || rect.height < 1 ? "0" : alpha),
        ]
      )
    }
    return zip(cropShades, shades).map { rectangle($0, $1, CropBoxImage.shade, "0.5") }
      + zip(cropEdges, edges).map { rectangle($0, $1, CropBoxImage.edge, "1") }
  }

  /// The controls' elements, in drawing order.
  static func elements(_ look: Look, size: HVTFrameSize) -> [HVTElementDescription] {
    properties(look, size: size).map { element in
      element.properties.reduce(
        HVTElementDescription(
          element.name.hasPrefix("control-crop") ? "gdkpixbufoverlay" : "textoverlay", name: element.name)
      ) { $0.setting($1.0, to: $1.1) }
    }
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

/// The images the crop box is drawn with: one white and one black pixel in PPM files (a format
/// gdk-pixbuf reads), resources of the package, stretched by `gdkpixbufoverlay` to each rectangle.
enum CropBoxImage {
  /// The white pixel, for the edges.
  static let edge = Bundle.module.url(forResource: "crop-edge", withExtension: "ppm")?.path ?? ""
  /// The black pixel, for the shade outside the box.
  static let shade = Bundle.module.url(forResource: "crop-shade", withExtension: "ppm")?.path ?? ""
}
