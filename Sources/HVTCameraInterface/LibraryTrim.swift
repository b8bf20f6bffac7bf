import Foundation
import HVTCameraCore

/// The library window's trim screen (``HVTLibraryWindow`` with movie editing): a picked movie's frame at
/// the playhead, over its timeline with the trim handles, which the user moves before choosing it, as
/// `UIImagePickerController` trims a movie picked from the library with `allowsEditing`. The timeline,
/// its keys and its clicks are the movie review's (``CameraControls/Timeline``); Return chooses the
/// trimmed movie and Escape goes back to the grid. Pure: the window draws and acts on what it says.
package struct LibraryTrim: Sendable, Equatable {
  /// The index of the movie in the window's items.
  package let index: Int
  /// The movie's timeline, with its trim.
  package var timeline: CameraControls.Timeline

  /// What a key or click asks for.
  package enum Action: Equatable {
    /// A change of the timeline: a move of its playhead or of a handle (``CameraControls/Action``).
    case timeline(CameraControls.Action)
    /// Grabs a trim handle, which the pointer then drags.
    case grab(CameraControls.Handle)
    /// Chooses the movie, cut to the trim.
    case choose
    /// Back to the grid, nothing chosen.
    case back
  }

  /// The trim screen of item `index`, a movie `duration` seconds long with a frame every
  /// `frameInterval` seconds, its trim at most `limit` seconds long: at first from its first frame to
  /// its end, or to the limit.
  package init(index: Int, duration: Double, frameInterval: Double, limit: Double) {
    self.index = index
    timeline = CameraControls.Timeline(duration: duration, frameInterval: frameInterval, limit: limit, editing: true)
  }

  /// Where the movie's frame is shown on the canvas: above the timeline, the whole width.
  package static var pictureBox: HVTFrameSize {
    let bar = CameraControls.timelineBar(size: LibraryGrid.canvas)
    return HVTFrameSize(width: LibraryGrid.canvas.width, height: (bar.y - 2 * bar.height) / 2 * 2)
  }

  /// What the key named `key` (an X keysym name) does: Return, the keypad's Enter and space choose,
  /// Escape goes back; the others are the movie review's (Left and Right a second, `,` and `.` a frame,
  /// Home and End, `[` and `]` the trim's ends at the playhead).
  package func action(key: String) -> Action? {
    switch key {
    case "Return", "KP_Enter", "space": return .choose
    case "Escape": return .back
    default: return CameraControls.movieAction(key: key, editing: true).map { .timeline($0) }
    }
  }

  /// What a press of the left button at (`x`, `y`) of the canvas does: on the timeline, grabs the
  /// handle within reach or puts the playhead there; elsewhere nothing.
  package func action(pressAtX x: Double, y: Double) -> Action? {
    switch CameraControls.timelineTarget(at: x, y, size: LibraryGrid.canvas, timeline: timeline) {
    case .handle(let handle): .grab(handle)
    case .time(let time): .timeline(.seek(time))
    case nil: nil
    }
  }

  /// Drags `handle` to the place `x` of the canvas; the playhead shows its frame.
  package mutating func drag(_ handle: CameraControls.Handle, toX x: Double) {
    timeline.drag(handle, to: CameraControls.time(at: x, on: timeline, size: LibraryGrid.canvas))
  }

  /// `0:01.20–0:03.40 (2.20 s of 5.00 s) · playhead 0:01.20`.
  package var summary: String {
    let trim = timeline.trim ?? 0...timeline.duration
    return "\(Self.clock(trim.lowerBound))–\(Self.clock(trim.upperBound)) "
      + "(\(Self.seconds(trim.upperBound - trim.lowerBound)) of \(Self.seconds(timeline.duration))) · "
      + "playhead \(Self.clock(timeline.playhead))"
  }

  /// `M:SS.hh`.
  static func clock(_ time: Double) -> String {
    let time = max(0, time)
    return String(format: "%d:%05.2f", Int(time / 60), time.truncatingRemainder(dividingBy: 60))
  }

  /// `2.20 s`.
  static func seconds(_ time: Double) -> String { String(format: "%.2f s", max(0, time)) }
}
