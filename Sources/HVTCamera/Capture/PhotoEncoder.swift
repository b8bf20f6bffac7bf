import Foundation
import HVTGStreamer
import HVTSupport

/// Encodes one frame at a time to JPEG in a small pipeline of its own, the model's photo pipeline
/// (`appsrc ! <photo encoder chain> ! appsink`), kept in PLAYING between photos so a still costs only
/// the encode.
///
/// A separate pipeline, rather than a tee branch, is what lets the photo be a frame that has already
/// passed the tee: the frame of the moment is pushed in after the fact.
final class PhotoEncoder: Sendable {
  /// How long an encode may take before it is reported as ``HVTCameraError/photoEncodingTimedOut(seconds:)``.
  static let timeout = 5.0

  private let pipeline: Pipeline
  private let source: Element
  private let sink: Element
  private let lastError = Locked<MessageReport?>(nil)

  /// Builds the photo pipeline from its description (`appsrc` first, `appsink` last) and starts it.
  init(chain: [HVTElementDescription], name: String) throws {
    pipeline = Pipeline(named: name)
    let elements = try ElementChain(chain, in: pipeline)
    source = elements.first
    sink = elements.last
    pipeline.bus.setSyncHandler { [lastError] message in
      if case .error(let report) = message { lastError.withLock { $0 = report } }
    }
    // An appsrc pipeline is not live: it returns ASYNC until the first frame prerolls it.
    guard pipeline.setState(.playing) != .failure else {
      stop()
      throw HVTCameraError.pipelineSetupFailed(.stateChangeFailed(element: name, target: .playing))
    }
  }

  /// Encodes one frame and returns the JPEG bytes. Blocks until the encoder answers (at most
  /// ``timeout``): call it off the controller queue.
  func encode(_ frame: FrameTap.Frame) throws -> Data {
    try encode(frame.buffer, caps: frame.caps)
  }

  /// Encodes one raw buffer described by `caps` (see ``encode(_:)``).
  func encode(_ buffer: Buffer, caps: Caps) throws -> Data {
    try source.pushSample(Sample(buffer: buffer, caps: caps))
    guard let encoded = sink.pullSample(timeout: Self.timeout), let buffer = encoded.buffer else {
      if let report = lastError.withLock({ $0 }) { throw HVTCameraError.gstreamer(HVTGStreamerMessage(report)) }
      throw HVTCameraError.photoEncodingTimedOut(seconds: Self.timeout)
    }
    return buffer.withBytes { Data($0) }
  }

  /// GStreamer's DOT description of the photo pipeline.
  func dotGraph() -> String { pipeline.dotGraph() }

  /// Stops the encoder pipeline and releases its resources.
  func stop() {
    Teardown.stop(pipeline, what: "the photo pipeline")
    pipeline.bus.removeSyncHandler()
  }
}
