import HVTGStreamer
import HVTSupport

/// Keeps the newest frame that entered the tee, so that a photo is the frame of the moment
/// (zero shutter lag) rather than the next one.
///
/// A probe on the tee's sink pad records each buffer (one reference, replacing the previous) and the caps
/// it came with; nothing is copied. Waiters can ask for a later frame (the flash uses this).
final class FrameTap: Sendable {
  /// One recorded frame.
  struct Frame: Sendable {
    /// The buffer (a reference; the pixels are shared with every branch).
    let buffer: Buffer
    /// The caps describing it.
    let caps: Caps
    /// Its number since the camera started, from 1.
    let sequence: UInt64
    /// Its timestamp (running time, nanoseconds).
    let presentationTime: UInt
    /// When it entered the tee.
    let arrival: ContinuousClock.Instant
  }

  private struct State {
    var caps: Caps?
    var latest: Frame?
    var count: UInt64 = 0
    var waiters: [(after: UInt64, deliver: @Sendable (Frame?) -> Void)] = []
    /// Set once the camera is stopping: frames still passing are no longer kept.
    var closed = false
  }

  private let state = Locked(State())
  private let teeSink = Locked<Pad?>(nil)

  /// Installs the probe on `pad` (the tee's sink pad).
  func install(on pad: Pad) {
    teeSink.withLock { $0 = pad }
    pad.addProbe([.buffer, .eventDownstream]) { [state] _, info in
      if case .caps(let caps)? = info.event {
        state.withLock { $0.caps = caps }
        return .ok
      }
      guard let buffer = info.buffer else { return .ok }
      let ready = state.withLock { state -> (Frame, [@Sendable (Frame?) -> Void])? in
        guard let caps = state.caps, !state.closed else { return nil }
        state.count += 1
        let frame = Frame(
          buffer: buffer.retained(), caps: caps, sequence: state.count, presentationTime: buffer.presentationTime,
          arrival: .now)
        state.latest = frame
        guard !state.waiters.isEmpty else { return (frame, []) }
        let due = state.waiters.filter { frame.sequence > $0.after }.map(\.deliver)
        state.waiters.removeAll { frame.sequence > $0.after }
        return (frame, due)
      }
      if let (frame, due) = ready {
        due.forEach { $0(frame) }
      }
      return .ok
    }
  }

  /// The newest frame, or `nil` before the first one.
  var latest: Frame? { state.withLock { $0.latest } }

  /// When the camera last showed that it is not what holds frames back: the newest frame's arrival, or
  /// now while a frame is still inside the tee. Then the camera's streaming thread waits for a branch
  /// that cannot keep up (an encoder on a loaded machine) and no frame can arrive, from any camera.
  var lastSignOfLife: ContinuousClock.Instant? {
    if teeSink.withLock({ $0?.isStreaming }) == true { return .now }
    return latest?.arrival
  }

  /// How many frames have entered the tee.
  var frameCount: UInt64 { state.withLock { $0.count } }

  /// Calls `deliver` (on a streaming thread) with the first frame numbered above `sequence`, or with
  /// `nil` if the camera stops first.
  func onFrame(after sequence: UInt64, _ deliver: @escaping @Sendable (Frame?) -> Void) {
    state.withLock { $0.waiters.append((sequence, deliver)) }
  }

  /// Lets go of the newest frame and keeps no other from now on, before the source stops streaming. Its
  /// buffer belongs to the source's pool: a `v4l2src` that stops while one of its buffers is out orphans
  /// its pool, and GStreamer 1.22 never frees an orphaned pool —
  /// the device stays open (an unplugged camera cannot come back: vivid, like a USB driver, reconnects
  /// only once the last file open on it is closed), and the pool, the source and their caps leak.
  func close() {
    state.withLock { state in
      state.closed = true
      state.latest = nil
    }
  }

  /// Answers every waiter with `nil`: the camera stopped.
  func cancelWaiters() {
    let waiters = state.withLock { state in
      defer { state.waiters = [] }
      return state.waiters.map(\.deliver)
    }
    waiters.forEach { $0(nil) }
  }
}
