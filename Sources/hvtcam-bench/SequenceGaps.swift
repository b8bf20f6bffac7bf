import HVTGStreamer

/// Counts the frames a V4L2 driver lost: the gaps in the sequence numbers `v4l2src` gives each buffer as
/// its offset (`GST_BUFFER_OFFSET`).
struct SequenceGaps: Sendable {
  private var last: UInt?
  /// Frames missing so far.
  private(set) var lost = 0

  /// Notes one buffer's offset; a buffer without one (from a source that numbers none) is left out.
  mutating func note(_ offset: UInt) {
    guard ClockTime.isValid(offset) else { return }
    if let last, offset > last + 1 { lost += Int(offset - last - 1) }
    last = offset
  }
}
