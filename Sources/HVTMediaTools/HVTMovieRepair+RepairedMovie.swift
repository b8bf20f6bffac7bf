import HVTCameraCore
import Foundation
import HVTGStreamer

extension HVTMovieRepair {
  /// What a repair recovered: the complete file it wrote and what that file holds, counted as the frames
  /// went from the demuxer into the muxer.
  public struct RepairedMovie: Sendable, Hashable, CustomStringConvertible {
    /// The repaired, complete file.
    public var url: URL
    /// The partial file it was made from (left as it was).
    public var source: URL
    /// The container, read by `typefind` and written again: `MP4`, `QuickTime`, `Matroska` or `WebM`.
    public var container: String
    /// The video codec as GStreamer names it, e.g. `H.264 (High Profile)` or `VP8` (from the demuxer's
    /// caps, `gst_pb_utils_get_codec_description`).
    public var codec: String
    /// The frame width in pixels, when the caps say.
    public var width: Int?
    /// The frame height in pixels, when the caps say.
    public var height: Int?
    /// The frames recovered (buffers of the video stream that reached the muxer).
    public var frames: Int
    /// From the first recovered frame's start to the last one's end, in seconds: the repaired file's
    /// container duration.
    public var duration: Double
    /// The repaired file's size in bytes.
    public var bytes: Int
    /// The partial file's size in bytes.
    public var sourceBytes: Int

    /// What the file holds, e.g. `640x480 H.264 (High Profile) in MP4, 2.000 s, 60 frames, 261054 bytes`.
    public var summary: String {
      let size = width.flatMap { width in height.map { "\(width)x\($0) " } } ?? ""
      return "\(size)\(codec) in \(container), \(String(format: "%.3f", duration)) s, \(frames) frames, \(bytes) bytes"
    }

    /// `path (summary)`.
    public var description: String { "\(url.path) (\(summary))" }

    init(url: URL, source: URL, container: String, main: Stream, bytes: Int, sourceBytes: Int) {
      let structure = main.caps.flatMap { $0.count > 0 ? $0.structure(at: 0) : nil }
      self.url = url
      self.source = source
      self.container = container
      codec = main.caps?.codecDescription ?? structure?.name ?? "unknown"
      width = structure?.int("width")
      height = structure?.int("height")
      frames = main.frames
      duration = main.duration
      self.bytes = bytes
      self.sourceBytes = sourceBytes
    }
  }
}
