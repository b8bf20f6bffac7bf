import HVTCameraCore
import HVTGStreamer

extension HVTMovieRepair {
  /// What one stream of the movie brought to the muxer: its caps and the frames (buffers) that survived,
  /// with their time span.
  struct Stream: Sendable {
    /// The stream's caps, read at its first buffer.
    var caps: Caps?
    /// Buffers that entered the muxer (for video, one per frame).
    var frames = 0
    /// The earliest timestamp (nanoseconds), and the latest start and end of a frame.
    var firstStart: UInt?
    var lastStart: UInt = 0
    var lastEnd: UInt = 0

    /// Whether the stream is video (`video/…` caps).
    var isVideo: Bool { hasMedia("video/") }
    /// Whether the stream is sound (`audio/…` caps).
    var isAudio: Bool { hasMedia("audio/") }

    private func hasMedia(_ prefix: String) -> Bool {
      caps.map { $0.count > 0 && $0.structure(at: 0).name.hasPrefix(prefix) } ?? false
    }

    /// Counts one buffer: its presentation time, or its decoding time when it has none.
    package mutating func record(_ buffer: BufferView) {
      let start = ClockTime.isValid(buffer.presentationTime) ? buffer.presentationTime : buffer.decodingTime
      frames += 1
      guard ClockTime.isValid(start) else { return }
      firstStart = min(firstStart ?? start, start)
      lastStart = max(lastStart, start)
      if ClockTime.isValid(buffer.duration) { lastEnd = max(lastEnd, start + buffer.duration) }
    }

    /// From the first frame's start to the last one's end, in seconds.
    var duration: Double {
      guard let firstStart else { return 0 }
      return ClockTime.seconds(end - firstStart)
    }

    /// The end of the last frame (nanoseconds). A last frame without a duration lasts one frame interval
    /// of the caps' frame rate.
    var end: UInt {
      let rate = caps.flatMap { $0.count > 0 ? $0.structure(at: 0).fraction("framerate") : nil }
      let interval = rate.map { $0.numerator > 0 ? ClockTime.second * UInt($0.denominator) / UInt($0.numerator) : 0 }
      return max(lastEnd, lastStart + (interval ?? 0))
    }
  }
}
