import Dispatch
import HVTGStreamer
import HVTSupport

/// The backlog of an encoder that runs all the time — a pre-roll's (``PreRollBuffer``), the streams'
/// (``StreamEncoder``) — bounded as a recording's is (``RecordingBacklog``) under
/// ``HVTSlowEncoderPolicy/leaveFramesOut``: a probe at the input of the queue before the encoder and one
/// at its output leave out the frames the encoder has no room for, the others' timestamps untouched, so
/// that the camera's `tee` never waits for it.
///
/// Each frame left out is logged by its running time, for the last ``retention`` nanoseconds of the
/// camera's time: a movie that takes the encoder's video counts those between its frames
/// (``drops(after:through:)``), the frames it is missing.
final class ContinuousEncoderBacklog: Sendable {
  private struct State {
    var backlog: RecordingBacklog
    /// The queue's input's time segment: frame times are running times.
    var segment = StreamSegment()
    /// The running times of the frames left out, in order (those left out at the queue's output are older
    /// than the last left out at its input), none older than ``retention`` before the newest.
    var log: [UInt] = []
    /// The whole second of the camera's running time in which frames left out were last reported.
    var reportedSecond: Int?

    /// Logs a frame left out at running time `time` (`nil`: before the segment, not logged), forgetting
    /// those more than `retention` older; returns the total left out when it is to be reported: for the
    /// first, and the first in each whole second of the camera's time after.
    mutating func leftOut(_ time: UInt?, retention: UInt) -> Int? {
      guard let time else { return nil }
      log.insert(time, at: log.countThrough(time))
      if let newest = log.last, newest > retention {
        log.removeFirst(log.countThrough(newest - retention - 1))
      }
      let second = Int(ClockTime.seconds(time))
      guard reportedSecond.map({ second > $0 }) ?? true else { return nil }
      reportedSecond = second
      return backlog.dropped
    }
  }

  /// How far back the log goes: what a movie may take from before it was asked for (a pre-roll's
  /// duration, and its key-frame interval), and the frames waiting in its own queue.
  let retention: UInt
  private let state: Locked<State>

  /// Bounds the backlog of the queue `queue` (the first element of the encoder's chain, its limits set
  /// past `limit`'s: ``HVTPipelineModel/encoderQueue(bounding:_:)``) by `limit`, logging what is left out for
  /// `retention` nanoseconds. `frameInterval` is the duration of a frame whose buffer carries none;
  /// `onDropped` is called on a streaming thread with the total left out, for the first frame left out
  /// and then at most once a second of the camera's time.
  init(
    limit: RecordingBacklog.Limit, retention: UInt, queue: Element, frameInterval: UInt,
    onDropped: @escaping @Sendable (Int) -> Void
  ) throws {
    guard let input = queue.staticPad("sink"), let output = queue.staticPad("src") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: queue.path, pad: "sink"))
    }
    self.retention = retention
    let state = Locked(State(backlog: RecordingBacklog(limit: limit)))
    self.state = state
    input.addProbe([.buffer, .eventDownstream]) { _, info in
      if let segment = StreamSegment.set(by: info.event) {
        state.withLock { $0.segment = segment }
        return .ok
      }
      guard let buffer = info.buffer else { return .ok }
      let duration = ClockTime.isValid(buffer.duration) ? buffer.duration : frameInterval
      let verdict = state.withLock { state -> (goes: Bool, report: Int?) in
        if state.backlog.admit(bytes: buffer.size, duration: duration) { return (true, nil) }
        return (false, state.leftOut(state.segment.runningTime(of: buffer), retention: retention))
      }
      if let total = verdict.report { onDropped(total) }
      return verdict.goes ? .ok : .drop
    }
    output.addProbe(.buffer) { _, info in
      guard let buffer = info.buffer else { return .ok }
      let duration = ClockTime.isValid(buffer.duration) ? buffer.duration : frameInterval
      let now = UInt(DispatchTime.now().uptimeNanoseconds)
      let verdict = state.withLock { state -> (goes: Bool, report: Int?) in
        if state.backlog.release(bytes: buffer.size, duration: duration, at: now) { return (true, nil) }
        return (false, state.leftOut(state.segment.runningTime(of: buffer), retention: retention))
      }
      if let total = verdict.report { onDropped(total) }
      return verdict.goes ? .ok : .drop
    }
  }

  /// The backlog of the encoder of `model`'s encoding that runs all the time, behind `queue` (the first
  /// element of ``HVTPipelineModel/continuousEncoding``), bounded by the model's
  /// ``HVTPipelineModel/continuousBacklog``; `nil` without one (the camera waits for the encoder).
  static func bounding(
    _ queue: Element, of model: HVTPipelineModel, retention: UInt, onDropped: @escaping @Sendable (Int) -> Void
  ) throws -> ContinuousEncoderBacklog? {
    try model.continuousBacklog.map { limit in
      try ContinuousEncoderBacklog(
        limit: limit, retention: retention, queue: queue,
        frameInterval: ClockTime.from(seconds: 1 / model.configuration.frameRate.framesPerSecond), onDropped: onDropped)
    }
  }

  /// Frames left out so far.
  var dropped: Int { state.withLock { $0.backlog.dropped } }

  /// How many frames left out have a running time after `start` and up to `end` (nanoseconds): those
  /// missing between two frames of a movie at those times.
  func drops(after start: UInt, through end: UInt) -> Int {
    guard end > start else { return 0 }
    return state.withLock { state in
      state.log.countThrough(end) - state.log.countThrough(start)
    }
  }
}

extension [UInt] {
  /// How many of the elements of this ascending array are at most `value` (a binary search).
  fileprivate func countThrough(_ value: UInt) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if self[middle] <= value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
