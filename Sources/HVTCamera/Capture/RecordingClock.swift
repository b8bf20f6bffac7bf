import HVTGStreamer

/// The clock of one recording: what becomes of each frame that reaches the recording branch's entry, in
/// the pipeline's running time (nanoseconds). A value, and its one decision (``admit(_:soundStart:pauses:)``)
/// a pure function of it, the frame, the sound's start and the recording's ``RecordingPauses``: the probe
/// at the branch's entry only reads the buffer, asks, and applies the verdict (`RecordingBranch`).
///
/// The movie starts at 0 with its first frame kept: a frame ending before the microphone's first sound
/// is left out (with sound, the movie starts no earlier than one frame before it), and encoded video
/// begins with a key frame. After its first ``minimumFrames`` frames, a pause leaves frames out and the
/// timestamps after it close up over it. The first frame whose start reaches the maximum duration is
/// dropped, and every frame after it: the movie lasts exactly that long. With a bounded backlog
/// (``HVTSlowEncoderPolicy/leaveFramesOut``), a raw frame the encoder has no room for is left out by the
/// ``RecordingBacklog`` policy, the others' timestamps untouched. The driver's sequence numbers tell the
/// frames it lost.
struct RecordingClock: Sendable {
  /// What the probe reads of one frame.
  struct Frame: Sendable, Equatable {
    /// Its running time (nanoseconds).
    var time: UInt
    /// How long it lasts: its own duration, or a frame interval when it carries none.
    var duration: UInt
    /// The driver's sequence number (`GST_BUFFER_OFFSET`, V4L2's `sequence`); `nil` when it has none, and
    /// for encoded video, whose offsets are not the driver's.
    var sequence: UInt?
    /// Not a delta unit: encoded video can begin (or go on after a pause) with it. Raw frames are all key
    /// frames.
    var isKeyFrame = true
    /// Its size in bytes: what it adds to the encoder's backlog.
    var bytes = 0
  }

  /// What becomes of a frame.
  enum Verdict: Sendable, Equatable {
    /// It goes into the movie.
    case keep(Kept)
    /// It is dropped; `limitReached` when it is the frame that reached the maximum duration (the recording
    /// should stop).
    case drop(limitReached: Bool)
    /// It is dropped, and the encoder is to be asked for a key frame to begin the movie with (encoded video
    /// from before the sound).
    case dropAskingForKeyFrame
    /// A pause leaves it out; `starting` when it begins the pause, `elapsed` nanoseconds into the movie.
    case leaveOut(starting: Bool, elapsed: UInt)
    /// The encoder has no room for it (``RecordingBacklog``): it is left out, `elapsed` nanoseconds into the
    /// movie, the `dropped`-th so far; `report` for the first, and the first in each whole second after.
    case leaveOutForEncoder(report: Bool, dropped: Int, elapsed: UInt)
  }

  /// A frame kept: where it goes in the movie, and what it changes.
  struct Kept: Sendable, Equatable {
    /// The running time the movie starts at (its first frame kept).
    var base: UInt
    /// How much earlier its timestamps go: the pauses before it.
    var shift: UInt
    /// Where it starts in the movie, from its start.
    var start: UInt
    /// It is the movie's first frame.
    var isFirst = false
    /// With it the movie has ``RecordingClock/minimumFrames`` frames: a stop can make a movie that plays.
    var completesMinimum = false
    /// The whole second of the movie it reaches, the first time one is reached.
    var newSecond: Int?
    /// The length of the pause it ends, when it ends one.
    var resumedAfter: UInt?
    /// The frames left out for an encoder so far, when frames an encoder before the branch left out just
    /// before it are to be reported (the first, then the first in each whole second).
    var droppedSoFar: Int?

    /// Its presentation timestamp, in the terms of `segment` (the stream's own).
    func presentationTime(in segment: StreamSegment) -> UInt { segment.start + start }

    /// Its decoding timestamp `decoding` (in `segment`'s terms) moved as its presentation timestamp is;
    /// `nil` for none (or one from before the segment), which stays as it is.
    func decodingTime(_ decoding: UInt, in segment: StreamSegment) -> UInt? {
      guard ClockTime.isValid(decoding), decoding >= segment.start else { return nil }
      let running = decoding - segment.start + segment.base
      let moved = running >= shift ? running - shift : 0
      return segment.start + (moved >= base ? moved - base : 0)
    }
  }

  /// The frames a stop waits for: a one-frame H.264 movie is valid, but some decoders (`openh264dec`, the
  /// one Debian's plugins-bad ships) output nothing for it.
  static let minimumFrames = 2

  /// How close to the maximum duration a frame's start counts as reaching it (nanoseconds). Frame times
  /// are whole nanoseconds rounded from the frame rate (33333333, 66666666, 100000000… at 30 fps), and a
  /// pause's shift is the difference of two of them: after one, the frame that is the limit's own in
  /// frames can start a nanosecond or two before it, and was kept (a 3 s movie of 91 frames ending at
  /// 3.033 s, seen under load). One microsecond is far below any frame interval.
  static let limitSlack: UInt = 1_000

  /// Whether a frame starting `start` nanoseconds into the movie reaches the maximum duration `limit`
  /// (within ``limitSlack``): it is dropped, and the movie ends before it.
  static func reachesLimit(start: UInt, limit: UInt) -> Bool { start &+ limitSlack >= limit }

  /// The maximum duration (nanoseconds).
  let limit: UInt
  /// The frames come encoded (a pre-roll's, the streams' encoder's).
  let encoded: Bool
  /// The running time of the movie's first frame, once kept.
  private(set) var base: UInt?
  /// Frames kept at the branch's entry (some may yet be left out at its queue's output:
  /// ``RecordingBacklog/droppedAtOutput``).
  private(set) var frames = 0
  /// The end of the last frame kept, from the movie's start (nanoseconds).
  private(set) var end: UInt = 0
  /// The end of the last frame that went to the encoder, from the movie's start (nanoseconds): the written
  /// movie's, once the branch drained, when frames were left out at the queue's output.
  private(set) var encodedEnd: UInt = 0
  /// The movie's first frame's running time, after the pauses before it (none: the first cannot pause).
  private(set) var firstTimestamp: UInt?
  /// Frames the driver lost: gaps in the sequence numbers of the frames that reached the branch.
  private(set) var framesLostByDriver = 0
  /// The sequence number of the last frame that reached the branch (kept or left out by a pause).
  private(set) var lastSequence: UInt?
  /// A frame reached the maximum duration: every frame is dropped from then on.
  private(set) var limitReached = false
  /// An element of the branch failed: every frame is dropped from then on, so that the tee, which stops
  /// on the first fatal flow return of any branch, keeps feeding the camera's other branches.
  private(set) var failed = false
  /// The last whole second reported.
  private var reportedSeconds = 0
  /// The frames waiting for the encoder, and the policy that leaves frames out when it cannot keep up; no
  /// limit for encoded frames, which depend on each other.
  private(set) var backlog: RecordingBacklog
  /// The whole second of the movie in which frames left out for the encoder were last reported.
  private var reportedDropSecond: Int?
  /// Frames an encoder before the branch (a pre-roll's, the streams': ``ContinuousEncoderBacklog``) left
  /// out between the movie's frames.
  private(set) var droppedUpstream = 0
  /// The running time of the last frame that reached the branch since the movie began (kept, or left out
  /// by a pause).
  private(set) var lastFrameTime: UInt?

  /// Frames the movie is missing because an encoder could not keep up: left out by its backlog, or
  /// before the branch.
  var framesDroppedForEncoder: Int { backlog.dropped + droppedUpstream }

  /// A clock for a movie of at most `limit` nanoseconds, of frames that come `encoded` or not; raw frames
  /// wait for the encoder up to `backlog` (`nil`: every frame is kept, ``HVTSlowEncoderPolicy/keepEveryFrame``).
  init(limit: UInt, encoded: Bool, backlog: RecordingBacklog.Limit? = nil) {
    self.limit = limit
    self.encoded = encoded
    self.backlog = RecordingBacklog(limit: encoded ? nil : backlog)
  }

  /// A frame of `bytes` bytes lasting `duration` nanoseconds, ending `end` nanoseconds into the movie,
  /// leaves the branch's queue at `now` (nanoseconds on a monotonic clock): whether it goes to the encoder
  /// (``RecordingBacklog/release(bytes:duration:at:)``), and when it does not, whether that is to be
  /// reported (as ``Verdict/leaveOutForEncoder(report:dropped:elapsed:)`` says).
  mutating func leaveQueue(bytes: Int, duration: UInt, end: UInt, at now: UInt) -> (goes: Bool, report: Bool) {
    guard backlog.release(bytes: bytes, duration: duration, at: now) else {
      return (false, reportsDrop(at: end >= duration ? end - duration : 0))
    }
    encodedEnd = max(encodedEnd, end)
    return (true, false)
  }

  /// Whether a frame left out for the encoder `elapsed` nanoseconds into the movie is to be reported: the
  /// first, and the first in each whole second after.
  private mutating func reportsDrop(at elapsed: UInt) -> Bool {
    let second = Int(ClockTime.seconds(elapsed))
    let report = reportedDropSecond.map { second > $0 } ?? true
    if report { reportedDropSecond = second }
    return report
  }

  /// Whether a stop now makes a movie that plays (or the movie is over anyway).
  var hasEnoughFrames: Bool { frames >= Self.minimumFrames || limitReached }

  /// Drops every frame from now on: the branch failed.
  mutating func fail() { failed = true }

  /// The verdict on `frame`, the next to reach the branch (frames come in order); `soundStart` is the
  /// running time of the microphone's first sound, when the movie has sound and it has come.
  /// `leftOut(after:through:)` counts the frames an encoder before the branch left out with running
  /// times in a span (``ContinuousEncoderBacklog/drops(after:through:)``): those after ``lastFrameTime``
  /// and before the frame — and before the maximum duration, for the frame that reaches it — are missing
  /// from the movie (``droppedUpstream``), unless the frame is its first or ends a pause.
  mutating func admit(
    _ frame: Frame, soundStart: UInt?, pauses: RecordingPauses, leftOut: ((UInt, UInt) -> Int)? = nil
  ) -> Verdict {
    if limitReached || failed { return .drop(limitReached: false) }
    if base == nil {
      // Encoded video begins with a key frame; a frame wholly before the sound is left out (and the
      // encoder asked for another key frame).
      if encoded, !frame.isKeyFrame { return .drop(limitReached: false) }
      if let soundStart, frame.time &+ frame.duration <= soundStart {
        return encoded ? .dropAskingForKeyFrame : .drop(limitReached: false)
      }
    }
    var kept = Kept(base: 0, shift: 0, start: 0)
    // A movie has its first two frames before it can pause, so that a stop while paused makes one that
    // plays; after a pre-roll it goes on again with a key frame.
    if frames >= Self.minimumFrames {
      switch pauses.frame(at: frame.time, canResume: !encoded || frame.isKeyFrame) {
      case .leaveOut(let starting):
        // The driver's sequence goes on through a pause: the frames left out are not lost.
        if let sequence = frame.sequence { lastSequence = sequence }
        lastFrameTime = frame.time
        return .leaveOut(starting: starting, elapsed: end)
      case .keep(let shift, let resumedAfter):
        (kept.shift, kept.resumedAfter) = (shift, resumedAfter)
      }
    }
    let time = frame.time - kept.shift
    kept.isFirst = base == nil
    kept.base = base ?? time
    base = kept.base
    kept.start = time >= kept.base ? time - kept.base : 0
    // The frames left out before this one, within the movie's time.
    let leftOutBefore =
      kept.isFirst || kept.resumedAfter != nil
      ? 0
      : lastFrameTime.flatMap { last in leftOut?(last, min(frame.time, kept.base &+ kept.shift &+ limit) &- 1) } ?? 0
    if Self.reachesLimit(start: kept.start, limit: limit) {
      droppedUpstream += leftOutBefore
      limitReached = true
      return .drop(limitReached: true)
    }
    if let sequence = frame.sequence {
      if let lastSequence, sequence > lastSequence + 1 { framesLostByDriver += Int(sequence - lastSequence - 1) }
      lastSequence = sequence
    }
    // The movie's first frame, and the one a pause ends with, always go in: what they begin is reported.
    let mustGoIn = kept.isFirst || kept.resumedAfter != nil
    if !backlog.admit(bytes: frame.bytes, duration: frame.duration, always: mustGoIn) {
      return .leaveOutForEncoder(
        report: reportsDrop(at: kept.start), dropped: framesDroppedForEncoder, elapsed: kept.start)
    }
    frames += 1
    lastFrameTime = frame.time
    if leftOutBefore > 0 {
      droppedUpstream += leftOutBefore
      if reportsDrop(at: kept.start) { kept.droppedSoFar = framesDroppedForEncoder }
    }
    end = kept.start &+ frame.duration
    if kept.isFirst { firstTimestamp = time }
    let seconds = Int(ClockTime.seconds(end))
    if seconds > reportedSeconds {
      reportedSeconds = seconds
      kept.newSecond = seconds
    }
    kept.completesMinimum = frames == Self.minimumFrames
    return .keep(kept)
  }
}
