import HVTGStreamer
import HVTSupport

/// Keeps the frames of a source that stamps them as they arrive (`pipewiresrc do-timestamp=true`) at
/// least ``minimumSpacing`` apart.
///
/// A producer that falls behind delivers its late frames in a burst, microseconds apart. Two such frames
/// share one tick of a movie's timescale (1/3000 s at 30 fps in `mp4mux`), and FFmpeg's MP4 demuxer
/// discards the second of a pair that straddles a fragment boundary: a CI run's movie held 59 frames of
/// which FFmpeg decoded 58. A probe on the source's output moves such a frame to ``minimumSpacing``
/// after the one before it, so that every frame keeps a moment of its own and no frame is lost; frames
/// that come at their pace are left as they are.
enum ArrivalTimestamps {
  /// The least time between two frames' timestamps: 1 ms, a tick or more of every movie timescale for
  /// rates up to 1000 fps, and far below any camera's frame interval.
  static let minimumSpacing: UInt = 1_000_000

  /// The timestamp a frame stamped `time` gets after a frame at `previous` (`nil` for the first of a
  /// segment), as this probe left it: `time`, unless it lies less than ``minimumSpacing`` after
  /// `previous`, or before it, when it goes to ``minimumSpacing`` after `previous`.
  ///
  /// Times stamped on arrival only go forward within a segment, but `previous` may have been moved ahead
  /// of them: in a burst of three, the second goes to 1 ms after the first, and the third, stamped 0.5 ms
  /// after the first, would otherwise go out before the second (a CI run's movie had two frames out of
  /// order that way, and FFmpeg discarded one).
  static func spaced(_ time: UInt, after previous: UInt?) -> UInt {
    guard let previous, time < previous + minimumSpacing else { return time }
    return previous + minimumSpacing
  }

  /// Installs the probe on `pad`, the source's output. A new segment starts the count again.
  static func spaceOut(on pad: Pad) {
    let previous = Locked<UInt?>(nil)
    pad.addProbe([.buffer, .eventDownstream]) { _, info in
      if case .segment? = info.event {
        previous.withLock { $0 = nil }
        return .ok
      }
      guard let time = info.buffer?.presentationTime, ClockTime.isValid(time) else { return .ok }
      let moved = previous.withLock { previous in
        previous = Self.spaced(time, after: previous)
        return previous
      }
      if let moved, moved != time { info.writableBuffer()?.presentationTime = moved }
      return .ok
    }
  }
}
