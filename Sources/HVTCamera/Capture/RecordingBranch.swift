import Dispatch
import Foundation
import HVTGStreamer

/// The movie branch: `tee → queue ! … ! muxer ! filesink` in a bin of its own, added to the running
/// pipeline on start and drained with EOS on stop, while the source and preview keep running.
///
/// A probe at the branch's entry rewrites timestamps to start at zero and enforces the maximum duration
/// on them: the first buffer whose timestamp reaches the limit is dropped, so the file is exactly as
/// long as allowed. Probes only record facts and report them through `onEvent`; every state change
/// happens on the caller's queue.
final class RecordingBranch: @unchecked Sendable {
  /// What the branch reports from its streaming threads.
  enum Event: Sendable {
    /// The first frame entered the branch.
    case started
    /// Whole seconds recorded so far.
    case progress(elapsed: Double)
    /// A frame reached the maximum duration; the recording should stop.
    case limitReached
  }

  /// What was written, read after the branch drained.
  struct Summary: Sendable {
    /// Frames that entered the encoder.
    var frames = 0
    /// Timestamp of the end of the last frame, from the first frame's start (seconds).
    var duration = 0.0
    /// Running time of the first frame (nanoseconds).
    var firstTimestamp: UInt?
    /// When the first frame entered the encoder.
    var encodingStartedAt: ContinuousClock.Instant?
  }

  private struct Timing {
    var base: UInt?
    var summary = Summary()
    var reportedSeconds = 0
    var limitReached = false
    /// When a frame last entered the encoder: how a drain tells progress from a stall.
    var lastEncoderInput: ContinuousClock.Instant?
  }

  let file: CaptureFiles.Reservation
  /// The pipeline's running time (nanoseconds) when the branch was linked, its first frame chosen.
  private(set) var linkTime: UInt?
  /// The wall-clock time when the branch was linked.
  private(set) var linkDate = Date()
  private let bin: Bin
  private let entry: Pad
  private var teePad: Pad?
  private let timing = Locked(Timing())
  private let drained = DispatchSemaphore(value: 0)
  /// Signalled once the branch has `minimumFrames` frames, or reached its limit before that.
  private let enoughFrames = DispatchSemaphore(value: 0)

  /// The frames a stop waits for: a one-frame H.264 movie is valid, but some decoders (`openh264dec`, the
  /// one Debian's plugins-bad ships) output nothing for it.
  static let minimumFrames = 2

  /// Builds the branch (not yet attached): the model's recording chain, then a `filesink` writing to the
  /// reservation's partial file.
  init(chain: [HVTElementDescription], file: CaptureFiles.Reservation, name: String) throws {
    self.file = file
    bin = Bin(name: name)
    let elements = try ElementChain(
      chain + [HVTPipelineModel.movieFileSink(location: file.partial.path)],
      in: bin)
    guard let entry = elements.first.staticPad("sink"), let fileSinkPad = elements.last.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed("the recording branch has no sink pad")
    }
    try bin.addGhostPad("sink", target: entry)
    self.entry = entry
    // When frames enter the encoder: the first one's moment, and the latest, which shows a drain's progress.
    bin.element(named: HVTPipelineModel.movieEncoderName)?.staticPad("sink")?.addProbe(.buffer) { [timing] _, info in
      guard info.buffer != nil else { return .ok }
      let now = ContinuousClock.now
      timing.withLock { timing in
        timing.summary.encodingStartedAt = timing.summary.encodingStartedAt ?? now
        timing.lastEncoderInput = now
      }
      return .ok
    }
    fileSinkPad.addProbe(.eventDownstream) { [drained] _, info in
      if info.event == .endOfStream { drained.signal() }
      return .ok
    }
  }

  /// Adds the branch to the session's running pipeline and links it to a new tee pad, starting with the
  /// frame of the moment. `limit` is the maximum duration in seconds; `frameInterval` the expected
  /// duration of a frame when buffers carry none.
  func attach(
    to session: CaptureSession, limit: Double, frameInterval: Double,
    onEvent: @escaping @Sendable (Event) -> Void
  ) throws {
    let limitTime = ClockTime.from(seconds: limit)
    let fallbackDuration = ClockTime.from(seconds: frameInterval)
    entry.addProbe(.buffer) { [timing, enoughFrames] _, info in
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      let pts = buffer.presentationTime
      let duration = ClockTime.isValid(buffer.duration) ? buffer.duration : fallbackDuration
      enum Verdict { case pass(base: UInt, first: Bool, enough: Bool, newSecond: Int?), drop(notify: Bool) }
      let verdict = timing.withLock { timing -> Verdict in
        if timing.limitReached { return .drop(notify: false) }
        let first = timing.base == nil
        let base = timing.base ?? pts
        timing.base = base
        let start = pts >= base ? pts - base : 0
        if start >= limitTime {
          timing.limitReached = true
          return .drop(notify: true)
        }
        timing.summary.frames += 1
        timing.summary.duration = ClockTime.seconds(start + duration)
        if first { timing.summary.firstTimestamp = pts }
        let seconds = Int(timing.summary.duration)
        let newSecond = seconds > timing.reportedSeconds ? seconds : nil
        if let newSecond { timing.reportedSeconds = newSecond }
        let enough = timing.summary.frames == Self.minimumFrames
        return .pass(base: base, first: first, enough: enough, newSecond: newSecond)
      }
      switch verdict {
      case .drop(let notify):
        if notify {
          enoughFrames.signal()
          onEvent(.limitReached)
        }
        return .drop
      case .pass(let base, let first, let enough, let newSecond):
        if let writable = info.writableBuffer() {
          writable.presentationTime = pts >= base ? pts - base : 0
          let dts = writable.decodingTime
          if ClockTime.isValid(dts) { writable.decodingTime = dts >= base ? dts - base : 0 }
        }
        if first { onEvent(.started) }
        if enough { enoughFrames.signal() }
        if let newSecond { onEvent(.progress(elapsed: Double(newSecond))) }
        return .ok
      }
    }
    try session.pipeline.add(bin)
    guard bin.syncStateWithParent() else {
      remove(from: session)
      throw HVTCameraError.pipelineSetupFailed("the recording branch did not start (cannot open \(file.partial.path)?)")
    }
    guard let teeSink = session.tee.staticPad("sink"), let ghost = bin.staticPad("sink") else {
      remove(from: session)
      throw HVTCameraError.pipelineSetupFailed("the recording branch has no pad to link")
    }
    // The movie starts with the frame of the moment, as a photo does, not with the camera's next frame
    // (up to a frame interval later). With the tee's input held between two frames, the new tee pad is
    // linked and given the newest frame that went through the tee; the camera's next frame follows it.
    // The tee gives a new pad the stream's sticky events (caps, segment), which precede that frame.
    try teeSink.withStreamLock {
      guard let teePad = session.tee.requestPad("src_%u") else {
        remove(from: session)
        throw HVTCameraError.pipelineSetupFailed("the tee gave no pad for the recording branch")
      }
      self.teePad = teePad
      do {
        try teePad.link(to: ghost)
      } catch {
        remove(from: session)
        throw error
      }
      (linkTime, linkDate) = (session.pipeline.runningTime, Date())
      if let frame = session.tap.latest { teePad.push(frame.buffer) }
    }
  }

  /// The branch's object path; its elements' paths start with it.
  var path: String { bin.path }

  /// What has been recorded so far.
  var summary: Summary { timing.withLock { $0.summary } }

  /// Stops feeding the branch: once the tee pad is idle, unlinks it and sends EOS into the branch so the
  /// encoder and muxer flush and the MP4 gets its index. Wraps an idle pad probe.
  func sendEndOfStream() {
    guard let teePad, let ghost = bin.staticPad("sink") else { return }
    teePad.addProbe(.idle) { pad, _ in
      pad.unlink(from: ghost)
      ghost.sendEndOfStream()
      return .remove
    }
  }

  /// Waits until the branch has `minimumFrames` frames (or reached its limit first), up to `timeout`
  /// seconds; true if it did.
  func waitForMinimumFrames(timeout: Double) -> Bool {
    guard timing.withLock({ $0.summary.frames < Self.minimumFrames && !$0.limitReached }) else { return true }
    let arrived = enoughFrames.wait(timeout: .now() + timeout) == .success
    if arrived { enoughFrames.signal() }
    return arrived
  }

  /// Waits until the EOS reached the file sink (the muxer has written everything), for at most `limit`
  /// seconds. Gives up sooner, once no frame has entered the encoder for `stall` seconds (an element of
  /// the branch failed). Returns whether the branch drained.
  func waitUntilDrained(stalledAfter stall: Double, limit: Double) -> Bool {
    let start = ContinuousClock.now
    let end = start + .seconds(limit)
    while true {
      let lastProgress = timing.withLock { $0.lastEncoderInput }.map { max($0, start) } ?? start
      let (seconds, attoseconds) = ContinuousClock.now.duration(to: min(lastProgress + .seconds(stall), end)).components
      let remaining = Double(seconds) + Double(attoseconds) * 1e-18
      guard remaining > 0 else { return false }
      if drained.wait(timeout: .now() + remaining) == .success { return true }
    }
  }

  /// Stops the branch, closing the file, removes it from the pipeline and gives the tee pad back.
  func remove(from session: CaptureSession) {
    bin.setState(.null)
    session.pipeline.remove(bin)
    if let teePad {
      session.tee.releaseRequestPad(teePad)
      self.teePad = nil
    }
  }
}
