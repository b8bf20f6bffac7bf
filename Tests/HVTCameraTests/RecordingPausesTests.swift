import Testing

@testable import HVTCamera

/// How a recording's pauses decide its frames and cut its sound (``RecordingPauses``), in running time.
struct RecordingPausesTests {
  /// One frame at 25 fps, in nanoseconds.
  static let frame: UInt = 40_000_000

  /// A recording whose frames at 0, 1, … `frames - 1` frame intervals were decided, paused at frame
  /// `pausedAt` and resumed at frame `resumedAt`.
  func pauses(pausedAt: UInt, resumedAt: UInt?, frames: UInt) -> RecordingPauses {
    let pauses = RecordingPauses()
    for index in 1..<frames {
      if index == pausedAt { pauses.request(paused: true) }
      if index == resumedAt { pauses.request(paused: false) }
      _ = pauses.frame(at: index * Self.frame)
    }
    return pauses
  }

  @Test("a pause leaves out the frames from the first after the request to the last before the resume")
  func frames() {
    let pauses = RecordingPauses()
    #expect(pauses.frame(at: Self.frame) == .keep(shift: 0, resumedAfter: nil))
    pauses.request(paused: true)
    #expect(pauses.frame(at: 2 * Self.frame) == .leaveOut(starting: true))
    #expect(pauses.frame(at: 3 * Self.frame) == .leaveOut(starting: false))
    // Asking twice changes nothing.
    pauses.request(paused: true)
    #expect(pauses.frame(at: 4 * Self.frame) == .leaveOut(starting: false))
    #expect(pauses.total.count == 1 && pauses.total.length == 0)
    pauses.request(paused: false)
    // Frames 2, 3 and 4 were left out: the fifth takes the second's place.
    #expect(pauses.frame(at: 5 * Self.frame) == .keep(shift: 3 * Self.frame, resumedAfter: 3 * Self.frame))
    #expect(pauses.frame(at: 6 * Self.frame) == .keep(shift: 3 * Self.frame, resumedAfter: nil))
    pauses.request(paused: true)
    #expect(pauses.frame(at: 7 * Self.frame) == .leaveOut(starting: true))
    pauses.request(paused: false)
    #expect(pauses.frame(at: 8 * Self.frame) == .keep(shift: 4 * Self.frame, resumedAfter: Self.frame))
    #expect(pauses.total.count == 2 && pauses.total.length == 4 * Self.frame)
  }

  @Test("after a pause, the frame that is the limit's own in frames reaches it, a nanosecond early or not")
  func limitAfterAPause() {
    // 30 fps as sources stamp it, in whole nanoseconds: 33333333, 66666666, 100000000, …
    let time = { (frame: UInt) in frame * 1_000_000_000 / 30 }
    let pauses = RecordingPauses()
    for frame: UInt in 1...4 { #expect(pauses.frame(at: time(frame)) == .keep(shift: 0, resumedAfter: nil)) }
    pauses.request(paused: true)
    #expect(pauses.frame(at: time(5)) == .leaveOut(starting: true))
    pauses.request(paused: false)
    let shift = time(6) - time(5)
    #expect(pauses.frame(at: time(6)) == .keep(shift: shift, resumedAfter: shift))
    // The movie began with frame 1; with frame 5 left out, frame 92 is its 91st: 3 s in, one nanosecond
    // early by the rounding.
    let start = { (frame: UInt) -> UInt in
      guard case .keep(let shift, _) = pauses.frame(at: time(frame)) else { return 0 }
      return time(frame) - shift - time(1)
    }
    let limit: UInt = 3_000_000_000
    #expect(start(91) == 2_966_666_666 && !RecordingClock.reachesLimit(start: start(91), limit: limit))
    #expect(start(92) == 2_999_999_999 && RecordingClock.reachesLimit(start: start(92), limit: limit))
  }

  @Test("a request and its undoing between two frames leave out nothing")
  func undoneBeforeAFrame() {
    let pauses = RecordingPauses()
    pauses.request(paused: true)
    pauses.request(paused: false)
    #expect(pauses.frame(at: Self.frame) == .keep(shift: 0, resumedAfter: nil))
    #expect(pauses.total.count == 0)
  }

  @Test("sound before a pause and after it is kept, its timestamps closed up over the pause")
  func soundAroundAPause() {
    // Frames 2...4 left out: the pause is the running time from 80 ms to 200 ms.
    let pauses = pauses(pausedAt: 2, resumedAt: 5, frames: 7)
    let sample = 1e9 / 48_000
    // 10 ms buffers: 480 samples each.
    #expect(pauses.samples(start: 30_000_000, count: 480, sampleLength: sample) == .all(shift: 0))
    #expect(pauses.samples(start: 200_000_000, count: 480, sampleLength: sample) == .all(shift: 120_000_000))
    #expect(pauses.samples(start: 100_000_000, count: 480, sampleLength: sample) == .none)
    // Across the pause's start: the first 5 ms (240 samples) are kept.
    #expect(
      pauses.samples(start: 75_000_000, count: 480, sampleLength: sample)
        == .some(ranges: [0..<240], start: 75_000_000))
    // Across its end: the last 5 ms, which follow the sound of 80 ms without a hole.
    #expect(
      pauses.samples(start: 195_000_000, count: 480, sampleLength: sample)
        == .some(ranges: [240..<480], start: 80_000_000))
  }

  @Test("a buffer longer than the pause keeps what lies on either side of it, as one")
  func pauseWithinABuffer() {
    // Frame 2 left out: the pause is 80 ms to 120 ms; one buffer of 100 ms from 50 ms (sample = 1 ms).
    let pauses = pauses(pausedAt: 2, resumedAt: 3, frames: 4)
    #expect(
      pauses.samples(start: 50_000_000, count: 100, sampleLength: 1e6)
        == .some(ranges: [0..<30, 70..<100], start: 50_000_000))
  }

  @Test("while a pause lasts, all sound from its start on is left out")
  func pauseLasting() {
    let pauses = pauses(pausedAt: 2, resumedAt: nil, frames: 10)
    #expect(
      pauses.samples(start: 70_000_000, count: 20, sampleLength: 1e6) == .some(ranges: [0..<10], start: 70_000_000))
    #expect(pauses.samples(start: 1_000_000_000, count: 20, sampleLength: 1e6) == .none)
    // A pause that never ended counts, but leaves nothing out of the movie's duration.
    #expect(pauses.total.count == 1 && pauses.total.length == 0)
  }
}
