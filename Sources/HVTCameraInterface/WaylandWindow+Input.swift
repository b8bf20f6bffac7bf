import HVTCameraCore
import CWayland
import Glibc
import HVTGStreamer

extension WaylandWindow {
  /// Binds the globals the window uses as the registry announces them: the compositor, shared memory,
  /// the seat (version 1: keys and buttons are all it reads) and the window manager. Wraps
  /// `wl_registry_bind`.
  func bind(_ registry: OpaquePointer?, name: UInt32, interface: String, version: UInt32) {
    switch interface {
    case "wl_compositor": compositor = OpaquePointer(wl_registry_bind(registry, name, hvt_wl_compositor_interface(), 1))
    case "wl_shm": shm = OpaquePointer(wl_registry_bind(registry, name, hvt_wl_shm_interface(), 1))
    case "xdg_wm_base": windowManager = OpaquePointer(wl_registry_bind(registry, name, hvt_xdg_wm_base_interface(), 1))
    case "wl_seat" where seat == nil:
      seat = OpaquePointer(wl_registry_bind(registry, name, hvt_wl_seat_interface(), 1))
      wl_seat_add_listener(seat, WaylandListeners.seat, listenerData)
    default: break
    }
  }

  /// The seat's keyboard and pointer, taken when it has them and let go when it no longer has (a
  /// keyboard or mouse unplugged, a virtual one gone). Wraps `wl_seat_get_keyboard` and
  /// `wl_seat_get_pointer`.
  func seatOffers(_ capabilities: UInt32) {
    let hasKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
    if hasKeyboard, keyboard == nil {
      keyboard = wl_seat_get_keyboard(seat)
      wl_keyboard_add_listener(keyboard, WaylandListeners.keyboard, listenerData)
    } else if !hasKeyboard, let keyboard {
      wl_keyboard_destroy(keyboard)
      self.keyboard = nil
    }
    let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
    if hasPointer, pointer == nil {
      pointer = wl_seat_get_pointer(seat)
      wl_pointer_add_listener(pointer, WaylandListeners.pointer, listenerData)
    } else if !hasPointer, let pointer {
      wl_pointer_destroy(pointer)
      self.pointer = nil
    }
  }

  /// The keyboard's layout, from the compositor's file (XKB text), which names the keys from now on.
  func keymap(format: UInt32, fd: Int32, size: Int) {
    assertOnWindowThread()
    defer { Glibc.close(fd) }
    guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else { return }
    keys = KeyNames(keymapFile: fd, size: size) ?? keys
  }

  /// A key went down or up: to the sink's input as a navigation event, by its X keysym name.
  func key(_ code: UInt32, pressed: Bool) {
    assertOnWindowThread()
    guard let name = keys?.name(ofKeycode: code) else { return }
    sinkInput.pushNavigation(pressed ? .keyPress(key: name) : .keyRelease(key: name))
  }

  /// The pointer entered or moved (window coordinates in 24.8 fixed point); a move is sent on as one.
  func pointerMoved(x: Int32, y: Int32, reported: Bool) {
    assertOnWindowThread()
    pointerPosition = (wl_fixed_to_double(x), wl_fixed_to_double(y))
    guard reported, let point = pictureCoordinates() else { return }
    sinkInput.pushNavigation(.mouseMove(x: point.x, y: point.y))
  }

  /// A button went down or up (Linux input codes: `BTN_LEFT` 0x110 is button 1, `BTN_MIDDLE` 2, `BTN_RIGHT`
  /// 3, as X numbers them; other buttons are left out).
  func button(_ code: UInt32, pressed: Bool) {
    assertOnWindowThread()
    guard let button = [0x110: 1, 0x112: 2, 0x111: 3][Int(code)], let point = pictureCoordinates() else { return }
    sinkInput.pushNavigation(
      pressed
        ? .mouseButtonPress(button: button, x: point.x, y: point.y)
        : .mouseButtonRelease(button: button, x: point.x, y: point.y))
  }

  /// The wheel turned: one step up or down (or across), as the X sinks send it.
  func scroll(axis: UInt32, value: Int32) {
    assertOnWindowThread()
    guard let point = pictureCoordinates(), value != 0 else { return }
    let step: Double = value > 0 ? 1 : -1
    let vertical = axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue
    sinkInput.pushNavigation(
      .scroll(x: point.x, y: point.y, deltaX: vertical ? 0 : step, deltaY: vertical ? -step : 0))
  }

  /// Where the pointer is in the picture's pixels: the sink shows the picture centred in the window at the
  /// largest size that keeps its shape (`gst_video_center_rect`), as the X11 sinks translate their own
  /// window's coordinates. `nil` before the picture's size is known.
  func pictureCoordinates() -> (x: Double, y: Double)? {
    guard let caps = sinkInput.currentCaps, caps.count > 0 else { return nil }
    let structure = caps.structure(at: 0)
    guard let width = structure.int("width"), let height = structure.int("height") else { return nil }
    let shown = PictureFit.rectangle(of: HVTFrameSize(width: width, height: height), in: size)
    guard shown.width > 0, shown.height > 0 else { return nil }
    return (
      (pointerPosition.x - Double(shown.x)) * Double(width) / Double(shown.width),
      (pointerPosition.y - Double(shown.y)) * Double(height) / Double(shown.height)
    )
  }

  /// Lets go of the keyboard and pointer and the key names. Wraps `wl_keyboard_destroy` and
  /// `wl_pointer_destroy`.
  func releaseInput() {
    if let keyboard { wl_keyboard_destroy(keyboard) }
    if let pointer { wl_pointer_destroy(pointer) }
    (keyboard, pointer, keys) = (nil, nil, nil)
  }
}

/// Where a video sink shows a picture in a window: centred, at the largest size that keeps its shape, as
/// `gst_video_center_rect` with scaling places it (square pixels).
enum PictureFit {
  /// The rectangle a `frame` takes in a window of `window` pixels.
  static func rectangle(of frame: HVTFrameSize, in window: (width: Int, height: Int)) -> (
    x: Int, y: Int, width: Int, height: Int
  ) {
    guard frame.width > 0, frame.height > 0, window.width > 0, window.height > 0 else { return (0, 0, 0, 0) }
    let frameRatio = Double(frame.width) / Double(frame.height)
    let windowRatio = Double(window.width) / Double(window.height)
    if frameRatio > windowRatio {
      let height = Int(Double(window.width) / frameRatio)
      return (0, (window.height - height) / 2, window.width, height)
    }
    if frameRatio < windowRatio {
      let width = Int(Double(window.height) * frameRatio)
      return ((window.width - width) / 2, 0, width, window.height)
    }
    return (0, 0, window.width, window.height)
  }
}

/// Names keys as X keysyms (`space`, `Escape`, `f`, `Return`, `Right`, `plus`), the names the X11 sinks'
/// navigation events carry, with xkbcommon and the compositor's keymap: the keyboard's layout and its
/// modifiers decide what a key is.
final class KeyNames {
  private let context: OpaquePointer
  private let keymap: OpaquePointer
  private let state: OpaquePointer

  /// The names of a keymap file of `size` bytes (XKB text, as `wl_keyboard.keymap` sends it); `nil` when
  /// it cannot be read or compiled. Wraps `xkb_keymap_new_from_string` and `xkb_state_new`.
  init?(keymapFile fd: Int32, size: Int) {
    guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
    defer { munmap(mapped, size) }
    guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
    guard
      let keymap = xkb_keymap_new_from_string(
        context, mapped.assumingMemoryBound(to: CChar.self), XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
    else {
      xkb_context_unref(context)
      return nil
    }
    guard let state = xkb_state_new(keymap) else {
      xkb_keymap_unref(keymap)
      xkb_context_unref(context)
      return nil
    }
    (self.context, self.keymap, self.state) = (context, keymap, state)
  }

  deinit {
    xkb_state_unref(state)
    xkb_keymap_unref(keymap)
    xkb_context_unref(context)
  }

  /// The keysym name of a Linux key code (`wl_keyboard.key`'s, 8 less than XKB's). Wraps
  /// `xkb_state_key_get_one_sym` and `xkb_keysym_get_name`.
  func name(ofKeycode code: UInt32) -> String? {
    let symbol = xkb_state_key_get_one_sym(state, code + 8)
    guard symbol != 0 else { return nil }
    var name = [CChar](repeating: 0, count: 64)
    guard xkb_keysym_get_name(symbol, &name, name.count) > 0 else { return nil }
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The modifiers and layout group the compositor says are in effect. Wraps `xkb_state_update_mask`.
  func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
    xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
  }
}
