import HVTCameraCore
import CWayland
import Dispatch
import Foundation
import Glibc
import HVTGStreamer
import HVTSupport

/// A window of HVTCamera's own on a Wayland compositor, for a ``HVTPreviewOutput/window(title:)``
/// preview on `waylandsink`, whose own window has no title and takes no keys or clicks (GStreamer 1.22 to
/// 1.26 set neither, and send no `GstNavigation` events). It is an `xdg_toplevel`, titled as the preview
/// asks, on a connection the sink shares (`Element.setWaylandDisplay(_:)`); the sink draws into its
/// surface (`Element.setWindowHandle(_:)`, the whole window as the render rectangle) as a subsurface whose
/// input region is empty, so every key and click reaches the window, which hands them to the sink's input
/// as navigation events (`WaylandWindow+Input`), where the default controls read them. Closing it posts
/// the error the X11 sinks post for a closed window.
///
/// The sink owns it: it lives, and its thread reads the compositor's events, until the sink is finalized
/// (`waylandsink` keeps an embedding window's display and subsurfaces until then, not only until NULL),
/// and then closes, ending the connection. After ``open(title:size:sink:)``, every Wayland object is used
/// on the window's thread only.
///
/// `@unchecked Sendable`: the Wayland state is confined to the window's thread (asserted in debug builds).
package final class WaylandWindow: @unchecked Sendable {
  let display: OpaquePointer
  /// The sink's input, where keys and clicks go, and whose caps give the picture's size. (Not the sink,
  /// which it would keep from being finalized.)
  let sinkInput: Pad
  var registry: OpaquePointer?
  var compositor: OpaquePointer?
  var shm: OpaquePointer?
  var seat: OpaquePointer?
  var windowManager: OpaquePointer?
  var surface: OpaquePointer?
  var shellSurface: OpaquePointer?
  var toplevel: OpaquePointer?
  var keyboard: OpaquePointer?
  var pointer: OpaquePointer?
  var keys: KeyNames?
  /// The window's black background, and its size; the size the compositor asked for next.
  var buffer: OpaquePointer?
  package var size: (width: Int, height: Int) = (0, 0)
  var requestedSize: (width: Int, height: Int)
  /// Where the pointer is, in the window's pixels.
  var pointerPosition: (x: Double, y: Double) = (0, 0)
  private var wake: (read: Int32, write: Int32) = (-1, -1)
  private let stopped = DispatchSemaphore(value: 0)
  private var isOpen = false
  /// The thread reading the compositor's events, and whether the sink was finalized on it (the last
  /// reference let go by a key or click it handled): then it closes the window itself once it stops.
  private weak var reader: Thread?
  private var finalizedOnReader = false

  private init(display: OpaquePointer, sinkInput: Pad, size: HVTFrameSize) {
    self.display = display
    self.sinkInput = sinkInput
    requestedSize = (size.width, size.height)
  }

  /// Connects to the compositor of `WAYLAND_DISPLAY`, opens a window titled `title` of `size` (which the
  /// compositor may change: a tiling one fills its tile), and hands its display and surface to `sink`
  /// (`waylandsink`, in NULL), which keeps it until it is finalized. Throws
  /// ``HVTCameraError/noDisplay(reason:)`` without a compositor or one that offers no `xdg_wm_base`.
  /// Wraps `wl_display_connect`, `xdg_wm_base_get_xdg_surface` and `xdg_surface_get_toplevel`.
  package static func open(title: String, size: HVTFrameSize, sink: Element) throws {
    guard let input = sink.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: sink.name, pad: "sink"))
    }
    guard let display = wl_display_connect(nil) else {
      throw HVTCameraError.noDisplay(
        reason: "cannot connect to the Wayland display (\(SystemCallError("wl_display_connect").text))")
    }
    try WaylandWindow(display: display, sinkInput: input, size: size).setUp(title: title, sink: sink)
  }

  /// An unretained pointer to the window, for the listeners' `data` (the window outlives its proxies).
  var listenerData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The window a listener's `data` points to.
  static func from(_ data: UnsafeMutableRawPointer?) -> WaylandWindow? {
    data.map { Unmanaged<WaylandWindow>.fromOpaque($0).takeUnretainedValue() }
  }

  private func setUp(title: String, sink: Element) throws {
    registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, WaylandListeners.registry, listenerData)
    wl_display_roundtrip(display)
    guard let compositor, let windowManager, shm != nil else {
      wl_display_disconnect(display)
      throw HVTCameraError.noDisplay(reason: "the Wayland compositor offers no wl_compositor, wl_shm or xdg_wm_base")
    }
    xdg_wm_base_add_listener(windowManager, WaylandListeners.windowManager, listenerData)
    surface = wl_compositor_create_surface(compositor)
    shellSurface = xdg_wm_base_get_xdg_surface(windowManager, surface)
    xdg_surface_add_listener(shellSurface, WaylandListeners.shellSurface, listenerData)
    toplevel = xdg_surface_get_toplevel(shellSurface)
    xdg_toplevel_add_listener(toplevel, WaylandListeners.toplevel, listenerData)
    xdg_toplevel_set_title(toplevel, title)
    xdg_toplevel_set_app_id(toplevel, "org.hvtcamera.HVTCamera")
    wl_surface_commit(surface)
    // The first configure arrives in this roundtrip: the window is drawn, and mapped, before the sink
    // is given it.
    wl_display_roundtrip(display)
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      let failure = SystemCallError("pipe")
      wl_display_disconnect(display)
      throw HVTCameraError.unexpected(failure.description)
    }
    wake = (ends[0], ends[1])
    sink.setWaylandDisplay(UnsafeMutableRawPointer(display))
    sink.setWindowHandle(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(surface))))
    sink.setRenderRectangle(x: 0, y: 0, width: size.width, height: size.height)
    isOpen = true
    let reader = Thread { [self] in
      readEvents()
      stopped.signal()
      if finalizedOnReader { tearDown() }
    }
    self.reader = reader
    reader.start()
    sink.onFinalize { [self] in close() }
  }

  /// Reads and dispatches the compositor's events until ``close()`` writes to the wake pipe: the
  /// `wl_display_prepare_read` protocol, which lets `waylandsink`'s own thread read its queue meanwhile.
  private func readEvents() {
    let connection = wl_display_get_fd(display)
    while true {
      while wl_display_prepare_read(display) != 0 { wl_display_dispatch_pending(display) }
      wl_display_flush(display)
      var fds = [
        pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, -1)
      guard ready >= 0 || errno == EINTR else {
        wl_display_cancel_read(display)
        return
      }
      if fds[1].revents != 0 {
        wl_display_cancel_read(display)
        return
      }
      if fds[0].revents & Int16(POLLIN) != 0 {
        guard wl_display_read_events(display) == 0 else { return }
      } else {
        wl_display_cancel_read(display)
      }
      guard wl_display_dispatch_pending(display) >= 0, !finalizedOnReader else { return }
    }
  }

  /// A configure of the window: acknowledged, then the window drawn at the size asked (or its own, when
  /// the compositor leaves it free), and the sink's render rectangle set to it. Wraps
  /// `xdg_surface_ack_configure`, `wl_surface_attach` and `wl_surface_commit`.
  func configure(serial: UInt32) {
    assertOnWindowThread()
    xdg_surface_ack_configure(shellSurface, serial)
    let wanted = requestedSize
    if wanted != size || buffer == nil, let drawn = Self.blackBuffer(shm, width: wanted.width, height: wanted.height) {
      wl_surface_attach(surface, drawn, 0, 0)
      wl_surface_damage(surface, 0, 0, Int32(wanted.width), Int32(wanted.height))
      if let buffer { wl_buffer_destroy(buffer) }
      buffer = drawn
      size = wanted
      if isOpen { sinkInput.parentElement?.setRenderRectangle(x: 0, y: 0, width: wanted.width, height: wanted.height) }
    }
    wl_surface_commit(surface)
  }

  /// A black `width` × `height` XRGB buffer in shared memory (zeroed pages). Wraps `wl_shm_create_pool`
  /// and `wl_shm_pool_create_buffer`.
  private static func blackBuffer(_ shm: OpaquePointer?, width: Int, height: Int) -> OpaquePointer? {
    let stride = width * 4
    let fd = hvt_wl_shared_memory("hvtcamera-window", stride * height)
    guard fd >= 0, width > 0, height > 0 else { return nil }
    defer { Glibc.close(fd) }
    let pool = wl_shm_create_pool(shm, fd, Int32(stride * height))
    defer { wl_shm_pool_destroy(pool) }
    return wl_shm_pool_create_buffer(
      pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_XRGB8888.rawValue)
  }

  /// Traps in debug builds unless called on the window's thread, or before it started (by `setUp`).
  func assertOnWindowThread() {
    assert(reader == nil || Thread.current === reader, "Wayland state used off the window's thread")
  }

  /// Stops the window's thread, destroys the window and ends the connection, once the sink is finalized.
  /// Wraps `wl_display_disconnect`.
  private func close() {
    guard isOpen else { return }
    isOpen = false
    if Thread.current === reader {
      finalizedOnReader = true
      return
    }
    var byte: UInt8 = 0
    _ = write(wake.write, &byte, 1)
    stopped.wait()
    tearDown()
  }

  /// Destroys the window and ends the connection, the reading thread stopped.
  private func tearDown() {
    Glibc.close(wake.read)
    Glibc.close(wake.write)
    releaseInput()
    if let toplevel { xdg_toplevel_destroy(toplevel) }
    if let shellSurface { xdg_surface_destroy(shellSurface) }
    if let surface { wl_surface_destroy(surface) }
    if let buffer { wl_buffer_destroy(buffer) }
    if let windowManager { xdg_wm_base_destroy(windowManager) }
    if let seat { wl_seat_destroy(seat) }
    if let shm { wl_shm_destroy(shm) }
    if let compositor { wl_compositor_destroy(compositor) }
    if let registry { wl_registry_destroy(registry) }
    wl_display_disconnect(display)
  }
}
