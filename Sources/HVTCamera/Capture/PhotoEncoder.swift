import Foundation
import HVTGStreamer

/// Encodes one frame at a time to JPEG in a small pipeline of its own:
/// `appsrc ! <photo encoder chain> ! appsink`, kept in PLAYING between photos so a still costs only
/// the encode.
///
/// A separate pipeline, rather than a tee branch, is what lets the photo be a frame that has already
/// passed the tee: the frame of the moment is pushed in after the fact.
final class PhotoEncoder: Sendable {
  private let pipeline: Pipeline
  private let source: Element
  private let sink: Element
  private let lastError = Locked<MessageReport?>(nil)

  /// Builds the encoder pipeline from the model's photo chain and starts it.
  init(chain: [HVTElementDescription], name: String) throws {
    pipeline = Pipeline(named: name)
    let source = try ElementChain.make(
      HVTElementDescription("appsrc", name: "photo-source", ["format": "time", "block": "false"]))
    let sink = try ElementChain.make(
      HVTElementDescription("appsink", name: "photo-sink", ["sync": "false", "enable-last-sample": "false"]))
    try pipeline.add(source)
    let encoder = try ElementChain(chain, in: pipeline)
    try pipeline.add(sink)
    try source.link(to: encoder.first)
    try encoder.last.link(to: sink)
    self.source = source
    self.sink = sink
    pipeline.bus.setSyncHandler { [lastError] message in
      if case .error(let report) = message { lastError.withLock { $0 = report } }
    }
    guard pipeline.setState(.playing) != .failure else {
      pipeline.setState(.null)
      throw HVTCameraError.pipelineSetupFailed("the photo encoder did not start")
    }
  }

  /// Encodes one frame and returns the JPEG bytes. Blocks until the encoder answers (at most 5 s).
  func encode(_ frame: FrameTap.Frame) throws -> Data {
    try source.pushSample(Sample(buffer: frame.buffer, caps: frame.caps))
    guard let encoded = sink.pullSample(timeout: 5), let buffer = encoded.buffer else {
      if let report = lastError.withLock({ $0 }) { throw HVTCameraError.gstreamer(HVTGStreamerMessage(report)) }
      throw HVTCameraError.gstreamer(
        HVTGStreamerMessage(
          domain: "hvtcamera", code: 0, message: "the photo encoder produced no image within 5 s", debug: nil,
          element: sink.path))
    }
    return buffer.withBytes { Data($0) }
  }

  /// Stops the encoder pipeline and releases its resources.
  func stop() {
    pipeline.setState(.null)
    pipeline.bus.removeSyncHandler()
  }
}

extension HVTGStreamerMessage {
  /// The same report, in HVTCamera's terms.
  init(_ report: MessageReport) {
    self.init(
      domain: report.domain, code: report.code, message: report.message, debug: report.debug, element: report.source)
  }
}
