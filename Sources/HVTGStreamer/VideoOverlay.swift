import CGStreamer

extension Element {
  /// Whether the element draws into a window an application can give it (`GstVideoOverlay`:
  /// `xvimagesink`, `ximagesink`, `glimagesink`, `waylandsink`). Wraps `GST_IS_VIDEO_OVERLAY`.
  public var isVideoOverlay: Bool { hvt_gst_is_video_overlay(pointer) != 0 }

  /// Makes the sink draw into the application's native window (an X11 window id; for `waylandsink`, a
  /// `wl_surface` pointer, on the display ``setWaylandDisplay(_:)`` shares) instead of opening its own.
  /// Set it before the sink reaches READY. Does nothing for an element that is no video overlay.
  /// Wraps `gst_video_overlay_set_window_handle`.
  public func setWindowHandle(_ handle: UInt) {
    guard isVideoOverlay else { return }
    gst_video_overlay_set_window_handle(hvt_gst_video_overlay(pointer), guintptr(handle))
  }

  /// Confines the picture to a rectangle of the window (after the application's widget moved or was
  /// resized); a width and height of -1 fill the window. Returns false when the sink refuses it.
  /// Wraps `gst_video_overlay_set_render_rectangle`.
  @discardableResult
  public func setRenderRectangle(x: Int, y: Int, width: Int, height: Int) -> Bool {
    guard isVideoOverlay else { return false }
    return gst_video_overlay_set_render_rectangle(
      hvt_gst_video_overlay(pointer), gint(x), gint(y), gint(width), gint(height)) != 0
  }

  /// Redraws the last frame (after the application's window was exposed). Wraps
  /// `gst_video_overlay_expose`.
  public func expose() {
    guard isVideoOverlay else { return }
    gst_video_overlay_expose(hvt_gst_video_overlay(pointer))
  }

  /// Shares the application's Wayland connection (a `wl_display` pointer) with `waylandsink`, which then
  /// makes its surfaces on it (subsurfaces of the one ``setWindowHandle(_:)`` gives) instead of connecting
  /// by itself. Set it before the sink reaches READY; the display must outlive the sink's use of it (until
  /// it is back in NULL). The context's type is `GstWlDisplayHandleContextType` with a `display` pointer,
  /// which `waylandsink` 1.22 reads and 1.24 and later still take (their own type is
  /// `GstWaylandDisplayHandleContextType`). Wraps `gst_element_set_context`.
  public func setWaylandDisplay(_ display: UnsafeMutableRawPointer) {
    let context = hvt_gst_display_pointer_context_new("GstWlDisplayHandleContextType", display)
    gst_element_set_context(pointer, context)
    gst_context_unref(context)
  }
}
