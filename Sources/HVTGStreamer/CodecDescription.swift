import CGStreamer
import HVTGLib

extension Caps {
  private static let pbUtilsInitialized: Void = {
    GStreamer.initialize()
    gst_pb_utils_init()
  }()

  /// The codec the caps describe, as GStreamer's tools name it, e.g. `H.264 (High Profile)` or `VP8` (what
  /// `gst-discoverer-1.0` prints); `nil` for caps it does not know. Wraps
  /// `gst_pb_utils_get_codec_description`.
  public var codecDescription: String? {
    _ = Self.pbUtilsInitialized
    return gst_pb_utils_get_codec_description(pointer).map { String(ownedCString: $0) }
  }
}
