/// What has reached the camera's preview sink since the camera last (re)started: a running count of
/// frames, the timestamps of the first and newest, and how late they arrived. Read it with
/// ``HVTCameraController/previewStatistics``.
///
/// Frames lost by the preview between two readings are the frames the timestamps say were made, minus
/// the frames that arrived: `Int(((b.latestFrameTimestamp! - a.latestFrameTimestamp!) * framesPerSecond)
/// .rounded()) - Int(b.frames - a.frames)`. The preview's mean latency between them is
/// `(b.totalLatency - a.totalLatency) / Double(b.measuredFrames - a.measuredFrames)`.
///
/// A frame's latency is the pipeline's running time when the frame reaches the preview sink's pad
/// (`gst_clock_get_time` on the pipeline's clock, minus `gst_element_get_base_time`) minus the frame's
/// timestamp, its running time: for a V4L2 camera the moment the driver captured it, for PipeWire the
/// moment `pipewiresrc` received it, for the simulated camera the moment it was due. It covers the
/// conversions and drawing elements before the sink, not the sink's own drawing.
public struct HVTPreviewStatistics: Sendable, Hashable {
  /// Frames that reached the preview sink.
  public var frames: UInt64
  /// Running time, in seconds, of the first frame that reached the preview sink; `nil` before it.
  public var firstFrameTimestamp: Double?
  /// Running time, in seconds, of the newest frame that reached the preview sink; `nil` before the first.
  public var latestFrameTimestamp: Double?
  /// Seconds from the newest frame's timestamp to its arrival at the preview sink; `nil` before the first
  /// frame, or when it was not measured (see ``measuredFrames``).
  public var latestLatency: Double?
  /// The sum, in seconds, of the latencies of the ``measuredFrames``.
  public var totalLatency: Double
  /// Frames whose latency was measured: those with a timestamp that arrived while the preview sink was
  /// playing (the first frame may reach it while it is still starting).
  public var measuredFrames: UInt64

  /// Each stored property, as a memberwise initializer takes them.
  package init(
    frames: UInt64, firstFrameTimestamp: Double? = nil, latestFrameTimestamp: Double? = nil,
    latestLatency: Double? = nil, totalLatency: Double = 0, measuredFrames: UInt64 = 0
  ) {
    self.frames = frames
    self.firstFrameTimestamp = firstFrameTimestamp
    self.latestFrameTimestamp = latestFrameTimestamp
    self.latestLatency = latestLatency
    self.totalLatency = totalLatency
    self.measuredFrames = measuredFrames
  }
}
