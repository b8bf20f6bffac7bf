import Foundation
import HVTGStreamer

/// One message from the camera pipeline's bus, as `gst-launch-1.0 -m` shows it: its type, the element
/// that posted it, and what it says. Delivered on ``HVTCameraController/busMessages``.
public struct HVTBusMessage: Sendable, Hashable, CustomStringConvertible {
  /// GStreamer's name for the message type: `state-changed`, `error`, `warning`, `eos`, `element`,
  /// `stream-start`, `latency`, …
  public var type: String
  /// The object path of the element that posted it, e.g. `/GstPipeline:hvtcamera1/GstX264Enc:movie-encoder`.
  public var element: String
  /// What it says: the state change, the error's message and debug string, or the message structure.
  public var details: String
  /// When the engine received it.
  public var date: Date

  /// `type element: details`.
  public var description: String { "\(type) \(element)" + (details.isEmpty ? "" : ": \(details)") }

  package init(_ message: BusMessage) {
    type = message.typeName
    element = message.source
    details = message.details
    date = Date()
  }

  /// The same message with each of `secrets` in its details masked (a stream's sink may quote its URL).
  package func masking(_ secrets: Set<String>) -> HVTBusMessage {
    var masked = self
    masked.details = HVTStreamTarget.masking(details, secrets: secrets)
    return masked
  }
}
