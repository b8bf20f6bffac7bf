/// Where the live preview goes (``HVTCameraController/previewOutput``). Switching it on a presented camera
/// replaces the preview branch behind the tee; the source, photos and recordings go on.
public enum HVTPreviewOutput: Sendable, Equatable, CustomStringConvertible {
  /// The camera interface where there is one to show (the default): the preset's own preview sink when
  /// it names one other than `fakesink`; else a window of its own (``window(title:)``, with the default
  /// controls) when the process has a display (`WAYLAND_DISPLAY` or `DISPLAY`); else nowhere, as
  /// ``none``, so that a service or a test without a display runs headless with no error. A display that
  /// is named but cannot be opened is an error (``HVTCameraError/noDisplay(reason:)``), not a reason to
  /// run headless.
  case automatic
  /// The preset's preview sink (`fakesink` in the built-in presets).
  case preset
  /// Nowhere (`fakesink`): headless capture, services, tests.
  case none
  /// A window of its own, titled `title` (default "HVTCamera"), on the display the process has:
  /// `waylandsink`, `xvimagesink`, `ximagesink` or `glimagesink`, the first that opens it; without a
  /// display, ``HVTCameraError/noDisplay(reason:)``. The title reaches the X11 sinks as a tag
  /// (`taginject`); on Wayland the engine opens the window itself (an `xdg_toplevel`, titled, whose keys
  /// and clicks it hands to the sink's input) and `waylandsink` draws into it.
  case window(title: String? = nil)
  /// Into the application's own X11 window, by its id (`gdk_x11_window_get_xid`, Qt's `winId()`, SDL's
  /// `SDL_SysWMinfo.info.x11.window`), through `GstVideoOverlay` (`xvimagesink`, `glimagesink` or
  /// `ximagesink`, the sinks that scale the picture to the window first). After
  /// the app's widget moves or is resized, call ``HVTCameraController/setPreviewRectangle(_:)``.
  case embedded(windowHandle: UInt)
  /// Into the application's own Wayland surface: `waylandsink` draws a subsurface of `surface` (a
  /// `wl_surface` pointer: GTK 3's `gdk_wayland_window_get_wl_surface`, SDL 2's
  /// `SDL_SysWMinfo.info.wl.surface`) on the application's own connection to the compositor (`display`, its
  /// `wl_display` pointer: `gdk_wayland_display_get_wl_display`, `info.wl.display`), which the sink takes
  /// through its display-handle `GstContext` (`GstWlDisplayHandleContextType`), within `rectangle` of the
  /// surface (``HVTCameraController/setPreviewRectangle(_:)`` moves it). The sink's subsurface is placed at
  /// the surface's next commit, as Wayland places subsurfaces: commit it after the camera is presented and
  /// after each move (a toolkit does when it redraws). The sink's surfaces take no
  /// input: the app's widget keeps its keys and clicks, and the default controls are not drawn. Keep the
  /// connection and the surface until the controller is released: the sink holds them until it is
  /// finalized, not only until the camera stops.
  case waylandSurface(display: UInt, surface: UInt, rectangle: HVTRect)
  /// Into a GTK 4 app's widgets: `gtk4paintablesink` (gst-plugins-rs; Debian 13 and later package it as
  /// `gstreamer1.0-gtk4`) draws each frame into its `GdkPaintable`, which `handler` receives, on GTK's main
  /// thread, once the sink is ready (when the camera is presented, and again for each new preview: after
  /// ``HVTCameraController/previewOutput`` is set anew, or the preview is rebuilt). Show it with
  /// `gtk_picture_set_paintable` (or `gtk_image_set_from_paintable`, or draw it in a widget's snapshot with
  /// `gdk_paintable_snapshot`); the picture keeps its aspect ratio within the widget.
  ///
  /// The sink does its work on GLib's default main context, from its own threads, and waits for it: call
  /// `gtk_init` and run GTK's main loop (`g_application_run`, or `g_main_loop_run` on the default context)
  /// before the camera is presented and as long as it is, and never block that loop's thread on the
  /// controller (await its `async` calls, or use the non-waiting ones). Without a running loop, presenting
  /// fails with ``HVTCameraError/noDisplay(reason:)``; without the element (Debian 12 packages none), with
  /// ``HVTCameraError/noInstalledCandidate(slot:candidates:hint:)`` naming `gstreamer1.0-gtk4`.
  ///
  /// The handler borrows the paintable: it is valid while the handler runs, and the sink keeps its own
  /// reference until it is finalized. A widget it is given to takes a reference of its own; to keep it
  /// otherwise, `g_object_ref` it and `g_object_unref` it on GTK's thread. It takes no input and the default
  /// controls are not drawn: the app's widgets keep its keys and clicks.
  case gtk4Paintable(handler: @Sendable (HVTGdkPaintable) -> Void)
  /// Every preview frame to `handler`, converted to `format`, through an `appsink` (`max-buffers=1
  /// drop=true`): a handler slower than the camera loses frames, never delays the camera or a capture.
  /// The handler runs on a serial queue of its own, one frame at a time; frames that arrive while it
  /// runs replace each other, and it gets the newest when it returns.
  case frames(format: HVTPreviewFrame.Format, handler: @Sendable (HVTPreviewFrame) -> Void)

  /// Outputs are equal when they show the same thing the same way; two `.frames` or `.gtk4Paintable`
  /// outputs never are (each has its own handler), so setting one always installs it.
  public static func == (lhs: HVTPreviewOutput, rhs: HVTPreviewOutput) -> Bool {
    switch (lhs, rhs) {
    case (.automatic, .automatic), (.preset, .preset), (.none, .none): true
    case (.window(let a), .window(let b)): a == b
    case (.embedded(let a), .embedded(let b)): a == b
    case (.waylandSurface(let a, let b, let c), .waylandSurface(let x, let y, let z)): a == x && b == y && c == z
    default: false
    }
  }

  /// `automatic`, `preset`, `none`, `window`, `embedded` (in an X11 window or a Wayland surface), `GTK 4
  /// paintable` or `frames`, with their values.
  public var description: String {
    switch self {
    case .automatic: "automatic"
    case .preset: "preset"
    case .none: "none"
    case .window(let title): "window" + (title.map { " \"\($0)\"" } ?? "")
    case .embedded(let handle): "embedded in window 0x\(String(handle, radix: 16))"
    case .waylandSurface(_, let surface, let rectangle):
      "embedded in Wayland surface 0x\(String(surface, radix: 16)) at \(rectangle.x),\(rectangle.y) "
        + "\(rectangle.width)x\(rectangle.height)"
    case .gtk4Paintable: "GTK 4 paintable"
    case .frames(let format, _): "frames (\(format.rawValue))"
    }
  }

  /// Whether the preview is drawn in the app's own window or surface.
  package var isEmbedded: Bool {
    switch self {
    case .embedded, .waylandSurface, .gtk4Paintable: true
    case .automatic, .preset, .none, .window, .frames: false
    }
  }

  /// Whether the preview is drawn in a window, where the default controls are shown and clicked
  /// (for ``automatic``, resolve it first).
  package var hasWindow: Bool {
    switch self {
    case .window, .embedded: true
    case .automatic, .preset, .none, .frames, .waylandSurface, .gtk4Paintable: false
    }
  }

}

/// The `GdkPaintable *` of a `gtk4paintablesink`, handed to the app by
/// ``HVTPreviewOutput/gtk4Paintable(handler:)`` on GTK's main thread: pass ``pointer`` to GTK 4, e.g.
/// `gtk_picture_set_paintable(picture, OpaquePointer(paintable.pointer))` from Swift, or in C
/// `gtk_picture_set_paintable (picture, GDK_PAINTABLE (pointer))`. Borrowed: valid while the handler
/// runs (a widget given it takes a reference of its own); use it on GTK's main thread only.
public struct HVTGdkPaintable: @unchecked Sendable, Hashable {  // An address: used on GTK's thread only.
  /// The `GdkPaintable *` (the sink's `paintable` property, a `GstGtk4Paintable`).
  public let pointer: UnsafeMutableRawPointer

  /// Wraps a `GdkPaintable *`.
  public init(pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// One preview frame handed to the app by ``HVTPreviewOutput/frames(format:handler:)``.
public struct HVTPreviewFrame: Sendable {
  /// The pixel formats the app can ask for.
  public enum Format: String, Sendable, CaseIterable {
    /// 8-bit red, green, blue, alpha, in that byte order.
    case rgba = "RGBA"
    /// 8-bit blue, green, red and a padding byte.
    case bgrx = "BGRx"
    /// Planar 4:2:0 YUV: the luma plane, then the two quarter-size chroma planes.
    case i420 = "I420"
  }

  /// The format of ``bytes``.
  public var format: Format
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bytes from one row of the first plane to the next.
  public var stride: Int
  /// The frame's timestamp: running time on the pipeline's clock, in seconds.
  public var timestamp: Double
  /// The pixels (every plane, one after the other, for I420).
  public var bytes: [UInt8]

  /// Each stored property, as a memberwise initializer takes them.
  package init(format: Format, width: Int, height: Int, stride: Int, timestamp: Double, bytes: [UInt8]) {
    self.format = format
    self.width = width
    self.height = height
    self.stride = stride
    self.timestamp = timestamp
    self.bytes = bytes
  }
}
