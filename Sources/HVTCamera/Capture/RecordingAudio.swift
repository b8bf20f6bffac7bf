import Foundation
import HVTGStreamer
import HVTSupport

/// The sound of one recording: the microphone's bin, which joins the camera pipeline beside the recording
/// branch while it records, and the probe at the branch's audio entry that lines the sound up with the
/// movie's frames.
///
/// The probe gives the sound the video's timeline: samples from before the movie's first frame are cut
/// off (to the sample), timestamps are rebased on that frame's, and the sound ends where the video does
/// (at its last frame's end, or at the maximum duration), its last buffer cut to the sample. So the
/// movie's two streams start together, at 0, and have the same length. The sound of a pause is left
/// out, to the sample, where the video's is (``RecordingPauses``). The microphone's thread waits for the
/// video, briefly, in ``VideoPace``; ``join(_:)``, on the caller's (worker) thread, for the microphone's
/// first buffer (``MicrophoneBin/startTimeout``); never the controller's queue. The microphone's end of
/// stream follows the first buffer past the end, and ``forceEnd()`` ends one that stopped delivering.
final class RecordingAudio: Sendable {
  /// What the probe does with one buffer.
  enum Verdict: Equatable {
    case drop
    /// The sound is over: the end of stream goes in its place.
    case end
    /// `keep` samples go on, after the first `skip` and behind `silence` samples of silence, at `start`
    /// from the movie's start.
    case pass(skip: Int, keep: Int, silence: Int = 0, start: UInt)
  }

  struct Timing {
    /// The running time of the movie's first frame; sound before it is cut off.
    var base: UInt?
    /// Where the sound ends, from the movie's start: the maximum duration, then the video's end once
    /// the recording stops.
    var end: UInt
    /// The last buffer, cut at ``end``, went through: the next one ends the stream.
    var endReached = false
    /// The end of stream was sent into the branch's audio path.
    var ended = false
    /// From the movie's start to the end of the last sound that went through (nanoseconds).
    var written: UInt = 0
    /// Buffers that went through.
    var buffers = 0
    /// The running time the microphone's first buffer starts at, once it reached the branch (it opened,
    /// negotiated and delivers).
    var firstSound: UInt?

    /// The verdict on a buffer of `frames` samples starting at running time `start`, each sample lasting
    /// `sample` nanoseconds, with what it leaves written. The sound starts exactly with the movie: the
    /// sample under its first frame is the first one kept (a sample's length early at most), and a
    /// microphone whose first sound comes after that frame is led in by silence. Both streams then start at
    /// 0: a remux (`qtdemux ! mp4mux`) of a movie whose sound began one sample after its picture dropped
    /// the first key frame as outside its segment.
    /// The video ended within a pause, where the sound is left out: the sound ends too. Whether the end of
    /// stream is to be sent now (once, and only for a movie that started).
    mutating func endWithinPause() -> Bool {
      guard base != nil, !ended else { return false }
      ended = true
      return true
    }

    mutating func admit(start: UInt, frames: Int, sample: Double) -> Verdict {
      guard let base, !ended else { return .drop }
      let finish = start + UInt(Double(frames) * sample)
      let cut = base + end
      if endReached || start >= cut {
        ended = true
        return .end
      }
      guard finish > base else { return .drop }
      let skip = start < base ? Int((Double(base - start) / sample).rounded(.down)) : 0
      let last = finish > cut ? Int((Double(cut - start) / sample).rounded(.down)) : frames
      guard last > skip else { return .drop }
      let first = start + UInt(Double(skip) * sample)
      let silence = buffers == 0 && first > base ? Int((Double(first - base) / sample).rounded()) : 0
      let rebased = buffers == 0 || first < base ? 0 : first - base
      written = rebased + UInt(Double(silence + last - skip) * sample)
      buffers += 1
      if finish > cut { endReached = true }
      return .pass(skip: skip, keep: last - skip, silence: silence, start: rebased)
    }
  }

  /// The microphone's bin, `<branch>-microphone`: its errors cost the movie its sound only; `nil` when
  /// the sound comes from a pre-roll's microphone (``preRoll``).
  private let microphone: MicrophoneBin?
  /// The pre-roll whose sound the movie takes, instead of a microphone of its own.
  private let preRoll: PreRollSound?
  /// The pre-roll sound tee's pad the branch is linked to.
  private let preRollPad = Locked<Pad?>(nil)
  private let branch: Bin
  private let entry: Pad
  private let encoding: ElementChain
  private let timing: Locked<Timing>
  /// How far past the video's end the microphone's sound is let in (``HVTPipelineModel/Audio/trailingSamples``).
  private let overrun: UInt
  /// Whether the microphone is in the pipeline.
  private let joined = Locked(false)
  /// The microphone bin's object path in the pipeline, kept after it leaves: its errors arrive later.
  private let joinedPath = Locked<String?>(nil)
  /// Signalled at the microphone's first buffer.
  private let firstBuffer = DispatchSemaphore(value: 0)
  /// Holds the movie's video at the muxer until the sound's caps are there (``MuxerGate``).
  private let gate: MuxerGate
  /// The recording's pauses, decided by its video.
  private let pauses: RecordingPauses
  private let muxer: Element
  /// Whether the encoding chain was linked to the muxer (at its first encoded sound) or the sound given
  /// up; `nil` while neither happened.
  private let linked = Locked<Bool?>(nil)
  private let onSilence: @Sendable (String) -> Void

  /// How long the movie's video waits, from its first frame, for the first encoded sound before the
  /// sound is given up: the recording queue holds 3 s, so the bound is below that.
  static let startTimeout = 2.0

  /// How far the video has got, which the sound keeps pace with (the microphone's thread waits there).
  private let pace = VideoPace()

  /// Builds the audio of a recording branch: the encoding chain, in `branch` and exposed as the branch's
  /// `audio` pad (linked to the muxer at its first encoded sound: ``linkToMuxer()``); and the
  /// microphone's bin, not yet in the pipeline. `limit` is the maximum duration in nanoseconds. `gate`
  /// holds the movie's video at the muxer: it is opened at the first encoded sound (its caps are at the
  /// muxer by then), when the movie goes without sound, or ``startTimeout`` after the first frame without
  /// either, when the sound is given up and `onSilence` says why. `pauses` are the recording's, which the
  /// sound leaves out as the video does. With `preRoll`, the sound comes from the pre-roll's microphone
  /// (``linkToPreRoll()``) and `audio`'s source is not built.
  init(
    _ audio: HVTPipelineModel.Audio, in branch: Bin, muxer: Element, limit: UInt, gate: MuxerGate,
    pauses: RecordingPauses, preRoll: PreRollSound? = nil, onSilence: @escaping @Sendable (String) -> Void
  ) throws {
    self.branch = branch
    self.preRoll = preRoll
    self.muxer = muxer
    self.gate = gate
    self.pauses = pauses
    self.onSilence = onSilence
    overrun = ClockTime.second * UInt(audio.trailingSamples) / UInt(HVTPipelineModel.recordedAudio.rate)
    encoding = try ElementChain(audio.encoding, in: branch)
    guard let entry = encoding.first.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: encoding.first.path, pad: "sink"))
    }
    self.entry = entry
    try branch.addGhostPad("audio", target: entry)
    microphone = preRoll == nil ? try MicrophoneBin(name: "\(branch.name)-microphone", source: audio.source) : nil
    timing = Locked(Timing(end: limit + overrun))
    installProbe()
    // The encoding chain is linked to the muxer at its first encoded sound, held there meanwhile.
    encoding.last.staticPad("src")?.addProbe([.block, .buffer]) { [weak self] _, _ in
      self?.linkToMuxer() ?? .drop
    }
    // A recording too short for one encoded frame of sound ends without it: the video goes on at once.
    encoding.last.staticPad("src")?.addProbe(.eventDownstream) { [weak self] _, info in
      guard info.event == .endOfStream else { return .ok }
      self?.endWithoutSound()
      return .remove
    }
  }

  /// The microphone bin's object path in the camera pipeline (its elements' paths start with it), also
  /// after it left it: the errors it posted there arrive afterwards.
  var path: String { joinedPath.withLock { $0 } ?? microphone?.path ?? preRoll?.path ?? "\(branch.path)/audio" }

  /// Seconds of sound in the movie so far, from its start.
  var duration: Double { ClockTime.seconds(timing.withLock { $0.written }) }

  /// Whether any sound reached the encoder.
  var hasSound: Bool { timing.withLock { $0.buffers > 0 } }

  /// Opens the microphone outside the pipeline (``MicrophoneBin/open()``), so that one that cannot open
  /// never touches the camera. Returns why there is no sound, or `nil`. Takes as long as the microphone
  /// needs to open: call it off the controller queue.
  func open() -> String? {
    guard let failure = microphone?.open() else { return nil }
    return "the microphone (\(HVTPipelineModel.microphoneName)) \(failure)"
  }

  /// Adds the opened microphone to `session`'s pipeline, links it to the branch's audio pad, starts it
  /// and waits (at most ``MicrophoneBin/startTimeout``) for its first buffer, before the video is linked: a microphone
  /// that fails before it delivers is taken out with the encoding chain (``detach()``). The branch must
  /// already be in the pipeline. Returns why there is no sound, or `nil` when the microphone delivers
  /// (and at once with a pre-roll's sound, which ``linkToPreRoll()`` links after the video).
  func join(_ session: CaptureSession) -> String? {
    guard let microphone else { return nil }
    do {
      try session.pipeline.add(microphone.bin)
      joined.withLock { $0 = true }
      joinedPath.withLock { [microphone] in $0 = microphone.path }
    } catch {
      Teardown.stop(microphone.bin, what: "the microphone")
      return "the microphone could not join the pipeline: \(error)"
    }
    guard let output = microphone.bin.staticPad("src"), let input = branch.staticPad("audio"),
      (try? output.link(to: input)) != nil, microphone.bin.syncStateWithParent()
    else {
      remove(from: session)
      return "the microphone (\(HVTPipelineModel.microphoneName)) did not start"
    }
    guard firstBuffer.wait(timeout: .now() + MicrophoneBin.startTimeout) == .success else {
      remove(from: session)
      return "the microphone (\(HVTPipelineModel.microphoneName)) gave no sound within \(MicrophoneBin.startTimeout) s"
    }
    return nil
  }

  /// Links the branch's audio pad to a new pad of the pre-roll's sound tee, between two buffers of sound,
  /// and gives it the sound kept: the probe cuts it at the movie's first frame, which the video's link
  /// has set. Call it after the video is linked, off the controller queue. Returns why there is no sound,
  /// or `nil`.
  func linkToPreRoll() -> String? {
    guard let preRoll else { return nil }
    guard preRoll.isRunning, let input = branch.staticPad("audio") else {
      return "the pre-roll's microphone is not running"
    }
    return preRoll.withKept { kept -> String? in
      guard let pad = preRoll.tee.requestPad("src_%u") else { return "the pre-roll's sound tee gave no pad" }
      do {
        try pad.link(to: input)
      } catch {
        preRoll.tee.releaseRequestPad(pad)
        return "the pre-roll's sound could not be linked to the recording: \(error)"
      }
      preRollPad.withLock { $0 = pad }
      for buffer in kept { pad.push(buffer) }
      return nil
    }
  }

  /// At the first encoded sound, in the blocking probe that holds it: links the encoding chain to the
  /// muxer, which gives it an audio pad (the pad then sends its caps on, before the sound), and lets the
  /// video through. The muxer has had no data yet (the gate held the video), so it takes the new pad, and
  /// a sound that never comes never costs the movie a track without a sample description (`mp4mux` keeps
  /// the track of a pad given back, and writes such a track for a pad that had no caps).
  private func linkToMuxer() -> PadProbeReturn {
    guard settle(linked: true) else { return .drop }
    defer { gate.open() }
    do {
      try encoding.last.link(to: muxer)
    } catch {
      linked.withLock { $0 = false }
      onSilence("the muxer takes no sound from \(encoding.last.name): \(error)")
      return .drop
    }
    debugLog.log(.debug, "\(branch.name): the first sound goes to the muxer")
    return .remove
  }

  /// Takes the audio encoding chain, never linked to the muxer, out of a branch whose microphone did not
  /// start: stops and removes its elements and the branch's audio pad.
  func detach() {
    if let ghost = branch.staticPad("audio") { branch.removePad(ghost) }
    for element in encoding.elements { Teardown.stop(element, removingFrom: branch, what: "the sound encoding") }
    gate.open()
  }

  /// Decides, once, whether the sound is linked to the muxer (the first encoded sound) or not (the sound
  /// ended or was given up first); whether this call decided.
  private func settle(linked value: Bool) -> Bool {
    linked.withLock { linked in
      defer { linked = linked ?? value }
      return linked == nil
    }
  }

  /// The sound ended before any of it was encoded (a recording of a few frames): the movie is silent,
  /// and its video is let through now rather than after ``startTimeout``.
  private func endWithoutSound() {
    guard settle(linked: false) else { return }
    debugLog.log(.info, "\(branch.name): the sound ended before a frame of it was encoded")
    gate.open()
  }

  /// Gives the sound up when none was encoded ``startTimeout`` after the movie's first frame: the encoding
  /// chain, never linked to the muxer, drops what comes from then on, and the video goes on.
  private func giveUpSoundIfMuted() {
    guard settle(linked: false) else { return }
    timing.withLock { $0.ended = true }
    gate.open()
    debugLog.log(.warning, "\(branch.path): no sound reached the muxer within \(Self.startTimeout) s; it goes without")
    onSilence("no sound reached the muxer within \(Self.startTimeout) s of the first frame")
  }

  /// The running time the microphone's sound starts at, once it delivers. The movie's video starts no
  /// earlier than one frame before it (``RecordingBranch`` drops older frames), so that the two streams
  /// start together even when the frame of the moment is older than the microphone.
  var firstSound: UInt? { timing.withLock { $0.firstSound } }

  /// The movie's first frame went in at running time `base`: sound is measured from it, and must be
  /// encoded within ``startTimeout``.
  func videoStarted(at base: UInt) {
    timing.withLock { timing in timing.base = timing.base ?? base }
    pace.start()
    DispatchQueue.global().asyncAfter(deadline: .now() + Self.startTimeout) { [weak self] in
      self?.giveUpSoundIfMuted()
    }
  }

  /// The video has decided up to running time `time`: a frame ending there reached the branch.
  func videoReached(_ time: UInt) {
    pace.reach(time)
  }

  /// The video ended `duration` nanoseconds after its start: the sound ends there too.
  func videoEnded(after duration: UInt) {
    timing.withLock { [overrun] in $0.end = min($0.end, duration + overrun) }
    pace.finish()
  }

  /// Whether the microphone delivers (its first buffer reached the branch).
  var isDelivering: Bool { timing.withLock { $0.firstSound != nil } }

  /// Ends the sound now, for a microphone that failed or stopped delivering: sends the end of stream
  /// into the branch's audio path (unless it was sent, or the microphone never delivered, which
  /// ``join(_:)`` handles), so that the muxer can finish the movie.
  func forceEnd() {
    gate.open()
    let send = timing.withLock { timing -> Bool in
      guard timing.firstSound != nil, !timing.ended else { return false }
      timing.ended = true
      return true
    }
    if send { entry.sendEndOfStream() }
  }

  /// Stops the microphone and removes it from the pipeline. Takes as long as its streaming thread needs
  /// to stop: call it off the controller queue.
  func remove(from session: CaptureSession) {
    gate.open()
    // A microphone thread held for the video lets go.
    pace.finish()
    if let preRoll, let pad = preRollPad.withLock({ $0 }) {
      // Unlinked between two buffers, so that the tee never pushes into the branch as it stops.
      preRoll.betweenBuffers {
        if let input = branch.staticPad("audio") { pad.unlink(from: input) }
      }
      preRoll.tee.releaseRequestPad(pad)
      preRollPad.withLock { $0 = nil }
    }
    guard let microphone, joined.withLock({ $0 }) else { return }
    Teardown.stop(microphone.bin, removingFrom: session.pipeline, what: "the microphone")
    joined.withLock { $0 = false }
  }

  /// The probe at the branch's audio entry: drops sound from before the first frame and after the end,
  /// cuts the buffers that straddle either to the sample, and rebases timestamps on the first frame's.
  private func installProbe() {
    let format = HVTPipelineModel.recordedAudio
    let bytesPerFrame = format.channels * format.bytesPerSample
    let sample = Double(ClockTime.second) / Double(format.rate)
    entry.addProbe(.buffer) { [timing, firstBuffer, pace, weak self] pad, info in
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      if timing.withLock({ timing in
        defer { timing.firstSound = timing.firstSound ?? buffer.presentationTime }
        return timing.firstSound == nil
      }) {
        firstBuffer.signal()
        pace.waitForStart()
      }
      var start = buffer.presentationTime
      var frames = buffer.size / bytesPerFrame
      let finish = start + UInt(Double(frames) * sample)
      if let base = timing.withLock({ $0.ended ? nil : $0.base }), finish > base { pace.waitUntilReached(finish) }
      switch self?.pauses.samples(start: start, count: frames, sampleLength: sample) ?? .all(shift: 0) {
      case .all(let shift):
        start -= shift
      case .some(let ranges, let first):
        let kept = buffer.retained().withBytes { bytes in
          ranges.reduce(into: Data()) { $0 += bytes[($1.lowerBound * bytesPerFrame)..<($1.upperBound * bytesPerFrame)] }
        }
        info.replaceBuffer(withContentOf: Buffer(copying: kept))
        (start, frames) = (first, kept.count / bytesPerFrame)
      case .none:
        // Sound of a pause; a recording stopped while paused ends its sound here.
        if pace.hasFinished, timing.withLock({ $0.endWithinPause() }) { pad.sendEndOfStream() }
        return .drop
      }
      let verdict = timing.withLock { $0.admit(start: start, frames: frames, sample: sample) }
      switch verdict {
      case .drop:
        debugLog.log(.trace, "sound at running time \(ClockTime.seconds(start)) s dropped")
        return .drop
      case .end:
        pad.sendEndOfStream()
        return .drop
      case .pass(let skip, let keep, let silence, let rebased):
        debugLog.log(
          .trace, "sound \(ClockTime.seconds(rebased)) s, \(keep) samples (cut \(skip) before, \(silence) silent)")
        if silence > 0, let buffer = info.buffer {
          // The samples kept, behind the silence, in a buffer of their own.
          let kept = buffer.retained().withBytes { Data($0[(skip * bytesPerFrame)..<((skip + keep) * bytesPerFrame)]) }
          info.replaceBuffer(withContentOf: Buffer(copying: Data(count: silence * bytesPerFrame) + kept))
        }
        guard let writable = info.writableBuffer() else { return .drop }
        if silence == 0, skip > 0 || keep < frames {
          writable.resize(offset: skip * bytesPerFrame, size: keep * bytesPerFrame)
        }
        writable.presentationTime = rebased
        writable.decodingTime = ClockTime.none
        writable.duration = UInt(Double(silence + keep) * sample)
        return .ok
      }
    }
  }
}
