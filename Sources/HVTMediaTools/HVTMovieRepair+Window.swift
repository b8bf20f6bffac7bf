import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieRepair {
  /// A stream's time segment, as its demuxer last announced it (`GST_EVENT_SEGMENT`): turns the stream's
  /// timestamps into running time, the time every stream of the movie shares. The streams' own timestamps
  /// need not agree: `qtdemux` gives an MP4's video with B-frames (whose edit list hides the decoding
  /// delay) timestamps that start at the delay, 0.2 s for `x264enc`'s defaults at 10 fps, in a segment
  /// starting there, and its sound timestamps from zero in a segment from zero.
  final class StreamClock: Sendable {
    /// The segment's `start` and `base` (nanoseconds); 0 and 0 until one is seen.
    private let segment = Locked<(start: UInt, base: UInt)>((0, 0))

    /// Records the segment event the probe holds, if it holds one.
    func note(_ info: borrowing PadProbeInfo) {
      guard case .segment(let start, let base) = info.event else { return }
      segment.withLock { $0 = (start, base) }
    }

    /// The running time of `time`, a timestamp of the stream: `time - start + base`; a time before the
    /// segment's start (a frame its edit list hides) counts as the segment's first.
    func runningTime(of time: UInt) -> UInt {
      let (start, base) = segment.withLock { $0 }
      return time > start ? time - start + base : base
    }
  }

  /// The part of a movie a remux copies, in running time (nanoseconds, ``StreamClock``), and how the
  /// timestamps of what it copies move: back by its start, so that the new file starts at zero, or by
  /// another offset. Every stream's timestamps move by the same amount, so that they stay in step; each
  /// stream's segment passes on unchanged, and so a video stream with B-frames keeps its decoding delay:
  /// its first key frame's decoding time becomes zero and its presentation time the delay, as in the
  /// source, and the muxer writes the edit list that shows it first at zero.
  struct Window: Sendable {
    /// Buffers that start before it are left out (0: from the first).
    var start: UInt = 0
    /// A stream ends at its first buffer that starts at or after it, in the demuxer's order (`nil`: at the
    /// end of the file). Ending there, rather than leaving out only the later buffers, keeps every frame
    /// copied decodable even if a frame after the end was one they referred to. With B-frames, frames
    /// shown before the end can come after that buffer: a trim that would lose them encodes them again
    /// (``HVTMovieTrim/smartCut(_:as:cut:ending:into:stallTimeout:)``) and copies only up to the key
    /// frame they follow.
    var end: UInt?
    /// How far timestamps move back, in nanoseconds (`nil`: by ``start``; negative: forward). A
    /// frame-exact trim copies the source's frames from a key frame after the new movie's first frame,
    /// which they follow, and moves the frames it encoded again at the end forward to follow those.
    var offset: Int?

    /// The move back, in nanoseconds (negative: forward).
    private var moved: Int { offset ?? Int(start) }

    /// What becomes of a buffer.
    enum Verdict { case keep, shift, drop }

    /// The verdict on `buffer` of a stream whose timestamps `clock` reads and that `ended` says has reached
    /// the end (which it sets when it does).
    func verdict(on buffer: BufferView, clock: StreamClock, ended: Locked<Bool>) -> Verdict {
      let stamp = ClockTime.isValid(buffer.presentationTime) ? buffer.presentationTime : buffer.decodingTime
      if ended.withLock({ $0 }) { return .drop }
      guard ClockTime.isValid(stamp) else { return moved == 0 ? .keep : .shift }
      let time = clock.runningTime(of: stamp)
      if let end, time >= end {
        ended.withLock { $0 = true }
        return .drop
      }
      if time < start { return .drop }
      return moved == 0 ? .keep : .shift
    }

    /// Applies the window to what a pad probe of `[.buffer, .eventDownstream]` holds (`info`), in a stream
    /// whose segment `clock` keeps and that `ended` says has reached the end: `true` when it is kept (a
    /// buffer's timestamps moved back where they move; every event), `false` when it is to be dropped.
    func admit(_ info: inout PadProbeInfo, clock: StreamClock, ended: Locked<Bool>) -> Bool {
      clock.note(info)
      // Moved forward, the buffers would reach past the segment's end.
      if moved < 0 { info.removeSegmentStop() }
      guard let buffer = info.buffer else { return true }
      switch verdict(on: buffer, clock: clock, ended: ended) {
      case .drop: return false
      case .keep: return true
      case .shift:
        guard let writable = info.writableBuffer() else { return false }
        shift(writable)
        return true
      }
    }

    /// Moves the timestamps of a kept, writable buffer back by ``offset`` or ``start`` (a decoding time
    /// before it becomes zero: in a segment that starts at the decoding delay, as `qtdemux` gives video
    /// with B-frames, none is).
    func shift(_ buffer: BufferView) {
      if ClockTime.isValid(buffer.presentationTime) { buffer.presentationTime = move(buffer.presentationTime) }
      if ClockTime.isValid(buffer.decodingTime) { buffer.decodingTime = move(buffer.decodingTime) }
    }

    /// `time` moved back by ``offset`` or ``start`` (not before zero), or forward by a negative offset.
    private func move(_ time: UInt) -> UInt {
      guard moved >= 0 else { return time + UInt(-moved) }
      return time > UInt(moved) ? time - UInt(moved) : 0
    }
  }

  /// What a pipeline over a movie file works for: the errors say so.
  enum Job: String, Sendable, CustomStringConvertible {
    case repair
    case trim

    var description: String { rawValue }

    /// The job failed on `source`: GStreamer's error or the pipeline's set-up.
    func failed(_ source: URL, _ underlying: HVTCameraError) -> HVTCameraError {
      switch self {
      case .repair: .repairFailed(path: source.path, underlying: underlying)
      case .trim: .trimFailed(path: source.path, underlying: underlying)
      }
    }

    /// The job found no frame to copy in `source`.
    func empty(_ source: URL, reason: String) -> HVTCameraError {
      switch self {
      case .repair: .nothingRecoverable(path: source.path, reason: reason)
      case .trim: .invalidTrim(path: source.path, reason: reason)
      }
    }

    /// The job made no progress for `seconds`, after `frames` frames.
    func stalled(_ source: URL, seconds: Double, frames: Int) -> HVTCameraError {
      switch self {
      case .repair: .repairStalled(path: source.path, seconds: seconds, frames: frames)
      case .trim: .trimStalled(path: source.path, seconds: seconds, frames: frames)
      }
    }
  }
}
