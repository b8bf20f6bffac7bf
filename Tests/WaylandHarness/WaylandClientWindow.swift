import CWayland
import Foundation
import Glibc
import HVTSupport
import MediaInspection

/// A small Wayland client of the test's own, standing for an app that embeds the camera: a toplevel
/// window on a ``PrivateCompositor``, titled, filled with one grey (`0x808080`), whose connection
/// (`wl_display`) and surface (`wl_surface`) the test hands to HVTCamera as the app would. A thread of its
/// own answers the compositor (pings, configures) until the compositor stops; its connection is never
/// closed before (a sink drawing into the surface holds it until the sink is finalized).
public final class WaylandClientWindow: @unchecked Sendable {  // Set up in init; then used on its thread only.
  /// The grey the window is filled with, as `RGBImage` reads it.
  public static let grey: (r: UInt8, g: UInt8, b: UInt8) = (0x80, 0x80, 0x80)
  private let display: OpaquePointer
  private var compositor: OpaquePointer?
  private var shm: OpaquePointer?
  private var windowManager: OpaquePointer?
  private var surface: OpaquePointer?
  private var shellSurface: OpaquePointer?
  private var toplevel: OpaquePointer?
  private var buffer: OpaquePointer?
  private var size: (width: Int, height: Int)

  /// The `wl_display` pointer, as an app hands it to ``HVTPreviewOutput``.
  public var displayHandle: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display))) }
  /// The `wl_surface` pointer of the window.
  public var surfaceHandle: UInt { surface.map { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) } ?? 0 }

  /// Connects to `compositor` (its socket, by path), opens the window titled `title` and waits until the
  /// compositor configured it and it is drawn.
  public init(on compositor: PrivateCompositor, title: String) throws {
    let path = compositor.directory.appendingPathComponent(compositor.display).path
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard fd >= 0, connected == 0, let display = wl_display_connect_to_fd(fd) else {
      throw TestFailure("cannot connect to the compositor at \(path): \(SystemCallError("connect").text)")
    }
    self.display = display
    size = (compositor.width, compositor.height)
    let registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, Self.registryListener, Unmanaged.passUnretained(self).toOpaque())
    wl_display_roundtrip(display)
    guard let compositor = self.compositor, let windowManager else {
      throw TestFailure("the compositor offers no wl_compositor or xdg_wm_base")
    }
    xdg_wm_base_add_listener(windowManager, Self.windowManagerListener, nil)
    surface = wl_compositor_create_surface(compositor)
    shellSurface = xdg_wm_base_get_xdg_surface(windowManager, surface)
    xdg_surface_add_listener(shellSurface, Self.shellSurfaceListener, Unmanaged.passUnretained(self).toOpaque())
    toplevel = xdg_surface_get_toplevel(shellSurface)
    xdg_toplevel_set_title(toplevel, title)
    wl_surface_commit(surface)
    wl_display_roundtrip(display)
    guard buffer != nil else { throw TestFailure("the compositor did not configure the window") }
    Thread.detachNewThread { [self] in
      while wl_display_dispatch(self.display) >= 0 {}
    }
  }

  /// Commits the window's surface, as a toolkit does when it redraws: the subsurfaces' new places (a
  /// sink's render rectangle) take effect at their parent's commit.
  public func commit() {
    wl_surface_commit(surface)
    wl_display_flush(display)
  }

  /// Binds the compositor, shared memory and the window manager.
  private func bind(_ registry: OpaquePointer?, name: UInt32, interface: String) {
    switch interface {
    case "wl_compositor": compositor = OpaquePointer(wl_registry_bind(registry, name, hvt_wl_compositor_interface(), 1))
    case "wl_shm": shm = OpaquePointer(wl_registry_bind(registry, name, hvt_wl_shm_interface(), 1))
    case "xdg_wm_base": windowManager = OpaquePointer(wl_registry_bind(registry, name, hvt_xdg_wm_base_interface(), 1))
    default: break
    }
  }

  /// Acknowledges a configure and draws the window grey, once.
  private func configure(serial: UInt32) {
    xdg_surface_ack_configure(shellSurface, serial)
    if buffer == nil {
      let stride = size.width * 4
      let fd = hvt_wl_shared_memory("hvt-test-app", stride * size.height)
      guard fd >= 0 else { return }
      defer { Glibc.close(fd) }
      if let pixels = mmap(nil, stride * size.height, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), pixels != MAP_FAILED {
        pixels.initializeMemory(as: UInt32.self, repeating: 0xFF80_8080, count: size.width * size.height)
        munmap(pixels, stride * size.height)
      }
      let pool = wl_shm_create_pool(shm, fd, Int32(stride * size.height))
      buffer = wl_shm_pool_create_buffer(
        pool, 0, Int32(size.width), Int32(size.height), Int32(stride), WL_SHM_FORMAT_XRGB8888.rawValue)
      wl_shm_pool_destroy(pool)
      wl_surface_attach(surface, buffer, 0, 0)
      wl_surface_damage(surface, 0, 0, Int32(size.width), Int32(size.height))
    }
    wl_surface_commit(surface)
  }

  private static func window(_ data: UnsafeMutableRawPointer?) -> WaylandClientWindow? {
    data.map { Unmanaged<WaylandClientWindow>.fromOpaque($0).takeUnretainedValue() }
  }

  // The listener tables: written once, read by libwayland only.
  nonisolated(unsafe) private static let registryListener = CallbackTable.make(wl_registry_listener()) {
    $0.global = { data, registry, name, interface, _ in
      guard let interface else { return }
      window(data)?.bind(registry, name: name, interface: String(cString: interface))
    }
    $0.global_remove = { _, _, _ in }
  }
  nonisolated(unsafe) private static let windowManagerListener = CallbackTable.make(xdg_wm_base_listener()) {
    $0.ping = { _, windowManager, serial in xdg_wm_base_pong(windowManager, serial) }
  }
  nonisolated(unsafe) private static let shellSurfaceListener = CallbackTable.make(xdg_surface_listener()) {
    $0.configure = { data, _, serial in window(data)?.configure(serial: serial) }
  }
}
