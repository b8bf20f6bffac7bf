import Foundation
import MediaInspection

extension MediaInspector {
  /// `gst-discoverer-1.0` on a file URL.
  static func discover(_ url: URL) async throws -> Discovery { try await discover(url.path) }

  /// The number of frames `qtdemux` reads from an MP4 file URL.
  static func frameCount(_ url: URL) async throws -> Int { try await frameCount(url.path).frames }

  /// The mean luma of a JPEG file URL.
  static func meanLuma(ofJPEG url: URL) async throws -> Double { try await meanLuma(ofJPEG: url.path) }
}
