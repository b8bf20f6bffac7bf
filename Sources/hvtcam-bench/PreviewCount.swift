import HVTCamera

/// Frames that reached a preview (viewfinder) sink and the newest one's timestamp, at one moment.
struct PreviewCount: Sendable {
  /// Frames received so far.
  var frames: UInt64
  /// Running time of the newest frame, in seconds; `nil` before the first.
  var latestTimestamp: Double?

  /// From HVTCamera's own preview statistics.
  init(_ statistics: HVTPreviewStatistics?) {
    frames = statistics?.frames ?? 0
    latestTimestamp = statistics?.latestFrameTimestamp
  }

  /// From counts taken by the benchmark's own probe.
  init(frames: UInt64, latestTimestamp: Double?) {
    self.frames = frames
    self.latestTimestamp = latestTimestamp
  }

  /// Frames lost between `self` (earlier) and `later`: the frames the timestamps say were made between
  /// the two newest frames, minus the frames that arrived.
  func framesLost(until later: PreviewCount, frameRate: Double) -> Int {
    guard let start = latestTimestamp, let end = later.latestTimestamp else { return 0 }
    let expected = Int(((end - start) * frameRate).rounded())
    return max(0, expected - Int(later.frames - frames))
  }
}
