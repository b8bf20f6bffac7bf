import Foundation
import HVTGStreamer

/// Why the camera could not do what was asked.
public enum HVTCameraError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No camera: no V4L2 device was found and the simulated camera is not enabled.
  case noCameraAvailable(reason: String)
  /// The requested camera position has no device (e.g. `.front` on a machine with one webcam).
  case cameraDeviceUnavailable(HVTCameraController.CameraDevice)
  /// `setMediaTypes([])`.
  case emptyMediaTypes
  /// None of the requested media types can be captured from this source.
  case mediaTypesUnavailable(requested: [HVTMediaType], available: [HVTMediaType])
  /// The operation needs a presented camera.
  case notPresented
  /// The camera in use was unplugged.
  case cameraDisconnected(name: String, path: String?)
  /// GStreamer reported an error on the bus.
  case gstreamer(HVTGStreamerMessage)
  /// The pipeline could not be built or started: a missing element, a failed link, a refused property.
  case pipelineSetupFailed(String)
  /// A capture could not be written.
  case fileWriteFailed(path: String, reason: String)

  /// What went wrong, in one sentence (GStreamer's message and debug string for `.gstreamer`).
  public var description: String {
    switch self {
    case .noCameraAvailable(let reason):
      "no camera available: \(reason)"
    case .cameraDeviceUnavailable(let device):
      "no \(device.rawValue) camera on this machine"
    case .emptyMediaTypes:
      "mediaTypes must not be empty"
    case .mediaTypesUnavailable(let requested, let available):
      "media types \(requested.map(\.rawValue)) are not available from this source (available: \(available.map(\.rawValue)))"
    case .cameraDisconnected(let name, let path):
      "the camera in use was disconnected: \(name)\(path.map { " (\($0))" } ?? "")"
    case .notPresented:
      "the camera is not presented; call present() first"
    case .gstreamer(let message):
      message.description
    case .pipelineSetupFailed(let reason):
      "could not set up the camera pipeline: \(reason)"
    case .fileWriteFailed(let path, let reason):
      "could not write \(path): \(reason)"
    }
  }
}

extension HVTCameraError {
  /// Any error in HVTCamera's terms: GStreamer's reports keep their domain, code and debug string;
  /// other wrapper failures (a missing element, a refused property) become `.pipelineSetupFailed`.
  init(_ error: any Error) {
    switch error {
    case let error as HVTCameraError: self = error
    case GStreamerError.reported(let report): self = .gstreamer(HVTGStreamerMessage(report))
    default: self = .pipelineSetupFailed(String(describing: error))
    }
  }
}
