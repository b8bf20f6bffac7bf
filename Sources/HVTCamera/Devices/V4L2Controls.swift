import CV4L2
import Glibc

/// The V4L2 controls of a device node, asked directly of the kernel: `VIDIOC_QUERYCTRL` through
/// `hvt_v4l2_has_control` in the `CV4L2` C target (Swift cannot call the variadic `ioctl`).
///
/// This is one of the few places in HVTCamera that calls C outside the GStreamer wrapper.
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
  /// the node `O_RDONLY | O_NONBLOCK`, calls `VIDIOC_QUERYCTRL` and closes it.
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
}
