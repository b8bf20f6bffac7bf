import HVTGStreamer
import HVTSupport

/// Watches the preview sink's input: counts the frames that reach it, keeps the first and newest
/// timestamps and how late each arrived, and reports the moment the first one arrives (for
/// `HVTCameraEvent.previewStarted`).
final class PreviewMonitor: Sendable {
  private struct State {
    var statistics = HVTPreviewStatistics(frames: 0)
    var onFirstFrame: (@Sendable (ContinuousClock.Instant) -> Void)?
  }

  private let state = Locked(State())

  /// Installs the counting probe on `pad` (the preview sink's sink pad).
  func install(on pad: Pad) {
    pad.addProbe(.buffer) { [state] pad, info in
      guard let buffer = info.buffer else { return .ok }
      let arrival = ContinuousClock.now
      let pts = buffer.presentationTime
      let timestamp = ClockTime.isValid(pts) ? ClockTime.seconds(pts) : nil
      // The sink is read here rather than held: the probe's closure, which its pad keeps, would keep it.
      let latency = timestamp.flatMap { timestamp in
        pad.parentElement?.runningTime.map { ClockTime.seconds($0) - timestamp }
      }
      let report = state.withLock { state -> (@Sendable (ContinuousClock.Instant) -> Void)? in
        if let previous = state.statistics.latestFrameTimestamp, let timestamp, timestamp - previous > 0.1 {
          debugLog.log(
            .debug, "preview: \(Int((timestamp - previous) * 1000)) ms of frames missing before \(timestamp) s")
        }
        state.statistics.frames += 1
        if state.statistics.firstFrameTimestamp == nil { state.statistics.firstFrameTimestamp = timestamp }
        state.statistics.latestFrameTimestamp = timestamp ?? state.statistics.latestFrameTimestamp
        state.statistics.latestLatency = latency
        if let latency {
          state.statistics.totalLatency += latency
          state.statistics.measuredFrames += 1
        }
        guard state.statistics.frames == 1 else { return nil }
        defer { state.onFirstFrame = nil }
        return state.onFirstFrame
      }
      report?(arrival)
      return .ok
    }
  }

  /// Calls `report` (on a streaming thread) with the moment the first frame reaches the preview sink.
  /// Set it before the pipeline starts.
  func onFirstFrame(_ report: @escaping @Sendable (ContinuousClock.Instant) -> Void) {
    state.withLock { $0.onFirstFrame = report }
  }

  /// The counts so far.
  var statistics: HVTPreviewStatistics { state.withLock { $0.statistics } }
}
