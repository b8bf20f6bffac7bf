import HVTGStreamer

/// A key or mouse action in the preview's window (a `GstNavigation` event from the video sink), as
/// ``HVTCameraEvent/navigation(_:)`` hands it to an app that draws its own controls. Coordinates are in
/// the pixels of the shown picture.
public enum HVTNavigationEvent: Sendable, Hashable {
  /// A key went down; `key` is its X keysym name (`space`, `Escape`, `Return`, `a`, `Left`).
  case keyPress(key: String)
  /// A key went up.
  case keyRelease(key: String)
  /// A mouse button went down; button 1 is the left one.
  case mouseButtonPress(button: Int, x: Double, y: Double)
  /// A mouse button went up.
  case mouseButtonRelease(button: Int, x: Double, y: Double)
  /// The pointer moved.
  case mouseMove(x: Double, y: Double)
  /// The wheel turned by (`deltaX`, `deltaY`).
  case scroll(x: Double, y: Double, deltaX: Double, deltaY: Double)

  init(_ event: NavigationEvent) {
    switch event {
    case .keyPress(let key): self = .keyPress(key: key)
    case .keyRelease(let key): self = .keyRelease(key: key)
    case .mouseButtonPress(let button, let x, let y): self = .mouseButtonPress(button: button, x: x, y: y)
    case .mouseButtonRelease(let button, let x, let y): self = .mouseButtonRelease(button: button, x: x, y: y)
    case .mouseMove(let x, let y): self = .mouseMove(x: x, y: y)
    case .scroll(let x, let y, let dx, let dy): self = .scroll(x: x, y: y, deltaX: dx, deltaY: dy)
    }
  }
}
