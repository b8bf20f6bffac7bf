import HVTCameraCore
import Foundation

/// The default camera controls (``HVTCameraController/showsCameraControls``): a label per button on a
/// shaded background, the recording clock on the record button, on the review screen of an editable
/// photo the square crop box with the picture outside it shaded, and on a movie's review screen its
/// timeline (``Timeline``): a bar with the playhead, and the trim handles when editing. One `overlaycomposition`
/// element draws them all (``ControlsPicture`` renders them, ``ControlsOverlay`` hands them to the
/// element), on every sink alike.
///
/// The picture is split into zones a person clicks: a top bar (flash on the left, camera switch on the
/// right) and a bottom bar in thirds (Cancel, Pause or Resume while recording, or Retake; the shutter; the mode
/// switch, Use Photo or Use Video), and on a movie's review the timeline above the bottom bar.
/// Everything here is a pure function of ``Look`` and the picture's size.
package enum CameraControls {
  /// What the controls show.
  package struct Look: Hashable, Sendable {
    var mode: HVTCameraCaptureMode
    var flash: HVTCameraFlashMode
    /// Whether the mode can be switched (both media types enabled).
    var canSwitchMode: Bool
    /// Whether captures are edited: the review screen shows a photo's crop box, a movie's trim handles.
    var editing: Bool
    /// Seconds recorded and the limit, while recording.
    package var recording: (elapsed: Double, limit: Double)?
    /// The review screen of a photo, with its crop box when editing, or of a movie, with its timeline.
    package var review: Review?
    /// The recording is paused: its button says Resume.
    package var paused = false

    package static func == (lhs: Look, rhs: Look) -> Bool {
      lhs.mode == rhs.mode && lhs.flash == rhs.flash && lhs.canSwitchMode == rhs.canSwitchMode
        && lhs.editing == rhs.editing
        && lhs.recording?.elapsed == rhs.recording?.elapsed && lhs.recording?.limit == rhs.recording?.limit
        && lhs.review == rhs.review && lhs.paused == rhs.paused
    }

    package func hash(into hasher: inout Hasher) {
      hasher.combine(mode)
      hasher.combine(flash)
      hasher.combine(canSwitchMode)
      hasher.combine(editing)
      hasher.combine(recording?.elapsed)
      hasher.combine(recording?.limit)
      hasher.combine(review)
      hasher.combine(paused)
    }

    /// Each stored property, as a memberwise initializer takes them.
    package init(
      mode: HVTCameraCaptureMode, flash: HVTCameraFlashMode, canSwitchMode: Bool, editing: Bool,
      recording: (elapsed: Double, limit: Double)? = nil, review: Review? = nil
    ) {
      self.mode = mode
      self.flash = flash
      self.canSwitchMode = canSwitchMode
      self.editing = editing
      self.recording = recording
      self.review = review
    }
  }

  /// The review screen.
  package struct Review: Hashable, Sendable {
    /// The crop box, in pixels of the photo (which the review shows without zoom or mirror); `nil`
    /// without editing.
    var crop: HVTRect?
    /// A movie's timeline; `nil` on a photo's review.
    var timeline: Timeline? = nil

    /// Each stored property, as a memberwise initializer takes them.
    package init(crop: HVTRect? = nil, timeline: Timeline? = nil) {
      self.crop = crop
      self.timeline = timeline
    }
  }

  /// A reviewed movie's timeline: its length, the playhead (a time from the movie's first frame: the
  /// frame shown is the one nearest to it) and, when editing, the trim: from the start of its first
  /// frame to the end of its last, never shorter than a frame nor longer than ``limit``. The handles are clamped, never
  /// pushed: one that would make the trim longer than the limit, or end it before it starts, stops there.
  package struct Timeline: Hashable, Sendable {
    /// The movie's duration, in seconds.
    let duration: Double
    /// The time between two frames, in seconds.
    package let frameInterval: Double
    /// The longest trim, in seconds (``HVTCameraController/videoMaximumDuration``).
    package let limit: Double
    /// Where the playhead is, in seconds from the first frame.
    package var playhead = 0.0
    /// The trim, with editing: the stretch Use Video keeps.
    package var trim: ClosedRange<Double>?

    /// The timeline of a movie `duration` seconds long at the start, with the trim spanning it (within
    /// `limit`) when `editing`.
    package init(duration: Double, frameInterval: Double, limit: Double, editing: Bool) {
      self.duration = max(duration, frameInterval)
      self.frameInterval = frameInterval
      self.limit = max(limit, frameInterval)
      trim = editing ? 0...min(self.duration, self.limit) : nil
    }

    /// The time of the last frame.
    var lastFrame: Double { max(0, duration - frameInterval) }

    /// Whether the trim leaves part of the movie out (by more than half a frame at either end).
    package var cutsMovie: Bool {
      guard let trim else { return false }
      return trim.lowerBound > frameInterval / 2 || trim.upperBound < duration - frameInterval / 2
    }

    /// Puts the playhead at `time`, kept between the first frame and the last.
    package mutating func movePlayhead(to time: Double) {
      playhead = min(max(0, time), lastFrame)
    }

    /// Puts a trim handle at `time`: the start at a frame's start, the end at a frame's end; clamped to
    /// at least a frame and at most ``limit`` from the other handle, and to the movie.
    package mutating func moveHandle(_ handle: Handle, to time: Double) {
      guard let trim else { return }
      switch handle {
      case .start:
        let start = min(max(time, 0, trim.upperBound - limit), trim.upperBound - frameInterval)
        self.trim = max(0, start)...trim.upperBound
      case .end:
        let end = max(min(time, duration, trim.lowerBound + limit), trim.lowerBound + frameInterval)
        self.trim = trim.lowerBound...min(duration, end)
      }
    }

    /// Drags a trim handle to `time`, and the playhead with it: to the trim's first frame for the start,
    /// its last for the end, so that the frame shown is the handle's.
    package mutating func drag(_ handle: Handle, to time: Double) {
      moveHandle(handle, to: time)
      guard let trim else { return }
      movePlayhead(to: handle == .start ? trim.lowerBound : trim.upperBound - frameInterval)
    }

    /// Does what a timeline's action asks for (``Action/movePlayhead(seconds:)``,
    /// ``Action/stepFrames(_:)``, ``Action/seek(_:)``, ``Action/trimAtPlayhead(_:)``); returns `false`,
    /// changing nothing, for another action.
    @discardableResult
    package mutating func apply(_ action: Action) -> Bool {
      switch action {
      case .movePlayhead(let seconds): movePlayhead(to: playhead + seconds)
      case .stepFrames(let frames): movePlayhead(to: playhead + Double(frames) * frameInterval)
      case .seek(let time): movePlayhead(to: time)
      case .trimAtPlayhead(let handle): moveHandle(handle, to: playhead + (handle == .start ? 0 : frameInterval))
      default: return false
      }
      return true
    }

    /// The times a frame-exact trim (``HVTMovieTrim``) cuts at to keep the frames inside the trim: half a
    /// frame before each end, so that it keeps the frame nearest to the trim's start, as the review showed
    /// it there, to the one nearest to a frame before its end, whatever the jitter of the frames' times.
    /// `nil` without a trim, or when the trim keeps the whole movie (``cutsMovie``).
    package var cut: ClosedRange<Double>? {
      guard let trim, cutsMovie else { return nil }
      return max(0, trim.lowerBound - frameInterval / 2)...(trim.upperBound - frameInterval / 2)
    }
  }

  /// A trim handle of a movie's timeline.
  package enum Handle: Hashable, Sendable {
    case start, end
  }

  /// What a click or key asks for.
  package enum Action: Equatable {
    case shutter, cancel, flash, switchCamera, switchMode, retake, use
    /// Pauses the recording, or resumes it when paused.
    case pauseOrResume
    /// Moves the crop box by a number of pixels.
    case moveCrop(dx: Int, dy: Int)
    /// Scales the crop box about its centre.
    case scaleCrop(Double)
    /// Moves a reviewed movie's playhead by seconds (infinite: to the first or the last frame).
    case movePlayhead(seconds: Double)
    /// Moves a reviewed movie's playhead by frames.
    case stepFrames(Int)
    /// Puts a reviewed movie's playhead at a time (a click on the timeline).
    case seek(Double)
    /// Puts a trim handle at the playhead: the start at the frame shown, the end after it.
    case trimAtPlayhead(Handle)
  }

  /// The buttons, in drawing order.
  package enum Button: CaseIterable {
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
  package static let elementName = "preview-controls"

  /// The element that draws the controls, as the pipeline model holds it: `overlaycomposition`, with no
  /// property. What it draws comes from the engine's handler of its `draw` signal (``ControlsOverlay``),
  /// so the same element in a `gst-launch-1.0` line passes the frames on undrawn.
  package static let element = HVTElementDescription("overlaycomposition", name: elementName)

  /// The label `button` shows for `look`, or `nil` when the button is not shown.
  package static func label(_ button: Button, _ look: Look) -> String? {
    let live = look.review == nil
    switch button {
    case .flash: return live ? "Flash: \(look.flash.label)" : nil
    case .camera: return live ? "Switch Camera" : nil
    case .left: return leftLabel(look)
    case .shutter: return live ? shutterLabel(look) : nil
    case .right:
      if live { return look.canSwitchMode ? "Mode: \(look.mode.label)" : nil }
      return look.review?.timeline == nil ? "Use Photo" : "Use Video"
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

  /// Where a movie's timeline is drawn on a `size` picture: its bar, above the bottom bar, inset by a
  /// twentieth of the width on each side. Its handles reach one bar's height above and below it, its
  /// playhead half of one.
  static func timelineBar(size: HVTFrameSize) -> HVTRect {
    let height = max(4, size.height / 40)
    let inset = size.width / 20
    let y = Int(Double(size.height) * (1 - barHeight)) - 2 * height
    return HVTRect(x: inset, y: y, width: max(1, size.width - 2 * inset), height: height)
  }

  /// The horizontal place on a `size` picture of `time` on `timeline`.
  static func place(of time: Double, on timeline: Timeline, size: HVTFrameSize) -> Int {
    let bar = timelineBar(size: size)
    return bar.x + Int((Double(bar.width) * min(1, max(0, time / timeline.duration))).rounded())
  }

  /// The movie's timeline as drawn on a `size` picture, in drawing order: the bar (`inside` the trim, or
  /// all of it without editing; `outside` it), the handles, and the playhead over them. Empty on other
  /// screens.
  static func timelineParts(_ look: Look, size: HVTFrameSize) -> (
    inside: [HVTRect], outside: [HVTRect], handles: [HVTRect], playhead: HVTRect?
  ) {
    guard let timeline = look.review?.timeline else { return ([], [], [], nil) }
    return timelineParts(timeline, size: size)
  }

  /// `timeline` as drawn on a `size` picture, as ``timelineParts(_:size:)-(Look,_)`` says.
  static func timelineParts(_ timeline: Timeline, size: HVTFrameSize) -> (
    inside: [HVTRect], outside: [HVTRect], handles: [HVTRect], playhead: HVTRect?
  ) {
    let bar = timelineBar(size: size)
    let playheadX = place(of: timeline.playhead, on: timeline, size: size)
    let playheadWidth = max(2, size.width / 320)
    let playhead = HVTRect(
      x: playheadX - playheadWidth / 2, y: bar.y - bar.height / 2, width: playheadWidth, height: 2 * bar.height)
    guard let trim = timeline.trim else { return ([bar], [], [], playhead) }
    let (start, end) = (
      place(of: trim.lowerBound, on: timeline, size: size), place(of: trim.upperBound, on: timeline, size: size)
    )
    let inside = HVTRect(x: start, y: bar.y, width: max(1, end - start), height: bar.height)
    let outside = [
      HVTRect(x: bar.x, y: bar.y, width: start - bar.x, height: bar.height),
      HVTRect(x: end, y: bar.y, width: bar.x + bar.width - end, height: bar.height),
    ].filter { $0.width > 0 }
    let handle = max(4, size.width / 160)
    let handles = [start, end].map {
      HVTRect(x: $0 - handle / 2, y: bar.y - bar.height, width: handle, height: 3 * bar.height)
    }
    return ([inside], outside, handles, playhead)
  }

  /// What a press of the button at (`x`, `y`) on a movie's timeline does: grabs the trim handle within
  /// reach (the nearer one), else puts the playhead at the time under it; `nil` off the timeline.
  package static func timelineTarget(at x: Double, _ y: Double, size: HVTFrameSize, look: Look) -> TimelineTarget? {
    look.review?.timeline.flatMap { timelineTarget(at: x, y, size: size, timeline: $0) }
  }

  /// What a press of the button at (`x`, `y`) on `timeline`, drawn on a `size` picture, does, as
  /// ``timelineTarget(at:_:size:look:)`` says.
  package static func timelineTarget(at x: Double, _ y: Double, size: HVTFrameSize, timeline: Timeline)
    -> TimelineTarget?
  {
    let bar = timelineBar(size: size)
    let reach = Double(max(8, size.width / 80))
    guard y >= Double(bar.y - 2 * bar.height), y < Double(bar.y + 3 * bar.height),
      x >= Double(bar.x) - reach, x < Double(bar.x + bar.width) + reach
    else { return nil }
    if let trim = timeline.trim {
      let distances = [Handle.start: trim.lowerBound, .end: trim.upperBound].mapValues {
        abs(Double(place(of: $0, on: timeline, size: size)) - x)
      }
      if let (handle, distance) = distances.min(by: { $0.value < $1.value }), distance <= reach {
        return .handle(handle)
      }
    }
    return .time(time(at: x, on: timeline, size: size))
  }

  /// The time on `timeline` at the horizontal place `x` of a `size` picture, kept on the movie.
  package static func time(at x: Double, on timeline: Timeline, size: HVTFrameSize) -> Double {
    let bar = timelineBar(size: size)
    return min(1, max(0, (x - Double(bar.x)) / Double(bar.width))) * timeline.duration
  }

  /// What a press on a movie's timeline is for.
  package enum TimelineTarget: Equatable {
    /// A trim handle, to drag.
    case handle(Handle)
    /// A time, for the playhead.
    case time(Double)
  }

  /// The bottom left button's label: Retake on the review, Pause or Resume while recording, else Cancel.
  private static func leftLabel(_ look: Look) -> String {
    if look.review != nil { return "Retake" }
    if look.recording != nil { return look.paused ? "Resume" : "Pause" }
    return "Cancel"
  }

  /// What a key asks for on a movie's review screen, besides Use, Retake and Cancel.
  package static func movieAction(key: String, editing: Bool) -> Action? {
    switch key {
    case "Left", "KP_Left": return .movePlayhead(seconds: -1)
    case "Right", "KP_Right": return .movePlayhead(seconds: 1)
    case "comma": return .stepFrames(-1)
    case "period": return .stepFrames(1)
    case "Home", "KP_Home": return .movePlayhead(seconds: -.infinity)
    case "End", "KP_End": return .movePlayhead(seconds: .infinity)
    case "bracketleft" where editing: return .trimAtPlayhead(.start)
    case "bracketright" where editing: return .trimAtPlayhead(.end)
    default: return nil
    }
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
  package static func action(clickAt x: Double, _ y: Double, size: HVTFrameSize, look: Look) -> Action? {
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
  /// review screen Enter Use and `r` Retake; on a photo's, when editing, the arrows move the crop box and
  /// `+`/`-` scale it; on a movie's, Left and Right move the playhead by a second, `,` and `.` by a frame,
  /// Home and End to the first and last frames, and, when editing, `[` and `]` put the trim's start and
  /// end at the playhead.
  package static func action(key: String, look: Look, size: HVTFrameSize) -> Action? {
    let step = max(2, min(size.width, size.height) / 20)
    if let review = look.review {
      switch key {
      case "Return", "KP_Enter": return .use
      case "r", "R": return .retake
      case "Escape": return .cancel
      default: break
      }
      if let timeline = review.timeline { return movieAction(key: key, editing: timeline.trim != nil) }
      guard review.crop != nil else { return nil }
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

extension HVTCameraFlashMode {
  /// `Auto`, `On` or `Off`.
  package var label: String {
    switch self {
    case .auto: "Auto"
    case .on: "On"
    case .off: "Off"
    }
  }

  /// The next mode a press of the flash button chooses: auto, on, off, auto…
  package var next: Self {
    switch self {
    case .auto: .on
    case .on: .off
    case .off: .auto
    }
  }
}

extension HVTCameraCaptureMode {
  /// `Photo` or `Video`.
  package var label: String { self == .photo ? "Photo" : "Video" }
}
