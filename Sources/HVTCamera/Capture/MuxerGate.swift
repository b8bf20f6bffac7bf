import HVTGStreamer
import HVTSupport

/// Holds a movie's video at the muxer's door until its sound's format has reached the muxer: a blocking
/// probe on the pad that feeds the muxer its video (`GST_PAD_PROBE_TYPE_BLOCK` on buffers; events pass,
/// so the video's caps are there). `mp4mux` writes a track for every pad when its first data comes, and a
/// sound pad that had no caps yet became a track without a sample description, which makes the whole
/// file unreadable (seen under load, when the video reached the muxer before the first AAC frame). The
/// recording queue before the encoder holds the frames meanwhile.
final class MuxerGate: Sendable {
  private let held: Locked<(pad: Pad, probe: UInt)?>

  /// Starts holding the buffers that leave `pad`.
  init(holding pad: Pad) {
    let probe = pad.addProbe([.block, .buffer]) { _, _ in .ok }
    held = Locked((pad, probe))
  }

  /// Whether the video is still held.
  var isHolding: Bool { held.withLock { $0 != nil } }

  /// Lets the video through, from now on; later calls do nothing. Wraps `gst_pad_remove_probe`.
  func open() {
    let probe = held.withLock { held in
      defer { held = nil }
      return held
    }
    probe.map { $0.pad.removeProbe($0.probe) }
  }
}
