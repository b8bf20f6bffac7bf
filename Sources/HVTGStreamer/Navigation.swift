import CGStreamer

/// A key or mouse action in a video sink's window, sent upstream by the sink as a `GstNavigation` event
/// (`xvimagesink`, `ximagesink`, `glimagesink`, `waylandsink`). Pointer coordinates are in the pixels of
/// the video where the event is seen: each element upstream translates them (`videoscale` scales them,
/// `videoflip` turns them, `videocrop` moves them).
public enum NavigationEvent: Sendable, Hashable {
  /// A key went down; `key` is its X keysym name (`space`, `Escape`, `Return`, `a`, `Left`, `KP_Add`).
  case keyPress(key: String)
  /// A key went up.
  case keyRelease(key: String)
  /// A mouse button went down at (`x`, `y`); button 1 is the left one.
  case mouseButtonPress(button: Int, x: Double, y: Double)
  /// A mouse button went up at (`x`, `y`).
  case mouseButtonRelease(button: Int, x: Double, y: Double)
  /// The pointer moved to (`x`, `y`).
  case mouseMove(x: Double, y: Double)
  /// The wheel turned at (`x`, `y`) by (`deltaX`, `deltaY`); a negative `deltaY` is away from the user.
  case scroll(x: Double, y: Double, deltaX: Double, deltaY: Double)

  /// Parses a navigation event; `nil` for kinds not listed here (touch, commands). Wraps
  /// `gst_navigation_event_get_type` and `gst_navigation_event_parse_*`.
  init?(_ event: UnsafeMutablePointer<GstEvent>) {
    var key: UnsafePointer<gchar>?
    var button: gint = 0
    var (x, y, dx, dy): (gdouble, gdouble, gdouble, gdouble) = (0, 0, 0, 0)
    switch gst_navigation_event_get_type(event) {
    case GST_NAVIGATION_EVENT_KEY_PRESS where gst_navigation_event_parse_key_event(event, &key) != 0:
      self = .keyPress(key: key.map { String(cString: $0) } ?? "")
    case GST_NAVIGATION_EVENT_KEY_RELEASE where gst_navigation_event_parse_key_event(event, &key) != 0:
      self = .keyRelease(key: key.map { String(cString: $0) } ?? "")
    case GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS
    where gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0:
      self = .mouseButtonPress(button: Int(button), x: x, y: y)
    case GST_NAVIGATION_EVENT_MOUSE_BUTTON_RELEASE
    where gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0:
      self = .mouseButtonRelease(button: Int(button), x: x, y: y)
    case GST_NAVIGATION_EVENT_MOUSE_MOVE where gst_navigation_event_parse_mouse_move_event(event, &x, &y) != 0:
      self = .mouseMove(x: x, y: y)
    case GST_NAVIGATION_EVENT_MOUSE_SCROLL
    where gst_navigation_event_parse_mouse_scroll_event(event, &x, &y, &dx, &dy) != 0:
      self = .scroll(x: x, y: y, deltaX: dx, deltaY: dy)
    default:
      return nil
    }
  }
}

extension Pad {
  /// Sends `event` upstream from this pad, as a video sink sends a key or click in its window from its
  /// input: for a window the application draws itself, whose input reaches it and not the sink. Returns
  /// whether an element took it. Wraps `gst_pad_push_event` with `gst_navigation_event_new_key_press` (and
  /// `_key_release`, `_mouse_button_press`, `_mouse_button_release`, `_mouse_move`, `_mouse_scroll`).
  @discardableResult
  public func pushNavigation(_ event: NavigationEvent) -> Bool {
    let none = GstNavigationModifierType(rawValue: 0)
    let made: UnsafeMutablePointer<GstEvent>? =
      switch event {
      case .keyPress(let key): gst_navigation_event_new_key_press(key, none)
      case .keyRelease(let key): gst_navigation_event_new_key_release(key, none)
      case .mouseButtonPress(let button, let x, let y):
        gst_navigation_event_new_mouse_button_press(gint(button), x, y, none)
      case .mouseButtonRelease(let button, let x, let y):
        gst_navigation_event_new_mouse_button_release(gint(button), x, y, none)
      case .mouseMove(let x, let y): gst_navigation_event_new_mouse_move(x, y, none)
      case .scroll(let x, let y, let deltaX, let deltaY):
        gst_navigation_event_new_mouse_scroll(x, y, deltaX, deltaY, none)
      }
    guard let made else { return false }
    return gst_pad_push_event(pointer, made) != 0
  }
}
