import HVTCameraCore
import CWayland
import HVTSupport

/// The listener tables of ``WaylandWindow``'s proxies: C structures of functions, each calling the window
/// its `data` points to. Made once and never freed (a proxy keeps the table's address while it lives).
/// Each table is filled field by field from a zeroed one: the fields differ between libwayland versions
/// (1.21 on Debian 12, 1.23 on Debian 13), and an event of a later version than the one bound never comes.
enum WaylandListeners {
  // The tables are written once, here, and only read afterwards, by libwayland.
  nonisolated(unsafe) static let registry = CallbackTable.make(wl_registry_listener()) {
    $0.global = { data, registry, name, interface, version in
      guard let interface else { return }
      WaylandWindow.from(data)?.bind(registry, name: name, interface: String(cString: interface), version: version)
    }
    $0.global_remove = { _, _, _ in }
  }

  nonisolated(unsafe) static let windowManager = CallbackTable.make(xdg_wm_base_listener()) {
    $0.ping = { _, windowManager, serial in xdg_wm_base_pong(windowManager, serial) }
  }

  nonisolated(unsafe) static let shellSurface = CallbackTable.make(xdg_surface_listener()) {
    $0.configure = { data, _, serial in WaylandWindow.from(data)?.configure(serial: serial) }
  }

  nonisolated(unsafe) static let toplevel = CallbackTable.make(xdg_toplevel_listener()) {
    $0.configure = { data, _, width, height, _ in
      guard let window = WaylandWindow.from(data), width > 0, height > 0 else { return }
      window.requestedSize = (Int(width), Int(height))
    }
    $0.close = { data, _ in
      WaylandWindow.from(data)?.sinkInput.parentElement?.postResourceNotFound("Output window was closed")
    }
  }

  nonisolated(unsafe) static let seat = CallbackTable.make(wl_seat_listener()) {
    $0.capabilities = { data, _, capabilities in WaylandWindow.from(data)?.seatOffers(capabilities) }
  }

  nonisolated(unsafe) static let keyboard = CallbackTable.make(wl_keyboard_listener()) {
    $0.keymap = { data, _, format, fd, size in WaylandWindow.from(data)?.keymap(format: format, fd: fd, size: Int(size))
    }
    $0.enter = { _, _, _, _, _ in }
    $0.leave = { _, _, _, _ in }
    $0.key = { data, _, _, _, key, state in WaylandWindow.from(data)?.key(key, pressed: state == 1) }
    $0.modifiers = { data, _, _, depressed, latched, locked, group in
      WaylandWindow.from(data)?.keys?.modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
    }
  }

  nonisolated(unsafe) static let pointer = CallbackTable.make(wl_pointer_listener()) {
    $0.enter = { data, _, _, _, x, y in WaylandWindow.from(data)?.pointerMoved(x: x, y: y, reported: false) }
    $0.leave = { _, _, _, _ in }
    $0.motion = { data, _, _, x, y in WaylandWindow.from(data)?.pointerMoved(x: x, y: y, reported: true) }
    $0.button = { data, _, _, _, button, state in WaylandWindow.from(data)?.button(button, pressed: state == 1) }
    $0.axis = { data, _, _, axis, value in WaylandWindow.from(data)?.scroll(axis: axis, value: value) }
  }
}
