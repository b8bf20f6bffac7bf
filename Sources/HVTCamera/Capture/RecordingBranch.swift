import Foundation
import HVTGStreamer
import HVTSupport

/// The movie branch: `tee → queue ! … ! muxer ! filesink` in a bin of its own, added to the running
/// pipeline on start and drained with EOS on stop, while the source and preview keep running.
///
/// A probe at the branch's entry rewrites timestamps to start at zero and enforces the maximum duration
/// on them: the first buffer whose timestamp reaches the limit is dropped, so the file is exactly as
/// long as allowed. Probes only record facts and report them through `onEvent`; nothing here waits:
/// the controller learns that the branch drained from the ``Event/drained`` event, and judges a drain's
/// progress from ``lastProgress``.
///
/// `@unchecked Sendable`: its variables are written only by ``attach(to:)`` and ``remove(from:)``, on the controller's
/// worker queue (asserted in debug builds); what the probes record is `Locked`.
final class RecordingBranch: @unchecked Sendable {
  /// What the branch reports from its streaming threads.
  enum Event: Sendable {
    /// The first frame entered the branch.
    case started
    /// The branch holds ``RecordingClock/minimumFrames`` frames: a stop can now make a movie that plays.
    case enoughFrames
    /// Whole seconds recorded so far.
    case progress(elapsed: Double)
    /// A frame reached the maximum duration; the recording should stop.
    case limitReached
    /// The end of stream reached the file sink: the muxer has written everything.
    case drained
    /// The movie is recorded without sound: why (the microphone did not open or start).
    case audioUnavailable(reason: String)
    /// A pause began, `elapsed` seconds into the movie (``RecordingPauses``).
    case paused(elapsed: Double)
    /// The pause ended after `pausedFor` seconds; the movie goes on from `elapsed`.
    case resumed(elapsed: Double, pausedFor: Double)
    /// The encoder could not keep up: frames were left out (``RecordingBacklog``), `total` so far, the
    /// latest `elapsed` seconds into the movie. Sent for the first, then at most once a second.
    case framesDropped(total: Int, elapsed: Double)
  }

  /// What was written.
  struct Summary: Sendable {
    /// Frames that went into the movie (its encoder).
    var frames = 0
    /// Frames the movie is missing because the encoder could not keep up: left out at the branch
    /// (``RecordingBacklog``), or before it by the encoder it takes encoded video from
    /// (``ContinuousEncoderBacklog``).
    var framesDroppedForEncoder = 0
    /// Timestamp of the end of the last frame, from the first frame's start (seconds).
    var duration = 0.0
    /// Running time of the first frame (nanoseconds).
    var firstTimestamp: UInt?
    /// When the first frame entered the encoder.
    var encodingStartedAt: ContinuousClock.Instant?
    /// Frames the camera's driver lost while recording: gaps in the sequence numbers of the frames that
    /// entered the branch (`GST_BUFFER_OFFSET`, set from V4L2's `sequence` by `v4l2src`).
    var framesLostByDriver = 0
    /// Seconds of sound, from the movie's start to the end of its last sound; `nil` for a silent movie.
    var audioDuration: Double?
    /// How many times the recording was paused.
    var pauses = 0
    /// Seconds of the camera's time the pauses that ended left out.
    var pausedDuration = 0.0
  }

  /// What the branch's probes record, behind one lock.
  private struct Timing {
    /// What becomes of each frame (``RecordingClock``).
    var clock: RecordingClock
    /// When the first frame entered the encoder.
    var encodingStartedAt: ContinuousClock.Instant?
    /// When a buffer last entered the encoder or the file sink: how a drain tells progress from a stall.
    var lastProgress: ContinuousClock.Instant?
    /// The movie's first frame and its caps, until ``RecordingBranch/takeFirstFrame()``.
    var firstFrame: (buffer: Buffer, caps: Caps)?
    /// The time segment of encoded video from a pre-roll; the camera's frames are taken to be in running
    /// time.
    var segment = StreamSegment()
    /// The tags given to the muxer, dated with the movie's first frame.
    var writtenTags: CaptureTags?
    /// The end of stream reached the file sink.
    var drained = false
  }

  let file: CaptureFiles.Reservation
  /// The pipeline's running time (nanoseconds) when the branch was linked, its first frame chosen.
  private(set) var linkTime: UInt?
  /// The wall-clock time when the branch was linked.
  private(set) var linkDate = Date()
  private let bin: Bin
  /// Whether the bin is an ``ArmedRecording``'s, already in the pipeline and running.
  private let isArmed: Bool
  private let entry: Pad
  private var teePad: Pad?
  /// The tee ``teePad`` belongs to: the camera's, or the encoded tee of the ``feed``.
  private var feedingTee: Element?
  /// The controller's worker queue, the only one that attaches and removes the branch.
  private let worker: DispatchQueue
  private let timing: Locked<Timing>
  private let onEvent: @Sendable (Event) -> Void
  /// The movie's sound; `nil` for a silent movie.
  private let audio: RecordingAudio?
  /// The tags to write, dated when the branch is linked; `nil` to write none.
  private let tags: CaptureTags?
  /// The tags given to the muxer (dated with the movie's first frame), or `nil` when it writes none.
  var writtenTags: CaptureTags? { timing.withLock { $0.writtenTags } }
  /// The recording's pauses, which its frames and sound leave out.
  let pauses = RecordingPauses()
  /// Where the branch takes encoded video from (a pre-roll's or the streams' encoder's tee), or `nil` for a
  /// branch on the camera's tee that encodes the frames itself.
  private let feed: EncodedFeed?

  /// Whether the branch takes encoded video (``EncodedFeed``) rather than the camera's frames: its first
  /// frame comes encoded, and its thumbnail is made from the file.
  var takesEncodedVideo: Bool { feed != nil }

  /// Builds the branch (not yet attached): the model's recording chain, then a `filesink` writing to the
  /// reservation's partial file, and with `audio` the sound's chains (``RecordingAudio``). `limit` is the
  /// maximum duration in seconds; `frameInterval` the expected duration of a frame when buffers carry
  /// none. `tags` are given to the muxer (``CaptureTags/write(into:)``), dated with the movie's first
  /// frame. With `feed`, `chain` is the queue and muxer that take its encoded video
  /// (``HVTPipelineModel/encodedRecording(holding:)``). With `armed` (the camera's frames only), the
  /// branch is that bin, `chain` made and its encoder opened ahead (``ArmedRecording``): it adds the file
  /// sink. `worker` is the only queue that attaches and removes it.
  /// `onEvent` is called on streaming threads.
  init(
    chain: [HVTElementDescription], audio: HVTPipelineModel.Audio? = nil, feed: EncodedFeed? = nil,
    armed: ArmedRecording? = nil, file: CaptureFiles.Reservation, name: String, limit: Double,
    backlog: RecordingBacklog.Limit? = nil,
    frameInterval: Double, tags: CaptureTags? = nil, worker: DispatchQueue,
    onEvent: @escaping @Sendable (Event) -> Void
  ) throws {
    self.worker = worker
    self.file = file
    self.tags = tags
    self.onEvent = onEvent
    self.feed = feed
    timing = Locked(
      Timing(clock: RecordingClock(limit: ClockTime.from(seconds: limit), encoded: feed != nil, backlog: backlog)))
    isArmed = armed != nil
    // With a bounded backlog the queue's own limits are set past it, so that it never fills.
    let bounded = feed == nil ? backlog.map { HVTPipelineModel.encoderQueue(bounding: $0, chain) } : nil
    let descriptions = (bounded ?? chain) + [HVTPipelineModel.movieFileSink(location: file.partial.path)]
    let elements: [Element]
    if let armed {
      bin = armed.bin
      // The armed queue takes the policy's limits; the file sink follows the muxer.
      for property in bounded?.first?.properties ?? [] {
        try armed.elements[0].setProperty(property.name, fromString: property.value)
      }
      let rest = try ElementChain(Array(descriptions[armed.elements.count...]), in: bin)
      try armed.elements[armed.elements.count - 1].link(to: rest.first)
      elements = armed.elements + rest.elements
    } else {
      bin = Bin(name: name)
      elements = try ElementChain(descriptions, in: bin, link: feed == nil).elements
      if feed != nil { try Self.linkEncoded(elements) }
    }
    guard let entry = elements[0].staticPad("sink"), let fileSinkPad = elements[elements.count - 1].staticPad("sink"),
      let encoderPad = bin.element(named: HVTPipelineModel.movieEncoderName)?.staticPad("sink")
        ?? (feed == nil ? nil : entry)
    else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: name, pad: "sink"))
    }
    if armed == nil { try bin.addGhostPad("sink", target: entry) }
    self.entry = entry
    if let audio {
      // The video is held at the muxer's door: after the parser or the encoder, or after a pre-roll the
      // queue that takes its encoded frames.
      let feeding =
        bin.element(named: HVTPipelineModel.movieParserName) ?? bin.element(named: HVTPipelineModel.movieEncoderName)
        ?? (feed == nil ? nil : elements[0])
      guard let muxer = bin.element(named: HVTPipelineModel.muxerName), let video = feeding?.staticPad("src") else {
        throw HVTCameraError.pipelineSetupFailed(.missingPad(element: name, pad: HVTPipelineModel.muxerName))
      }
      self.audio = try RecordingAudio(
        audio, in: bin, muxer: muxer, limit: ClockTime.from(seconds: limit), gate: MuxerGate(holding: video),
        pauses: pauses, preRoll: feed?.sound
      ) { reason in onEvent(.audioUnavailable(reason: reason)) }
    } else {
      self.audio = nil
    }
    // Buffers entering the encoder (the branch, after a pre-roll) and the file sink show a drain's
    // progress; the first one into the encoder is the recording's start latency.
    encoderPad.addProbe([.buffer, .eventDownstream]) { [timing, path = bin.path] _, info in
      if info.event == .endOfStream { debugLog.log(.debug, "\(path): the end of stream reached the encoder") }
      guard info.buffer != nil else { return .ok }
      let now = ContinuousClock.now
      let first = timing.withLock { timing in
        defer { (timing.encodingStartedAt, timing.lastProgress) = (timing.encodingStartedAt ?? now, now) }
        return timing.encodingStartedAt == nil
      }
      // Not the bin itself: the probe, which its pad holds, would hold it.
      if first { debugLog.log(.debug, "\(path): the first frame entered the encoder") }
      return .ok
    }
    fileSinkPad.addProbe([.buffer, .eventDownstream]) { [timing, path = bin.path] _, info in
      if info.event == .endOfStream {
        timing.withLock { $0.drained = true }
        debugLog.log(.debug, "\(path): the end of stream reached the file")
        onEvent(.drained)
      } else if info.buffer != nil {
        let now = ContinuousClock.now
        timing.withLock { $0.lastProgress = now }
      }
      return .ok
    }
    let fallbackDuration = ClockTime.from(seconds: frameInterval)
    installTimestampProbe(fallbackDuration: fallbackDuration)
    if bounded != nil { try installBacklogProbe(on: elements[0], fallbackDuration: fallbackDuration) }
  }

  /// The probe at the output of the branch's queue (its first element): each raw frame leaving it leaves
  /// the recording's backlog, and goes to the encoder or is left out (``RecordingBacklog``).
  private func installBacklogProbe(on queue: Element, fallbackDuration: UInt) throws {
    guard let output = queue.staticPad("src") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: queue.path, pad: "src"))
    }
    output.addProbe(.buffer) { [timing, onEvent] _, info in
      guard let buffer = info.buffer else { return .ok }
      let duration = ClockTime.isValid(buffer.duration) ? buffer.duration : fallbackDuration
      let now = UInt(DispatchTime.now().uptimeNanoseconds)
      // The entry wrote the frame's movie time in the segment's terms.
      let (start, (goes, report), dropped) = timing.withLock { timing in
        let start = buffer.presentationTime >= timing.segment.start ? buffer.presentationTime - timing.segment.start : 0
        let verdict = timing.clock.leaveQueue(bytes: buffer.size, duration: duration, end: start &+ duration, at: now)
        return (start, verdict, timing.clock.framesDroppedForEncoder)
      }
      if report { onEvent(.framesDropped(total: dropped, elapsed: ClockTime.seconds(start))) }
      return goes ? .ok : .drop
    }
  }

  /// Links a branch that takes encoded video (queue, muxer, file sink): the queue's output carries any
  /// caps, so it is linked to the muxer's video pad by name (`video_%u`, in `mp4mux`, `qtmux`,
  /// `matroskamux` and `webmmux`), which linking by caps would not choose over its sound pad.
  private static func linkEncoded(_ chain: [Element]) throws {
    let (queue, muxer, sink) = (chain[0], chain[chain.count - 2], chain[chain.count - 1])
    guard let output = queue.staticPad("src"), let input = muxer.requestPad("video_%u") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: muxer.path, pad: "video_%u"))
    }
    try output.link(to: input)
    try muxer.link(to: sink)
  }

  /// The probe at the branch's entry: reads each frame, asks the recording's clock what becomes of it
  /// (``RecordingClock``: rebased to zero, left out by a pause, dropped at the limit…), and applies the
  /// verdict.
  private func installTimestampProbe(fallbackDuration: UInt) {
    let (encoded, upstream) = (feed != nil, feed?.backlog)
    entry.addProbe(encoded ? [.buffer, .eventDownstream] : .buffer) {
      [timing, pauses, weak audio, weak self] pad, info in
      if let segment = StreamSegment.set(by: info.event) {
        timing.withLock { $0.segment = segment }
        return .ok
      }
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      let segment = timing.withLock { $0.segment }
      // Running time; timestamps are written back in the segment's terms.
      guard let time = segment.runningTime(of: buffer) else { return .drop }
      let frame = RecordingClock.Frame(
        time: time, duration: ClockTime.isValid(buffer.duration) ? buffer.duration : fallbackDuration,
        sequence: !encoded && ClockTime.isValid(buffer.offset) ? buffer.offset : nil, isKeyFrame: !buffer.isDeltaUnit,
        bytes: buffer.size)
      let soundStart = audio?.firstSound
      // The encoder before the branch tells which of its frames it left out.
      let verdict = timing.withLock {
        $0.clock.admit(frame, soundStart: soundStart, pauses: pauses, leftOut: upstream.map { $0.drops })
      }
      return self?.apply(verdict, to: frame, in: segment, info: &info, pad: pad) ?? .drop
    }
  }

  /// Does what the clock decided for a frame: drops it, asks the encoder for a key frame, or keeps it with
  /// its timestamps moved, and reports what changed (the movie's start, its first frames, a whole second,
  /// a pause's end); the sound learns how far the video has got.
  private func apply(
    _ verdict: RecordingClock.Verdict, to frame: RecordingClock.Frame, in segment: StreamSegment,
    info: inout PadProbeInfo, pad: Pad
  ) -> PadProbeReturn {
    switch verdict {
    case .drop(let limitReached):
      if limitReached { onEvent(.limitReached) }
      return .drop
    case .dropAskingForKeyFrame:
      _ = pad.requestKeyFrame()
      return .drop
    case .leaveOut(let starting, let elapsed):
      audio?.videoReached(frame.time &+ frame.duration)
      if starting { onEvent(.paused(elapsed: ClockTime.seconds(elapsed))) }
      return .drop
    case .leaveOutForEncoder(let report, let dropped, let elapsed):
      // The movie's time goes on over the frame left out: the sound with it.
      audio?.videoReached(frame.time &+ frame.duration)
      if report { onEvent(.framesDropped(total: dropped, elapsed: ClockTime.seconds(elapsed))) }
      return .drop
    case .keep(let kept):
      if let writable = info.writableFrame() {
        writable.presentationTime = kept.presentationTime(in: segment)
        if let decoding = kept.decodingTime(writable.decodingTime, in: segment) { writable.decodingTime = decoding }
      }
      if let pause = kept.resumedAfter {
        onEvent(.resumed(elapsed: ClockTime.seconds(kept.start), pausedFor: ClockTime.seconds(pause)))
      }
      if kept.isFirst { started(at: kept.base, with: info.buffer, caps: pad.currentCaps) }
      audio?.videoReached(frame.time &+ frame.duration)
      if kept.completesMinimum { onEvent(.enoughFrames) }
      if let total = kept.droppedSoFar { onEvent(.framesDropped(total: total, elapsed: ClockTime.seconds(kept.start))) }
      if let second = kept.newSecond { onEvent(.progress(elapsed: Double(second))) }
      return .ok
    }
  }

  /// The movie's first frame went in at running time `base`: it is kept (a reference) for the thumbnail
  /// until the controller takes it — one from a pre-roll is encoded, and the thumbnail is made from the
  /// file instead —; the muxer gets the tags, dated with it (the frame of the moment may have been left
  /// out, older than the sound, as the metadata is), and the sound starts there.
  private func started(at base: UInt, with buffer: BufferView?, caps: Caps?) {
    if feed == nil, let buffer, let caps {
      let kept = buffer.retained()
      timing.withLock { $0.firstFrame = (kept, caps) }
    }
    tagMovie(firstTimestamp: base)
    audio?.videoStarted(at: base)
    onEvent(.started)
  }

  /// Adds the branch to the session's running pipeline (an armed one is there: the elements added to it
  /// start) and links it to a new tee pad, starting with the frame of the moment (after a pre-roll: with
  /// what the pre-roll kept). Takes as long as the branch's elements need to start (the file sink opens
  /// its file): call it off the controller queue.
  func attach(to session: CaptureSession) throws {
    assertOnQueue(worker)
    var silence = audio?.open()
    if silence != nil { audio?.detach() }
    if !isArmed { try session.pipeline.add(bin) }
    session.onError(inside: bin.path) { [timing] _ in timing.withLock { $0.clock.fail() } }
    // An armed bin runs already: the elements added to it start.
    guard isArmed ? bin.syncChildrenStates() : bin.syncStateWithParent() else {
      remove(from: session)
      throw HVTCameraError.fileWriteFailed(
        path: file.partial.path, reason: "the recording branch did not start (the file could not be opened)")
    }
    if silence == nil, let audio {
      silence = audio.join(session)
      if silence != nil { audio.detach() }
    }
    if let silence { onEvent(.audioUnavailable(reason: silence)) }
    // The movie starts with the frame of the moment, as a photo does, not with the camera's next frame
    // (up to a frame interval later). With the tee's input held between two frames, the new tee pad is
    // linked and given the newest frame that went through the tee; the camera's next frame follows it.
    // After a pre-roll, the encoded tee's input is held the same way, and the pad is given every frame
    // the pre-roll kept. The tee gives a new pad the stream's sticky events (caps, segment), which
    // precede those frames. On the streams' encoder, the movie begins with the key frame the encoder is
    // asked for once the pad is linked.
    switch feed {
    case .preRoll(let preRoll):
      try preRoll.withKept { try link(to: preRoll.tee, in: session, leading: $0) }
      // The pre-roll's sound follows, cut at the movie's first frame, which the video's link has set.
      if silence == nil, let audio, let reason = audio.linkToPreRoll() {
        audio.detach()
        onEvent(.audioUnavailable(reason: reason))
      }
    case .streams(let encoder):
      try link(to: encoder.tee, in: session, leading: [])
      _ = entry.requestKeyFrame()
    case nil:
      guard let teeSink = session.tee.staticPad("sink") else {
        remove(from: session)
        throw HVTCameraError.pipelineSetupFailed(.missingPad(element: session.tee.path, pad: "sink"))
      }
      try teeSink.withStreamLock {
        try link(to: session.tee, in: session, leading: session.tap.latest.map { [$0.buffer] } ?? [])
      }
    }
  }

  /// Links the branch to a new pad of `tee` and pushes `leading` into it (with the tee's input held).
  private func link(to tee: Element, in session: CaptureSession, leading: [Buffer]) throws {
    guard let ghost = bin.staticPad("sink"), let teePad = tee.requestPad("src_%u") else {
      remove(from: session)
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: tee.path, pad: "src_%u"))
    }
    self.teePad = teePad
    self.feedingTee = tee
    do {
      try teePad.link(to: ghost)
    } catch {
      remove(from: session)
      throw error
    }
    (linkTime, linkDate) = (session.pipeline.runningTime, Date())
    for buffer in leading { teePad.push(buffer) }
  }

  /// Gives the muxer the movie's tags, dated with its first frame (at running time `firstTimestamp`, as
  /// the metadata's capture date is), from the branch's entry before the frame goes on: no buffer has
  /// reached the muxer, and `mp4mux` writes them into the movie's header.
  private func tagMovie(firstTimestamp: UInt) {
    guard let tags, let muxer = bin.element(named: HVTPipelineModel.muxerName) else { return }
    let age = linkTime.map { ClockTime.seconds($0) - ClockTime.seconds(firstTimestamp) } ?? 0
    guard let written = tags.at(linkDate.addingTimeInterval(-age)).write(into: muxer) else { return }
    timing.withLock { $0.writtenTags = written }
  }

  /// The branch's object path; its elements' paths start with it.
  var path: String { bin.path }

  /// The microphone's object path (its elements' paths start with it); `nil` for a silent movie.
  var audioPath: String? { audio?.path }

  /// Whether the movie's microphone delivers sound (false before it started, and for a silent movie).
  var hasLiveAudio: Bool { audio?.isDelivering ?? false }

  /// What has been recorded so far.
  var summary: Summary {
    var summary = timing.withLock { timing in
      Summary(
        frames: timing.clock.frames - timing.clock.backlog.droppedAtOutput,
        framesDroppedForEncoder: timing.clock.framesDroppedForEncoder,
        // Once drained, frames left out at the queue's output may have been the movie's last.
        duration: ClockTime.seconds(
          timing.drained && timing.clock.backlog.droppedAtOutput > 0 ? timing.clock.encodedEnd : timing.clock.end),
        firstTimestamp: timing.clock.firstTimestamp,
        encodingStartedAt: timing.encodingStartedAt, framesLostByDriver: timing.clock.framesLostByDriver)
    }
    if let audio, audio.hasSound { summary.audioDuration = audio.duration }
    let pauses = pauses.total
    (summary.pauses, summary.pausedDuration) = (pauses.count, ClockTime.seconds(pauses.length))
    return summary
  }

  /// The movie's first frame and its caps (once, after ``Event/started``), for its thumbnail; the branch
  /// keeps no reference to it afterwards, so that a camera's small buffer pool is not held from.
  func takeFirstFrame() -> (buffer: Buffer, caps: Caps)? {
    timing.withLock { timing in
      defer { timing.firstFrame = nil }
      return timing.firstFrame
    }
  }

  /// Ends the movie's sound where it is: for a microphone that failed, or a drain that waits for one.
  func endAudio() { audio?.forceEnd() }

  /// Pauses the movie or lets it go on, from the next frame (``RecordingPauses``). On encoded video (a
  /// ``feed``), a resume asks the encoder for a key frame, with which the movie goes on.
  func setPaused(_ paused: Bool) {
    pauses.request(paused: paused)
    if !paused, feed != nil { entry.requestKeyFrame() }
  }

  /// Whether the branch holds enough frames for a stop to make a movie that plays, or reached its limit.
  var hasEnoughFrames: Bool { timing.withLock { $0.clock.hasEnoughFrames } }

  /// When a buffer last entered the encoder or reached the file sink (`nil` before the first).
  var lastProgress: ContinuousClock.Instant? { timing.withLock { $0.lastProgress } }

  /// Stops feeding the branch: once the tee pad is idle, sends EOS into the branch so the encoder and
  /// muxer flush and the MP4 gets its index, and unlinks the pad. Returns at once; the ``Event/drained``
  /// event says when the file is complete. Wraps an idle pad probe, which holds the pad's data flow while
  /// it runs: no frame follows the end of stream, and the unlinking (which takes the pads' and the bins'
  /// locks and emits their signals) comes after it rather than before it, off the drain's way.
  func sendEndOfStream() {
    guard let teePad, let ghost = bin.staticPad("sink") else { return }
    teePad.addProbe(.idle) { [timing, weak audio, weak bin, entry] pad, _ in
      audio?.videoEnded(after: timing.withLock { $0.clock.end })
      debugLog.log(
        .debug,
        "\(bin?.path ?? "the recording branch"): the end of stream goes in behind \(Self.waiting(at: entry)) "
          + "frames in its queue; then unlinked from the tee")
      ghost.sendEndOfStream()
      pad.unlink(from: ghost)
      return .remove
    }
  }

  /// The buffers waiting in the queue whose sink pad is `entry` (its `current-level-buffers`), for the log.
  private static func waiting(at entry: Pad) -> String {
    (try? entry.parentElement?.propertyString("current-level-buffers")) ?? "?"
  }

  /// Stops the branch, closing the file, removes it from the pipeline and gives the tee pad back. Takes as
  /// long as the branch's streaming threads need to stop: call it off the controller queue. Returns
  /// whether the branch reached NULL.
  @discardableResult
  func remove(from session: CaptureSession) -> Bool {
    assertOnQueue(worker)
    session.onError(inside: bin.path, nil)
    audio?.remove(from: session)
    let stopped = Teardown.stop(bin, removingFrom: session.pipeline, what: "the recording branch")
    if let teePad, let feedingTee {
      feedingTee.releaseRequestPad(teePad)
      self.teePad = nil
    }
    return stopped
  }
}
