import HVTGStreamer

/// The raw frames a recording handed to its encoder that the encoder has not taken yet — those waiting in
/// the branch's queue —, counted as they enter (the probe at the branch's entry) and as they leave (a probe
/// at the queue's output), and what becomes of each. A value, and its decisions
/// (``admit(bytes:duration:always:)``, ``release(bytes:duration:at:)``) pure functions of it.
///
/// The camera's streaming thread never waits for an encoder: when the encoder cannot keep up, frames are
/// left out by this policy instead of the `tee` waiting on a full queue, the others' timestamps untouched,
/// so that the movie keeps a true timeline at the rate the machine can encode.
/// - At the branch's entry, the backlog is bounded by ``Limit/bytes`` and ``Limit/time`` of frames, so that
///   memory stays bounded at any frame size (``Limit/standard``: 256 MiB or 3 s, about 20 frames of 4K
///   I420, 12.4 MB each; 2.7 s at 1080p; 3 s below): under two thirds of the bound every frame goes in;
///   from two thirds every other one (half the frame rate, evenly, rather than bursts), until the backlog
///   is back under a third; a frame that would take it past the bound does not go in.
/// - At the queue's output, once the encoder has shown how long it takes a frame, no more frames wait than
///   it takes in ``Limit/drain`` (at least ``minimumFrames``): a frame leaving with more than that behind it
///   is left out rather than encoded, the oldest first, so that a stop never waits long for the encoder.
///   How long a frame takes is the median of the latest ``measuredGaps`` gaps between frames going to
///   the encoder while others waited: one stall of a loaded machine (the encoder's thread not scheduled
///   for half a second) leaves nothing out; an encoder slow for half of them does.
struct RecordingBacklog: Sendable {
  /// How much may wait for the encoder.
  struct Limit: Sendable, Hashable {
    /// Bytes of frames.
    var bytes: Int
    /// Nanoseconds of frames (their durations added up).
    var time: UInt
    /// Nanoseconds the encoder may need to take every frame waiting: about how long a stop waits for it.
    var drain: UInt

    /// 256 MiB, 3 s of frames, 1 s of encoding: an encoder's slow start (x264's first frame on a loaded
    /// machine) loses nothing, a 4K backlog stays about 20 frames, and a stopped movie is complete about a
    /// second later whatever the encoder's speed.
    static let standard = Limit(bytes: 256 << 20, time: 3_000_000_000, drain: 1_000_000_000)

    /// How frames are left out under this limit at the ends of `queues`, for `hvtcam describe --engine`:
    /// `frames left out at the ends of recording-queue (HVTSlowEncoderPolicy.leaveFramesOut): …`.
    func summary(queues: [String]) -> String {
      let (mebibytes, seconds, drain) = (bytes >> 20, ClockTime.seconds(time), ClockTime.seconds(drain))
      return "frames left out at the ends of \(queues.joined(separator: ", ")) "
        + "(HVTSlowEncoderPolicy.leaveFramesOut): at a queue's input, "
        + "every other frame once \(mebibytes * 2 / 3) MiB or \(Self.format(seconds * 2 / 3)) s of frames wait, "
        + "until under a third of that, none at \(mebibytes) MiB or \(Self.format(seconds)) s; at its output, the "
        + "oldest when more wait than the encoder takes in \(Self.format(drain)) s"
    }

    /// Seconds with at most one decimal: `3`, `1.5`.
    private static func format(_ seconds: Double) -> String {
      let tenths = (seconds * 10).rounded()
      return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }
  }

  /// The fewest frames the output's bound allows to wait, however slow the encoder.
  static let minimumFrames = 4
  /// How many of the latest gaps between frames going to a busy encoder ``encodingTime`` is the median of.
  static let measuredGaps = 15
  /// How many gaps ``encodingTime`` waits for.
  static let leastGaps = 5

  /// How much may wait; `nil` for no limit (encoded frames, which cannot be left out one by one).
  let limit: Limit?
  /// Frames waiting.
  private(set) var frames = 0
  /// Their bytes.
  private(set) var bytes = 0
  /// Their durations, added up (nanoseconds).
  private(set) var time: UInt = 0
  /// Frames left out at the entry.
  private(set) var droppedAtEntry = 0
  /// Frames left out at the queue's output.
  private(set) var droppedAtOutput = 0
  /// Every other frame is left out at the entry (from two thirds of the bound, until a third).
  private(set) var thinning = false
  /// While thinning: the last frame went in, so the next is left out.
  private var lastWentIn = false
  /// Frames that went to the encoder.
  private(set) var released = 0
  /// The latest gaps between frames going to a busy encoder (nanoseconds), oldest first.
  private var gaps: [UInt] = []
  /// When the last frame went to the encoder (nanoseconds, on the caller's monotonic clock), and whether
  /// others waited behind it (so that the next one's gap is the encoder's time for it).
  private var lastRelease: (time: UInt, busy: Bool)?

  /// A backlog bounded by `limit` (`nil`: unbounded).
  init(limit: Limit?) {
    self.limit = limit
  }

  /// Frames left out, at the entry and at the output.
  var dropped: Int { droppedAtEntry + droppedAtOutput }

  /// How long the encoder takes a frame (nanoseconds): the median of the latest gaps between frames going
  /// to it while others waited; `nil` before ``leastGaps`` of them.
  var encodingTime: UInt? {
    guard gaps.count >= Self.leastGaps else { return nil }
    return gaps.sorted()[gaps.count / 2]
  }

  /// The most frames that may wait at the output: what the encoder takes in ``Limit/drain``, once it has
  /// shown how long one takes.
  var drainFrames: Int? {
    guard let limit, let encodingTime else { return nil }
    return max(Self.minimumFrames, Int(limit.drain / max(encodingTime, 1)))
  }

  /// How full the entry's bound is with one more frame of `bytes` and `time` (none: as it is): 1 is full.
  private func fill(adding bytes: Int = 0, _ time: UInt = 0) -> Double {
    guard let limit else { return 0 }
    return max(
      Double(self.bytes + bytes) / Double(max(limit.bytes, 1)), Double(self.time &+ time) / Double(max(limit.time, 1)))
  }

  /// At the entry: whether a frame of `bytes` bytes lasting `duration` nanoseconds goes into the queue,
  /// counted in the backlog when it does, in ``droppedAtEntry`` when it does not. With `always`, it goes
  /// in whatever the backlog.
  mutating func admit(bytes: Int, duration: UInt, always: Bool = false) -> Bool {
    let now = fill()
    if thinning, now <= 1.0 / 3 { thinning = false }
    if !thinning, now >= 2.0 / 3 { (thinning, lastWentIn) = (true, true) }
    let goesIn = always || (fill(adding: bytes, duration) <= 1 && !(thinning && lastWentIn))
    lastWentIn = goesIn
    guard goesIn else {
      droppedAtEntry += 1
      return false
    }
    frames += 1
    self.bytes += bytes
    time &+= duration
    return true
  }

  /// At the queue's output, at `now` (nanoseconds on a monotonic clock): whether the frame of `bytes`
  /// bytes lasting `duration` nanoseconds leaving it goes to the encoder, or is left out (counted in
  /// ``droppedAtOutput``) because more frames wait behind it than the encoder takes in ``Limit/drain``.
  /// The movie's first ``RecordingClock/minimumFrames`` always go.
  mutating func release(bytes: Int, duration: UInt, at now: UInt) -> Bool {
    frames = max(frames - 1, 0)
    self.bytes = max(self.bytes - bytes, 0)
    time = time >= duration ? time - duration : 0
    if released >= RecordingClock.minimumFrames, let drainFrames, frames >= drainFrames {
      droppedAtOutput += 1
      return false
    }
    if let lastRelease, lastRelease.busy, now > lastRelease.time {
      gaps.append(now - lastRelease.time)
      if gaps.count > Self.measuredGaps { gaps.removeFirst() }
    }
    lastRelease = (now, frames > 0)
    released += 1
    return true
  }
}

extension HVTSlowEncoderPolicy {
  /// How much may wait for an encoder under this policy: ``RecordingBacklog/Limit/standard`` leaving frames
  /// out, `nil` (no limit: the camera waits) keeping every frame.
  var backlog: RecordingBacklog.Limit? { self == .leaveFramesOut ? .standard : nil }
}
