/// Which cameras a controller uses: real V4L2 devices, the simulated camera, or whichever is configured.
public struct HVTCameraSource: Sendable, Hashable, CustomStringConvertible {
  package enum Kind: Sendable, Hashable {
    case automatic
    case simulated(failingAfterFrames: Int?)
    case device(path: String)
  }

  package let kind: Kind

  /// The simulated camera when `HVT_CAMERA_SOURCE=simulated`, a given device when it names one
  /// (`HVT_CAMERA_SOURCE=/dev/video2`), and otherwise the real cameras found by `GstDeviceMonitor`.
  public static let automatic = HVTCameraSource(kind: .automatic)

  /// The simulated camera: a live `videotestsrc` with a rear and a front device (different patterns),
  /// every quality up to 3840x2160 at 30 fps, and a flash on the rear device.
  public static let simulated = HVTCameraSource(kind: .simulated(failingAfterFrames: nil))

  /// The simulated camera, failing with a GStreamer stream error after `frames` frames (an `identity
  /// error-after=N` element), to exercise an app's error handling.
  public static func simulated(failingAfterFrames frames: Int) -> HVTCameraSource {
    HVTCameraSource(kind: .simulated(failingAfterFrames: frames))
  }

  /// One V4L2 device node, e.g. `/dev/video0`, used as the rear camera.
  public static func device(_ path: String) -> HVTCameraSource {
    HVTCameraSource(kind: .device(path: path))
  }

  /// The source `HVT_CAMERA_SOURCE` names (`simulated`, `auto`, or a device path), or `nil` when unset.
  package static func fromEnvironment(_ value: String?) -> HVTCameraSource? {
    guard let value, !value.isEmpty else { return nil }
    switch value {
    case "simulated": return .simulated
    case "auto", "automatic": return nil
    default: return .device(value)
    }
  }

  /// `automatic`, `simulated` or the device path.
  public var description: String {
    switch kind {
    case .automatic: "automatic"
    case .simulated(nil): "simulated"
    case .simulated(let frames?): "simulated (failing after \(frames) frames)"
    case .device(let path): path
    }
  }
}
