import HVTGStreamer
import Testing

@testable import HVTCamera

/// What becomes of each frame that reaches a recording branch (``RecordingClock``), to the nanosecond.
struct RecordingClockTests {
  /// One frame at 25 fps, in nanoseconds.
  static let interval: UInt = 40_000_000
  /// Where the camera's running time stands when the recording begins.
  static let origin: UInt = 7_000_000_123

  /// Frame `index` of the camera from `origin`, with its driver's sequence number.
  func frame(_ index: UInt, sequence: UInt? = nil, key: Bool = true) -> RecordingClock.Frame {
    RecordingClock.Frame(
      time: Self.origin + index * Self.interval, duration: Self.interval, sequence: sequence ?? index, isKeyFrame: key)
  }

  /// Where a kept frame starts in the movie, or `nil` for another verdict.
  func start(_ verdict: RecordingClock.Verdict) -> UInt? {
    if case .keep(let kept) = verdict { kept.start } else { nil }
  }

  @Test("the movie starts at 0 with its first frame; each frame after it keeps its distance, to the nanosecond")
  func rebasing() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    let pauses = RecordingPauses()
    guard case .keep(let first) = clock.admit(frame(0), soundStart: nil, pauses: pauses) else {
      Issue.record("the first frame is not kept")
      return
    }
    #expect(first == .init(base: Self.origin, shift: 0, start: 0, isFirst: true))
    let second = clock.admit(frame(1), soundStart: nil, pauses: pauses)
    #expect(second == .keep(.init(base: Self.origin, shift: 0, start: Self.interval, completesMinimum: true)))
    #expect(start(clock.admit(frame(2), soundStart: nil, pauses: pauses)) == 2 * Self.interval)
    #expect(clock.frames == 3 && clock.end == 3 * Self.interval && clock.firstTimestamp == Self.origin)
  }

  @Test("written back in the stream's segment: an encoder's segment (1000 h) and its decoding timestamps")
  func segmentTerms() {
    let segment = StreamSegment(start: 3_600_000_000_000_000, base: 5_000_000_000)
    let kept = RecordingClock.Kept(base: 6_000_000_000, shift: 200_000_000, start: 1_000_000_000)
    #expect(kept.presentationTime(in: segment) == 3_600_001_000_000_000)
    // Decoded 40 ms before it is shown: running time 7.16 s, 6.96 s after the pause, 0.96 s into the movie.
    #expect(kept.decodingTime(3_600_002_160_000_000, in: segment) == 3_600_000_960_000_000)
    #expect(kept.decodingTime(ClockTime.none, in: segment) == nil)
    #expect(kept.decodingTime(1, in: segment) == nil, "from before the segment")
  }

  @Test("the frame whose start reaches the limit is dropped and reported once; every frame after it is dropped")
  func limit() {
    // 3 frames' worth: frames 0, 1 and 2 are kept; frame 3 starts at the limit.
    var clock = RecordingClock(limit: 3 * Self.interval, encoded: false)
    let pauses = RecordingPauses()
    for index: UInt in 0..<3 { #expect(start(clock.admit(frame(index), soundStart: nil, pauses: pauses)) != nil) }
    #expect(clock.admit(frame(3), soundStart: nil, pauses: pauses) == .drop(limitReached: true))
    #expect(clock.admit(frame(4), soundStart: nil, pauses: pauses) == .drop(limitReached: false))
    #expect(clock.frames == 3 && clock.end == 3 * Self.interval && clock.hasEnoughFrames)
    // One microsecond short of the limit counts as reaching it; two do not.
    #expect(RecordingClock.reachesLimit(start: 999_999_000, limit: 1_000_000_000))
    #expect(!RecordingClock.reachesLimit(start: 999_998_999, limit: 1_000_000_000))
  }

  @Test("with sound, a frame that ends by the sound's start is left out; the one it starts in begins the movie")
  func soundStart() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    let pauses = RecordingPauses()
    // The microphone's first sound one nanosecond into frame 2: frame 1 ends exactly at frame 2's start.
    let sound = Self.origin + 2 * Self.interval + 1
    #expect(clock.admit(frame(0), soundStart: sound, pauses: pauses) == .drop(limitReached: false))
    #expect(
      clock.admit(frame(1), soundStart: Self.origin + 2 * Self.interval, pauses: pauses) == .drop(limitReached: false))
    guard case .keep(let first) = clock.admit(frame(2), soundStart: sound, pauses: pauses) else {
      Issue.record("frame 2 is not kept")
      return
    }
    #expect(first.isFirst && first.base == Self.origin + 2 * Self.interval && first.start == 0)
    // Once the movie has begun, the sound no longer decides.
    #expect(start(clock.admit(frame(3), soundStart: sound, pauses: pauses)) == Self.interval)
  }

  @Test("encoded video begins with a key frame; one from before the sound asks the encoder for another")
  func encoded() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: true)
    let pauses = RecordingPauses()
    let sound = Self.origin + 3 * Self.interval
    #expect(clock.admit(frame(0, key: false), soundStart: nil, pauses: pauses) == .drop(limitReached: false))
    #expect(clock.admit(frame(1), soundStart: sound, pauses: pauses) == .dropAskingForKeyFrame)
    #expect(clock.admit(frame(2, key: false), soundStart: sound, pauses: pauses) == .drop(limitReached: false))
    #expect(start(clock.admit(frame(3), soundStart: sound, pauses: pauses)) == 0)
    #expect(start(clock.admit(frame(4, key: false), soundStart: sound, pauses: pauses)) == Self.interval)
  }

  @Test("a pause after the first two frames leaves frames out and closes the timestamps up over it")
  func pause() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    let pauses = RecordingPauses()
    // Asked for before the second frame: the movie still has its first two.
    _ = clock.admit(frame(0), soundStart: nil, pauses: pauses)
    pauses.request(paused: true)
    #expect(start(clock.admit(frame(1), soundStart: nil, pauses: pauses)) == Self.interval)
    #expect(
      clock.admit(frame(2), soundStart: nil, pauses: pauses) == .leaveOut(starting: true, elapsed: 2 * Self.interval))
    #expect(
      clock.admit(frame(3), soundStart: nil, pauses: pauses) == .leaveOut(starting: false, elapsed: 2 * Self.interval))
    pauses.request(paused: false)
    // Frames 2 and 3 left out: frame 4 takes frame 2's place, and says how long the pause was.
    let resumed = clock.admit(frame(4), soundStart: nil, pauses: pauses)
    #expect(
      resumed
        == .keep(
          .init(base: Self.origin, shift: 2 * Self.interval, start: 2 * Self.interval, resumedAfter: 2 * Self.interval))
    )
    #expect(clock.framesLostByDriver == 0, "the frames a pause leaves out are not lost")
  }

  @Test("after a pre-roll, a pause ends only with a key frame")
  func encodedResume() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: true)
    let pauses = RecordingPauses()
    _ = clock.admit(frame(0), soundStart: nil, pauses: pauses)
    _ = clock.admit(frame(1, key: false), soundStart: nil, pauses: pauses)
    pauses.request(paused: true)
    #expect(
      clock.admit(frame(2, key: false), soundStart: nil, pauses: pauses)
        == .leaveOut(starting: true, elapsed: 2 * Self.interval))
    pauses.request(paused: false)
    #expect(
      clock.admit(frame(3, key: false), soundStart: nil, pauses: pauses)
        == .leaveOut(starting: false, elapsed: 2 * Self.interval))
    #expect(start(clock.admit(frame(4), soundStart: nil, pauses: pauses)) == 2 * Self.interval)
  }

  @Test("gaps in the driver's sequence numbers are frames it lost; encoded video has none to count")
  func driverLoss() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    let pauses = RecordingPauses()
    for (index, sequence) in [(0, 10), (1, 11), (2, 14), (3, 15), (4, 20)] as [(UInt, UInt)] {
      _ = clock.admit(frame(index, sequence: sequence), soundStart: nil, pauses: pauses)
    }
    #expect(clock.framesLostByDriver == 6 && clock.lastSequence == 20)
    var unnumbered = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    for index: UInt in 0..<3 {
      _ = unnumbered.admit(
        .init(time: Self.origin + index * Self.interval, duration: Self.interval), soundStart: nil, pauses: pauses)
    }
    #expect(unnumbered.framesLostByDriver == 0 && unnumbered.lastSequence == nil)
  }

  @Test("each whole second is reported once, by the frame whose end reaches it")
  func seconds() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    let pauses = RecordingPauses()
    let reported = (0..<60).compactMap { (index: UInt) -> Int? in
      if case .keep(let kept) = clock.admit(frame(index), soundStart: nil, pauses: pauses) {
        kept.newSecond
      } else {
        nil
      }
    }
    // At 25 fps, frame 24 ends at 1 s and frame 49 at 2 s.
    #expect(reported == [1, 2])
  }

  @Test("a failed branch drops every frame from then on, without reporting a limit")
  func failed() {
    var clock = RecordingClock(limit: 10 * 1_000_000_000, encoded: false)
    let pauses = RecordingPauses()
    _ = clock.admit(frame(0), soundStart: nil, pauses: pauses)
    clock.fail()
    #expect(clock.admit(frame(1), soundStart: nil, pauses: pauses) == .drop(limitReached: false))
    #expect(clock.frames == 1 && !clock.hasEnoughFrames)
  }

  @Test(
    "an encoder that takes nothing: every frame until two thirds of the backlog, every other one until it is full, none then; each left out with its timestamp kept and its sequence not counted as the driver's loss"
  )
  func overloaded() {
    // Ten frames' worth of bytes: 0-6 go in (the seventh reaches 70 %), then every other one up to 100 %.
    var clock = RecordingClock(
      limit: 10 * 1_000_000_000, encoded: false,
      backlog: .init(bytes: 1_000, time: 60 * 1_000_000_000, drain: 1_000_000_000))
    let pauses = RecordingPauses()
    var verdicts: [RecordingClock.Verdict] = []
    for index: UInt in 0..<30 {
      var next = frame(index)
      next.bytes = 100
      verdicts.append(clock.admit(next, soundStart: nil, pauses: pauses))
    }
    let kept = verdicts.indices.filter { start(verdicts[$0]) != nil }
    #expect(kept == [0, 1, 2, 3, 4, 5, 6, 8, 10, 12], "\(verdicts)")
    // Kept frames start where their own time says: a gap over each one left out.
    #expect(start(verdicts[8]) == 8 * Self.interval && start(verdicts[12]) == 12 * Self.interval)
    // Reported for the first left out (frame 7, in the movie's first second), then for the first in second 1
    // (frame 25, at 1 s).
    #expect(verdicts[7] == .leaveOutForEncoder(report: true, dropped: 1, elapsed: 7 * Self.interval))
    #expect(verdicts[9] == .leaveOutForEncoder(report: false, dropped: 2, elapsed: 9 * Self.interval))
    #expect(verdicts[25] == .leaveOutForEncoder(report: true, dropped: 16, elapsed: 25 * Self.interval))
    #expect(clock.frames == 10 && clock.backlog.dropped == 20 && clock.framesLostByDriver == 0)
    #expect(clock.end == 13 * Self.interval, "the last frame kept, 12, ends the movie so far")
  }

  @Test("as the encoder takes frames the backlog drains: every frame again once it is under a third")
  func recovers() {
    var clock = RecordingClock(
      limit: 10 * 1_000_000_000, encoded: false,
      backlog: .init(bytes: 1_000, time: 60 * 1_000_000_000, drain: 1_000_000_000))
    let pauses = RecordingPauses()
    func admit(_ index: UInt) -> Bool {
      var next = frame(index)
      next.bytes = 100
      return start(clock.admit(next, soundStart: nil, pauses: pauses)) != nil
    }
    for index: UInt in 0..<7 { #expect(admit(index)) }
    #expect(!admit(7) && admit(8) && clock.backlog.thinning)
    // The encoder takes four (800 → 400 bytes: still over a third): every other frame still.
    for _ in 0..<4 { _ = clock.leaveQueue(bytes: 100, duration: Self.interval, end: 0, at: 0) }
    #expect(!admit(9) && admit(10))
    // Two more (500 → 300): under a third, every frame again.
    for _ in 0..<2 { _ = clock.leaveQueue(bytes: 100, duration: Self.interval, end: 0, at: 0) }
    #expect(admit(11) && admit(12) && !clock.backlog.thinning)
    #expect(clock.backlog.frames == 5 && clock.backlog.bytes == 500 && clock.backlog.dropped == 2)
  }

  @Test(
    "the time limit bounds the backlog too; the first frame goes in whatever its size; encoded frames never wait on it")
  func backlogLimits() {
    // 3 frames' time: the third reaches two thirds.
    var timed = RecordingClock(
      limit: 10 * 1_000_000_000, encoded: false,
      backlog: .init(bytes: 1 << 30, time: 3 * Self.interval, drain: 1_000_000_000))
    let pauses = RecordingPauses()
    let timedKept = (0..<6).map { (index: UInt) in
      start(timed.admit(frame(index), soundStart: nil, pauses: pauses)) != nil
    }
    #expect(timedKept == [true, true, false, true, false, false], "\(timedKept)")
    var huge = RecordingClock(
      limit: 10 * 1_000_000_000, encoded: false, backlog: .init(bytes: 10, time: Self.interval, drain: 1))
    var first = frame(0)
    first.bytes = 1_000
    #expect(start(huge.admit(first, soundStart: nil, pauses: pauses)) == 0)
    var encoded = RecordingClock(limit: 10 * 1_000_000_000, encoded: true, backlog: .init(bytes: 10, time: 1, drain: 1))
    for index: UInt in 0..<10 {
      var next = frame(index)
      next.bytes = 1_000
      #expect(start(encoded.admit(next, soundStart: nil, pauses: pauses)) != nil)
    }
    #expect(encoded.backlog.dropped == 0)
  }

  @Test(
    "once the encoder has shown how long a frame takes it (the median gap between frames going to it with others waiting; one stall does not count), no more wait at the queue's output than it takes in a second: the oldest are left out"
  )
  func drainBound() {
    var backlog = RecordingBacklog(limit: .init(bytes: 1 << 30, time: 60 * 1_000_000_000, drain: 1_000_000_000))
    let waiting = (0..<12).map { _ in backlog.admit(bytes: 100, duration: Self.interval) }
    #expect(waiting.allSatisfy { $0 })
    #expect(backlog.drainFrames == nil, "nothing known of the encoder before a frame went to it")
    // The encoder takes one every 125 ms (8 a second) with others behind it, and stalls 900 ms once.
    let releases: [UInt] = [0, 125, 250, 1_150, 1_275, 1_400].map { 1_000_000_000 + $0 * 1_000_000 }
    let went = releases.map { backlog.release(bytes: 100, duration: Self.interval, at: $0) }
    #expect(went.allSatisfy { $0 } && backlog.encodingTime == 125_000_000 && backlog.drainFrames == 8)
    // Twelve wait again: the four oldest are left out as they leave, until eight wait behind the next.
    let more = (0..<6).map { _ in backlog.admit(bytes: 100, duration: Self.interval) }
    #expect(more.allSatisfy { $0 } && backlog.frames == 12)
    let next = (0..<5).map { index in backlog.release(bytes: 100, duration: Self.interval, at: 2_000_000_000 + index) }
    #expect(next == [false, false, false, false, true] && backlog.droppedAtOutput == 4 && backlog.frames == 7)
    // A frame that leaves an empty queue says nothing of the encoder.
    var idle = RecordingBacklog(limit: .standard)
    let idleWent = [
      idle.admit(bytes: 1, duration: Self.interval), idle.release(bytes: 1, duration: Self.interval, at: 5),
      idle.admit(bytes: 1, duration: Self.interval), idle.release(bytes: 1, duration: Self.interval, at: 4_000_000_000),
    ]
    #expect(idleWent.allSatisfy { $0 } && idle.encodingTime == nil && idle.frames == 0)
    // However slow the encoder, four frames may wait.
    var slow = RecordingBacklog(limit: .standard)
    let slowWent = (0..<8).map { _ in slow.admit(bytes: 1, duration: Self.interval) }
    let slowReleased = (0..<6).map { (index: UInt) in
      slow.release(bytes: 1, duration: Self.interval, at: index * 10_000_000_000)
    }
    #expect(slowWent.allSatisfy { $0 } && slowReleased.allSatisfy { $0 })
    #expect(slow.drainFrames == RecordingBacklog.minimumFrames)
  }

  @Test("the movie's first frames always go to the encoder, and the written movie ends with the last that went")
  func firstFramesGo() {
    var clock = RecordingClock(
      limit: 10 * 1_000_000_000, encoded: false, backlog: .init(bytes: 1 << 30, time: 60 * 1_000_000_000, drain: 1))
    let pauses = RecordingPauses()
    for index: UInt in 0..<20 { _ = clock.admit(frame(index), soundStart: nil, pauses: pauses) }
    // Ten busy gaps of 1 s: the encoder takes a frame a second, and four may wait.
    let went = (0..<12).map { (index: UInt) in
      clock.leaveQueue(bytes: 0, duration: Self.interval, end: (index + 1) * Self.interval, at: index * 1_000_000_000)
        .goes
    }
    #expect(went.prefix(RecordingClock.minimumFrames).allSatisfy { $0 } && went.contains(false), "\(went)")
    #expect(clock.backlog.drainFrames == RecordingBacklog.minimumFrames)
    let last = went.lastIndex(of: true) ?? 0
    #expect(clock.encodedEnd == UInt(last + 1) * Self.interval && clock.end == 20 * Self.interval)
  }
}
