import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieRepair {
  /// The part of a movie a remux copies, in the source's timestamps (nanoseconds), and how the timestamps
  /// of what it copies move: back by its start, so that the new file starts at zero, or by another offset.
  struct Window: Sendable {
    /// Buffers that start before it are left out (0: from the first).
    var start: UInt = 0
    /// A stream ends at its first buffer that starts at or after it, in the demuxer's order (`nil`: at the
    /// end of the file). Ending there, rather than leaving out only the later buffers, keeps every frame
    /// copied decodable even if a frame after the end was one they referred to.
    var end: UInt?
    /// How far timestamps move back (`nil`: by ``start``). A frame-exact trim copies the source's frames
    /// from a key frame after the new movie's first frame, which they follow.
    var offset: UInt?

    /// The move back, in nanoseconds.
    private var moved: UInt { offset ?? start }

    /// What becomes of a buffer.
    enum Verdict { case keep, shift, drop }

    /// The verdict on `buffer` of a stream that `ended` says has reached the end (which it sets when it does).
    func verdict(on buffer: BufferView, ended: Locked<Bool>) -> Verdict {
      let time = ClockTime.isValid(buffer.presentationTime) ? buffer.presentationTime : buffer.decodingTime
      if ended.withLock({ $0 }) { return .drop }
      guard ClockTime.isValid(time) else { return moved == 0 ? .keep : .shift }
      if let end, time >= end {
        ended.withLock { $0 = true }
        return .drop
      }
      if time < start { return .drop }
      return moved == 0 ? .keep : .shift
    }

    /// Applies the window to the buffer a pad probe holds (`info`), in a stream that `ended` says has
    /// reached the end: `true` when it is kept (its timestamps moved back where they move), `false` when
    /// it is to be dropped.
    func admit(_ info: inout PadProbeInfo, ended: Locked<Bool>) -> Bool {
      guard let buffer = info.buffer else { return true }
      switch verdict(on: buffer, ended: ended) {
      case .drop: return false
      case .keep: return true
      case .shift:
        guard let writable = info.writableBuffer() else { return false }
        shift(writable)
        return true
      }
    }

    /// Moves the timestamps of a kept, writable buffer back by ``offset`` or ``start`` (a decoding time
    /// before it, of a frame shown after it, becomes zero).
    func shift(_ buffer: BufferView) {
      let moved = moved
      if ClockTime.isValid(buffer.presentationTime) {
        buffer.presentationTime = buffer.presentationTime > moved ? buffer.presentationTime - moved : 0
      }
      let dts = buffer.decodingTime
      if ClockTime.isValid(dts) { buffer.decodingTime = dts > moved ? dts - moved : 0 }
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
