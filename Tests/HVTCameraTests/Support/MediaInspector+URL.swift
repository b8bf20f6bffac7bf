import Foundation
import MediaInspection

extension MediaInspector {
  /// `gst-discoverer-1.0` on a file URL.
  static func discover(_ url: URL) throws -> Discovery { try discover(url.path) }

  /// The number of frames `qtdemux` reads from an MP4 file URL.
  static func frameCount(_ url: URL) throws -> Int { try frameCount(url.path).frames }

  /// The mean luma of a JPEG file URL.
  static func meanLuma(ofJPEG url: URL) throws -> Double { try meanLuma(ofJPEG: url.path) }
}
