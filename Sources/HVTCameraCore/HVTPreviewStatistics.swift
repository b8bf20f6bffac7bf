/// What has reached the camera's preview sink since the camera last (re)started: a running count of
/// frames and the timestamps of the first and newest. Read it with
/// ``HVTCameraController/previewStatistics``.
///
/// Frames lost by the preview between two readings are the frames the timestamps say were made, minus
/// the frames that arrived: `Int(((b.latestFrameTimestamp! - a.latestFrameTimestamp!) * framesPerSecond)
/// .rounded()) - Int(b.frames - a.frames)`.
public struct HVTPreviewStatistics: Sendable, Hashable {
  /// Frames that reached the preview sink.
  public var frames: UInt64
  /// Running time, in seconds, of the first frame that reached the preview sink; `nil` before it.
  public var firstFrameTimestamp: Double?
  /// Running time, in seconds, of the newest frame that reached the preview sink; `nil` before the first.
  public var latestFrameTimestamp: Double?

  /// Each stored property, as a memberwise initializer takes them.
  package init(frames: UInt64, firstFrameTimestamp: Double? = nil, latestFrameTimestamp: Double? = nil) {
    self.frames = frames
    self.firstFrameTimestamp = firstFrameTimestamp
    self.latestFrameTimestamp = latestFrameTimestamp
  }
}
