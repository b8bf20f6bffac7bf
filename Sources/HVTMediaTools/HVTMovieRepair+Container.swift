import HVTCameraCore
import HVTGStreamer

extension HVTMovieRepair {
  /// A movie container the repair can rebuild: the demuxer that reads its surviving fragments and the
  /// muxer that writes them again as a complete file of the same kind.
  struct Container: Sendable, Hashable {
    /// What people call it: `MP4`, `QuickTime`, `Matroska`, `WebM`.
    let name: String
    /// The element that reads it, e.g. `qtdemux`.
    let demuxer: String
    /// The element that writes it again, e.g. `mp4mux` (not fragmented: one index at the end).
    let muxer: String

    /// The container `typefind` recognised as `type` (its caps' first structure), or `nil` when the
    /// repair does not know it: `video/quicktime` (variant `apple` is QuickTime, the others are MP4),
    /// `video/x-matroska` and `video/webm`.
    init?(type: CapsStructure) {
      switch type.name {
      case "video/quicktime" where type.string("variant") == "apple":
        self.init(name: "QuickTime", demuxer: "qtdemux", muxer: "qtmux")
      case "video/quicktime":
        self = .mp4
      case "video/x-matroska":
        self.init(name: "Matroska", demuxer: "matroskademux", muxer: "matroskamux")
      case "video/webm":
        self.init(name: "WebM", demuxer: "matroskademux", muxer: "webmmux")
      default:
        return nil
      }
    }

    /// MP4, as `qtdemux` reads it and `mp4mux` writes it.
    static let mp4 = Container(name: "MP4", demuxer: "qtdemux", muxer: "mp4mux")

    private init(name: String, demuxer: String, muxer: String) {
      self.name = name
      self.demuxer = demuxer
      self.muxer = muxer
    }
  }
}
