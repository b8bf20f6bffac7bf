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
    /// Wall-clock time of the first frame.
    var firstFrameDate: Date?
  }

  private struct Timing {
    var base: UInt?
    var summary = Summary()
    var reportedSeconds = 0
    var limitReached = false
  }

  let file: CaptureFiles.Reservation
  private let bin: Bin
  private let entry: Pad
  private var teePad: Pad?
  private let timing = Locked(Timing())
  private let drained = DispatchSemaphore(value: 0)
  private let started = DispatchSemaphore(value: 0)

  /// Builds the branch (not yet attached): the model's recording chain, then a `filesink` writing to the
  /// reservation's partial file.
  init(chain: [HVTElementDescription], file: CaptureFiles.Reservation, name: String) throws {
    self.file = file
    bin = Bin(name: name)
    let elements = try ElementChain(
      chain + [HVTElementDescription("filesink", name: "file", ["location": file.partial.path, "async": "false"])],
      in: bin)
    guard let entry = elements.first.staticPad("sink"), let fileSinkPad = elements.last.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed("the recording branch has no sink pad")
    }
    try bin.addGhostPad("sink", target: entry)
    self.entry = entry
    fileSinkPad.addProbe(.eventDownstream) { [drained] _, info in
      if info.event == .endOfStream { drained.signal() }
      return .ok
    }
  }

  /// Adds the branch to the running pipeline and links it to a new tee pad. `limit` is the maximum
  /// duration in seconds; `frameInterval` the expected duration of a frame when buffers carry none.
  func attach(
    to pipeline: Pipeline, tee: Element, limit: Double, frameInterval: Double,
    onEvent: @escaping @Sendable (Event) -> Void
  ) throws {
    let limitTime = ClockTime.from(seconds: limit)
    let fallbackDuration = ClockTime.from(seconds: frameInterval)
    entry.addProbe(.buffer) { [timing, started] _, info in
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      let pts = buffer.presentationTime
      let duration = ClockTime.isValid(buffer.duration) ? buffer.duration : fallbackDuration
      enum Verdict { case pass(base: UInt, first: Bool, newSecond: Int?), drop(notify: Bool) }
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
        if first {
          timing.summary.firstTimestamp = pts
          timing.summary.firstFrameDate = Date()
        }
        let seconds = Int(timing.summary.duration)
        let newSecond = seconds > timing.reportedSeconds ? seconds : nil
        if let newSecond { timing.reportedSeconds = newSecond }
        return .pass(base: base, first: first, newSecond: newSecond)
      }
      switch verdict {
      case .drop(let notify):
        if notify { onEvent(.limitReached) }
        return .drop
      case .pass(let base, let first, let newSecond):
        if let writable = info.writableBuffer() {
          writable.presentationTime = pts >= base ? pts - base : 0
          let dts = writable.decodingTime
          if ClockTime.isValid(dts) { writable.decodingTime = dts >= base ? dts - base : 0 }
        }
        if first {
          started.signal()
          onEvent(.started)
        }
        if let newSecond { onEvent(.progress(elapsed: Double(newSecond))) }
        return .ok
      }
    }
    try pipeline.add(bin)
    guard let teePad = tee.requestPad("src_%u"), let ghost = bin.staticPad("sink") else {
      pipeline.remove(bin)
      throw HVTCameraError.pipelineSetupFailed("the tee gave no pad for the recording branch")
    }
    self.teePad = teePad
    guard bin.syncStateWithParent() else {
      tee.releaseRequestPad(teePad)
      pipeline.remove(bin)
      throw HVTCameraError.pipelineSetupFailed("the recording branch did not start (cannot open \(file.partial.path)?)")
    }
    try teePad.link(to: ghost)
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

  /// Waits until the first frame entered the branch, up to `timeout` seconds; true if it did.
  func waitUntilStarted(timeout: Double) -> Bool {
    guard summary.frames == 0 else { return true }
    let arrived = started.wait(timeout: .now() + timeout) == .success
    if arrived { started.signal() }
    return arrived
  }

  /// Waits until the EOS reached the file sink (the muxer has written everything), up to `timeout`
  /// seconds. Returns false on timeout (an element of the branch failed).
  func waitUntilDrained(timeout: Double) -> Bool {
    drained.wait(timeout: .now() + timeout) == .success
  }

  /// Stops the branch, closing the file, removes it from the pipeline and gives the tee pad back.
  func remove(from pipeline: Pipeline, tee: Element) {
    bin.setState(.null)
    pipeline.remove(bin)
    if let teePad {
      tee.releaseRequestPad(teePad)
      self.teePad = nil
    }
  }
}
