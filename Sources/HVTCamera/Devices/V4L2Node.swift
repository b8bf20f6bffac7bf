import CV4L2
import Glibc
import HVTSupport

/// An open V4L2 device node, for the requests HVTCamera makes beside the stream: its identity
/// (`VIDIOC_QUERYCAP`), its controls (`VIDIOC_QUERY_EXT_CTRL`, `VIDIOC_G_EXT_CTRLS`, `VIDIOC_S_EXT_CTRLS`)
/// and its flash. The node is opened non-blocking and shares the device with the `v4l2src` that streams
/// from it: V4L2 controls belong to the device, not to one open file. Owns its file descriptor.
final class V4L2Node {
  /// The device node, e.g. `/dev/video0`.
  let path: String
  private let descriptor: Int32

  /// Opens `path` with `hvt_v4l2_open`.
  init(path: String) throws(V4L2Failure) {
    let descriptor = hvt_v4l2_open(path)
    guard descriptor >= 0 else { throw V4L2Failure(path: path, request: "open", errno: errno) }
    self.path = path
    self.descriptor = descriptor
  }

  deinit {
    hvt_v4l2_close(descriptor)
  }

  /// What `VIDIOC_QUERYCAP` says about the node.
  func identity() throws(V4L2Failure) -> V4L2Identity {
    var capability = v4l2_capability()
    guard hvt_v4l2_query_capabilities(descriptor, &capability) == 0 else {
      throw V4L2Failure(path: path, request: "VIDIOC_QUERYCAP", errno: errno)
    }
    return V4L2Identity(
      driver: Self.string(capability.driver), card: Self.string(capability.card),
      busInfo: Self.string(capability.bus_info), capturesVideo: hvt_v4l2_is_video_capture(&capability) != 0)
  }

  /// `VIDIOC_QUERY_EXT_CTRL` for control `id` (or, with `V4L2_CTRL_FLAG_NEXT_CTRL` or'ed in, the one after
  /// it); `nil` when there is none.
  func queryControl(_ id: UInt32) throws(V4L2Failure) -> v4l2_query_ext_ctrl? {
    var control = v4l2_query_ext_ctrl()
    guard hvt_v4l2_query_control(descriptor, id, &control) == 0 else {
      if errno == EINVAL { return nil }
      throw V4L2Failure(path: path, request: "VIDIOC_QUERY_EXT_CTRL", errno: errno)
    }
    return control
  }

  /// The name of item `index` of menu control `id` (`VIDIOC_QUERYMENU`), or `nil` when the driver skips
  /// that index; integer menus give their value as text.
  func menuItem(control id: UInt32, index: UInt32, integer: Bool) -> String? {
    var item = v4l2_querymenu()
    guard hvt_v4l2_query_menu(descriptor, id, index, &item) == 0 else { return nil }
    return integer ? String(item.value) : Self.string(item.name)
  }

  /// The current value of control `id` (`VIDIOC_G_EXT_CTRLS`).
  func value(of id: UInt32) throws(V4L2Failure) -> Int64 {
    var value: Int64 = 0
    guard hvt_v4l2_get_control(descriptor, id, &value) == 0 else {
      throw V4L2Failure(path: path, request: "VIDIOC_G_EXT_CTRLS", errno: errno)
    }
    return value
  }

  /// Sets control `id` (`VIDIOC_S_EXT_CTRLS`).
  func setValue(_ value: Int64, of id: UInt32) throws(V4L2Failure) {
    guard hvt_v4l2_set_control(descriptor, id, value) == 0 else {
      throw V4L2Failure(path: path, request: "VIDIOC_S_EXT_CTRLS", errno: errno)
    }
  }

  /// A fixed-size, NUL-padded C string field of a V4L2 structure.
  static func string<Field>(_ field: Field) -> String {
    withUnsafeBytes(of: field) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}

/// Who a V4L2 node is, from `VIDIOC_QUERYCAP`.
struct V4L2Identity: Sendable, Hashable {
  /// The driver, e.g. `uvcvideo` or `vivid`.
  var driver: String
  /// The device's name, e.g. `Integrated Camera: Integrated C`.
  var card: String
  /// Where the device is attached, e.g. `usb-0000:00:14.0-6` or `platform:vivid-000`: the same for the
  /// same port across replugs and reboots, which makes it the device's stable ID.
  var busInfo: String
  /// Whether the node captures video (`V4L2_CAP_VIDEO_CAPTURE[_MPLANE]` among its own capabilities):
  /// false for the metadata node a UVC webcam has beside its camera node.
  var capturesVideo: Bool
}

/// A V4L2 request that failed: which, on which node, and the system's reason.
struct V4L2Failure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The device node.
  var path: String
  /// The request (`open` or the ioctl, e.g. `VIDIOC_S_EXT_CTRLS`) and the `errno` it failed with.
  var failure: SystemCallError

  /// `request` on `path` failed with `code`.
  init(path: String, request: String, errno code: Int32) {
    self.path = path
    failure = SystemCallError(request, code: code)
  }

  /// `open` or the ioctl, e.g. `VIDIOC_S_EXT_CTRLS`.
  var request: String { failure.call }
  /// The `errno` it failed with.
  var errno: Int32 { failure.code }

  /// Whether the failure means the device is gone: the node vanished (`ENOENT`), or the driver answers
  /// that the device was disconnected (`ENODEV`, `ENXIO`; a UVC camera pulled out, vivid's `disconnect`).
  var deviceIsGone: Bool { [ENOENT, ENODEV, ENXIO].contains(errno) }

  /// `VIDIOC_S_EXT_CTRLS on /dev/video0: Numerical result out of range`.
  var description: String { "\(request) on \(path): \(failure.text)" }
}

extension V4L2Failure: HVTCameraErrorConvertible {
  /// A device that is gone is the camera's disconnection; any other failure leaves its controls
  /// unavailable.
  var cameraError: HVTCameraError {
    deviceIsGone
      ? .cameraDisconnected(name: path, path: path) : .controlsUnavailable(camera: path, reason: description)
  }
}
