import HVTGStreamer

/// A key or mouse action in the preview's window (a `GstNavigation` event from the video sink), as
/// ``HVTCameraEvent/navigation(_:)`` hands it to an app that draws its own controls: `keyPress(key:)`
/// with the X keysym name (`space`, `Escape`, `Return`, `Left`), mouse buttons, motion and the wheel,
/// in the pixels of the shown picture.
public typealias HVTNavigationEvent = NavigationEvent
