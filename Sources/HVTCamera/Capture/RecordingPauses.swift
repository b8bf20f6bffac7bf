import HVTSupport

/// The pauses of one recording: the stretches of the camera's running time its movie leaves out, and how
/// the timestamps after each close up over it, so that the movie plays as one take with no hole in its
/// timeline.
///
/// The video decides where a pause begins and ends, at frame boundaries: a pause starts with the first
/// frame that reaches the branch after it was asked for (that frame is the first left out) and ends with
/// the first frame that reaches it after the resume (the first kept again). The sound follows the same
/// running times, cut to the sample (``samples(start:count:sampleLength:)``). Called from the branch's
/// streaming threads and the controller queue; nothing here waits.
final class RecordingPauses: Sendable {
  /// One stretch left out, in the pipeline's running time (nanoseconds): from the first frame left out
  /// to the first frame kept after it (`nil` while the pause lasts).
  struct Gap: Sendable, Equatable {
    var start: UInt
    var end: UInt?

    /// How long it lasted; 0 while it lasts.
    var length: UInt { end.map { $0 - start } ?? 0 }
  }

  /// What becomes of one frame.
  enum FrameVerdict: Equatable {
    /// Kept, its timestamps `shift` nanoseconds earlier (the pauses before it); `resumedAfter` is the
    /// length of the pause this frame ends, when it ends one.
    case keep(shift: UInt, resumedAfter: UInt?)
    /// Left out; `starting` when this frame begins the pause.
    case leaveOut(starting: Bool)
  }

  /// Which of a buffer's samples the pauses leave in.
  enum SampleVerdict: Equatable {
    /// All of them, their timestamps `shift` nanoseconds earlier.
    case all(shift: UInt)
    /// Those in `ranges` (sample indices, in order), the first of them at running time `start` once the
    /// pauses before it are taken out.
    case some(ranges: [Range<Int>], start: UInt)
    /// None: the buffer lies within a pause.
    case none
  }

  private struct State {
    var requested = false
    var gaps: [Gap] = []
  }

  private let state = Locked(State())

  /// Asks for the recording to be paused or to go on; takes effect at the next frame.
  func request(paused: Bool) {
    state.withLock { $0.requested = paused }
  }

  /// The verdict on a frame at running time `time` that comes after the movie's first two (frames come
  /// in order). A frame that cannot begin the movie again (`canResume` false: encoded video's frame that
  /// is not a key frame) does not end a pause: the pause goes on to the next one that can.
  func frame(at time: UInt, canResume: Bool = true) -> FrameVerdict {
    state.withLock { state in
      let open = state.gaps.last.map { $0.end == nil } ?? false
      switch (state.requested, open) {
      case (true, false):
        state.gaps.append(Gap(start: time, end: nil))
        return .leaveOut(starting: true)
      case (true, true):
        return .leaveOut(starting: false)
      case (false, true) where !canResume:
        return .leaveOut(starting: false)
      case (false, true):
        state.gaps[state.gaps.count - 1].end = max(time, state.gaps[state.gaps.count - 1].start)
        return .keep(shift: Self.shift(before: time, in: state.gaps), resumedAfter: state.gaps.last?.length)
      case (false, false):
        return .keep(shift: Self.shift(before: time, in: state.gaps), resumedAfter: nil)
      }
    }
  }

  /// The verdict on a buffer of `count` samples starting at running time `start`, each `sampleLength`
  /// nanoseconds long: the samples within a pause are left out (a pause still lasting takes everything
  /// from its start on), and the timestamps of those kept move back by the pauses before them.
  func samples(start: UInt, count: Int, sampleLength: Double) -> SampleVerdict {
    let gaps = state.withLock { $0.gaps }
    // A recording never paused: every buffer, a hundred a second, passes whole, without an allocation.
    if gaps.isEmpty, count > 0 { return .all(shift: 0) }
    let finish = start + UInt(Double(count) * sampleLength)
    let index = { (time: UInt) -> Int in
      time <= start ? 0 : min(count, Int((Double(time - start) / sampleLength).rounded(.up)))
    }
    var ranges: [Range<Int>] = []
    var next = 0
    for gap in gaps where gap.start < finish && (gap.end ?? .max) > start {
      let first = index(gap.start)
      if first > next { ranges.append(next..<first) }
      next = gap.end.map(index) ?? count
    }
    if next < count { ranges.append(next..<count) }
    guard let kept = ranges.first else { return .none }
    if ranges == [0..<count] { return .all(shift: Self.shift(before: start, in: gaps)) }
    let time = start + UInt(Double(kept.lowerBound) * sampleLength)
    return .some(ranges: ranges, start: time - Self.shift(before: time, in: gaps))
  }

  /// How many pauses there were, and how long those that ended lasted together (nanoseconds).
  var total: (count: Int, length: UInt) {
    state.withLock { state in (state.gaps.count, state.gaps.reduce(0) { $0 + $1.length }) }
  }

  /// The length of the pauses that ended at or before `time`.
  private static func shift(before time: UInt, in gaps: [Gap]) -> UInt {
    gaps.reduce(0) { sum, gap in
      guard let end = gap.end, end <= time else { return sum }
      return sum + gap.length
    }
  }
}
