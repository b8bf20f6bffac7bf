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
  /// Every preview frame to `handler`, converted to `format`, through an `appsink` (`max-buffers=1
  /// drop=true`): a handler slower than the camera loses frames, never delays the camera or a capture.
  /// The handler runs on a serial queue of its own, one frame at a time; frames that arrive while it
  /// runs replace each other, and it gets the newest when it returns.
  case frames(format: HVTPreviewFrame.Format, handler: @Sendable (HVTPreviewFrame) -> Void)

  /// Outputs are equal when they show the same thing the same way; two `.frames` outputs never are (each
  /// has its own handler), so setting one always installs it.
  public static func == (lhs: HVTPreviewOutput, rhs: HVTPreviewOutput) -> Bool {
    switch (lhs, rhs) {
    case (.automatic, .automatic), (.preset, .preset), (.none, .none): true
    case (.window(let a), .window(let b)): a == b
    case (.embedded(let a), .embedded(let b)): a == b
    case (.waylandSurface(let a, let b, let c), .waylandSurface(let x, let y, let z)): a == x && b == y && c == z
    default: false
    }
  }

  /// `automatic`, `preset`, `none`, `window`, `embedded` (in an X11 window or a Wayland surface) or `frames`,
  /// with their values.
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
    case .frames(let format, _): "frames (\(format.rawValue))"
    }
  }

  /// Whether the preview is drawn in the app's own window or surface.
  var isEmbedded: Bool {
    switch self {
    case .embedded, .waylandSurface: true
    case .automatic, .preset, .none, .window, .frames: false
    }
  }

  /// Whether the preview is drawn in a window, where the default controls are shown and clicked
  /// (for ``automatic``, resolve it first).
  var hasWindow: Bool {
    switch self {
    case .window, .embedded: true
    case .automatic, .preset, .none, .frames, .waylandSurface: false
    }
  }

  /// What the output stands for: ``automatic`` as its rule says for a preset whose preview slot is
  /// `presetPreview` and a process with `environment`; any other output itself.
  func resolved(presetPreview: HVTElementSlot, environment: [String: String]) -> HVTPreviewOutput {
    guard case .automatic = self else { return self }
    if presetPreview.candidates.contains(where: { $0.factory != "fakesink" }) { return .preset }
    return WindowSink.candidates(environment: environment).isEmpty ? .none : .window()
  }
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
}
