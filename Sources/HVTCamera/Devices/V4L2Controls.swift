import CV4L2
import Glibc

/// The V4L2 controls of a device node, asked directly of the kernel: `VIDIOC_QUERY_EXT_CTRL`,
/// `VIDIOC_QUERYMENU`, `VIDIOC_G_EXT_CTRLS` and `VIDIOC_S_EXT_CTRLS` through the `CV4L2` C target
/// (Swift cannot call the variadic `ioctl`), on a ``V4L2Node`` of their own beside the stream.
enum V4L2Controls {
  /// What a device node said about one control.
  enum Answer: Sendable, Hashable {
    /// The control exists and is enabled.
    case present
    /// The device has no such control, or has it disabled.
    case absent
    /// The question could not be asked: the node did not open or is not a V4L2 device (`errno`).
    case unavailable(errno: Int32)
  }

  /// Asks the device node at `path` whether it has control `id`. Wraps `hvt_v4l2_has_control`, which opens
  /// the node `O_RDONLY | O_NONBLOCK`, calls `VIDIOC_QUERY_EXT_CTRL` and closes it.
  static func query(_ id: UInt32, path: String) -> Answer {
    switch hvt_v4l2_has_control(path, id) {
    case 1: .present
    case 0: .absent
    default: .unavailable(errno: errno)
    }
  }

  /// The flash LED's mode control (`V4L2_CID_FLASH_LED_MODE`, in the flash control class): a device with
  /// a flash the application can fire has it.
  static let flashLEDMode = UInt32(V4L2_CID_FLASH_LED_MODE)

  /// Whether the device node at `path` has a flash: its `V4L2_CID_FLASH_LED_MODE` control exists.
  static func hasFlash(path: String) -> Bool {
    query(flashLEDMode, path: path) == .present
  }

  /// Every control of `node` a user can read or set, in the driver's order (which puts automatic modes
  /// before the values they govern: `gain_automatic` before `gain`): integers, booleans, menus and
  /// buttons. Control-class headings, strings and compound controls (arrays, areas) are left out, as are
  /// disabled controls.
  static func controls(of node: V4L2Node) throws(V4L2Failure) -> [HVTCameraControl] {
    var controls: [HVTCameraControl] = []
    var id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
    while let query = try node.queryControl(id) {
      id = query.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
      if let control = try control(query, of: node) { controls.append(control) }
    }
    return controls
  }

  /// One queried control as a value, with its current value read; `nil` for kinds that are left out.
  private static func control(_ query: v4l2_query_ext_ctrl, of node: V4L2Node) throws(V4L2Failure)
    -> HVTCameraControl?
  {
    let flags = query.flags
    guard flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0 else { return nil }
    let kind: HVTCameraControl.Kind
    switch query.type {
    case V4L2_CTRL_TYPE_INTEGER.rawValue, V4L2_CTRL_TYPE_INTEGER64.rawValue:
      kind = .integer(minimum: query.minimum, maximum: query.maximum, step: Int64(query.step))
    case V4L2_CTRL_TYPE_BOOLEAN.rawValue:
      kind = .boolean
    case V4L2_CTRL_TYPE_MENU.rawValue, V4L2_CTRL_TYPE_INTEGER_MENU.rawValue:
      let integer = query.type == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue
      kind = .menu(
        (query.minimum...max(query.minimum, query.maximum)).compactMap { index in
          node.menuItem(control: query.id, index: UInt32(index), integer: integer).map {
            HVTCameraControl.MenuItem(value: index, name: $0)
          }
        })
    case V4L2_CTRL_TYPE_BUTTON.rawValue:
      kind = .button
    default:
      return nil
    }
    let writeOnly = flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) != 0
    let title = V4L2Node.string(query.name)
    return HVTCameraControl(
      name: HVTCameraControl.name(for: title), title: title, kind: kind, defaultValue: query.default_value,
      value: kind == .button || writeOnly ? nil : try node.value(of: query.id),
      isReadOnly: flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0,
      isInactive: flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0, id: query.id)
  }
}
