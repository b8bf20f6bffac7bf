import HVTGStreamer

/// The time segment a probe last saw on a stream (``ProbedEvent/segment(start:base:)``), which turns the
/// stream's timestamps into running time. Encoders move their output's segment (`x264enc` starts it at
/// 1000 hours); a camera's starts at 0.
struct StreamSegment: Sendable {
  var start: UInt = 0
  var base: UInt = 0

  /// The running time of a buffer's presentation timestamp; `nil` for one without a timestamp or from
  /// before the segment.
  func runningTime(of buffer: BufferView) -> UInt? {
    let pts = buffer.presentationTime
    guard ClockTime.isValid(pts), pts >= start else { return nil }
    return pts - start + base
  }

  /// The segment an event sets, or `nil` for another event.
  static func set(by event: ProbedEvent?) -> StreamSegment? {
    guard case .segment(let start, let base)? = event else { return nil }
    return StreamSegment(start: start, base: base)
  }
}
