import HVTCameraCore
import Dispatch
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieRepair {
  /// What one of the repair's pipelines reports from its threads — progress, and how it ended — and the
  /// wait for that end, which never lasts forever: the first error or end of stream on the bus ends it, and
  /// so does a stall, no progress for a given time. Holds no element, so the probes and handlers that
  /// capture it keep no pipeline alive.
  final class Progress: Sendable {
    /// How a pipeline run ended.
    enum End: Sendable {
      /// End of stream reached every sink: everything was written.
      case endOfStream
      /// A probe found what the run was for (the file's type) and ended it.
      case found
      /// An element posted an error on the bus.
      case error(MessageReport)
      /// The pipeline could not be set up while running (a stream that could not be linked, a refused
      /// state change).
      case failed(HVTCameraError)
      /// No progress for `seconds`, the stall timeout.
      case stalled(seconds: Double)

      /// The error this end gives `job` on `source` after `frames` frames: GStreamer's error or the set-up
      /// failure, the stall, or, for an end of stream, that there was no frame to copy.
      func error(for job: Job, of source: URL, frames: Int) -> HVTCameraError {
        switch self {
        case .endOfStream, .found: job.empty(source, reason: "it holds no complete frame")
        case .error(let report): job.failed(source, .gstreamer(HVTGStreamerMessage(report)))
        case .failed(let error): job.failed(source, error)
        case .stalled(let seconds): job.stalled(source, seconds: seconds, frames: frames)
        }
      }
    }

    private struct State {
      var end: End?
      var lastProgress = ContinuousClock.now
    }

    private let state = Locked(State())
    private let ended = DispatchSemaphore(value: 0)
    private let stallTimeout: Double

    /// A run that ends as stalled after `stallTimeout` seconds without progress.
    init(stallTimeout: Double) {
      self.stallTimeout = stallTimeout
    }

    /// Something moved (a buffer reached the muxer or the file sink): the stall timeout starts again.
    func noteProgress() {
      let now = ContinuousClock.now
      state.withLock { $0.lastProgress = now }
    }

    /// Ends the run with `end`, unless it has already ended.
    func finish(_ end: End) {
      let first = state.withLock { state -> Bool in
        guard state.end == nil else { return false }
        state.end = end
        return true
      }
      if first { ended.signal() }
    }

    /// Sets `pipeline` to PLAYING, blocks until it ends (end of stream, an error, ``finish(_:)``, or the
    /// stall timeout without progress), then sets it to NULL, closing its files. The wait sleeps
    /// until the end or the stall deadline, which each progress moves on. Wraps `gst_element_set_state` and
    /// the bus's sync handler.
    func run(_ pipeline: Pipeline) -> End {
      let bus = pipeline.bus
      bus.setSyncHandler { [self] message in
        switch message {
        case .error(let report): finish(.error(report))
        case .endOfStream: finish(.endOfStream)
        default: break
        }
      }
      noteProgress()
      if pipeline.setState(.playing) == .failure {
        // An element that refuses usually said why on the bus first; that report wins.
        finish(.failed(.pipelineSetupFailed(.stateChangeFailed(element: pipeline.name, target: .playing))))
      }
      let timeout = Duration.seconds(stallTimeout)
      while true {
        let remaining = ContinuousClock.now.duration(to: state.withLock { $0.lastProgress } + timeout)
        if remaining > .zero, ended.wait(timeout: .now() + Self.seconds(remaining)) == .success { break }
        if state.withLock({ $0.lastProgress }) + timeout <= ContinuousClock.now {
          finish(.stalled(seconds: stallTimeout))
          ended.wait()  // signalled by whichever finish came first
          break
        }
      }
      if pipeline.setState(.null) == .failure {
        debugLog.log(.warning, "the repair pipeline \(pipeline.name) refused to stop", object: pipeline)
      }
      bus.removeSyncHandler()
      return state.withLock { $0.end }!  // the semaphore is signalled only once an end is set
    }

    private static func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
  }
}
