/// A capture size beyond ``HVTCameraController/QualityType``'s fixed list: any width×height, or the
/// largest the camera offers (``HVTCameraController/videoSize``, ``HVTCameraController/photoSize``).
/// A size the camera cannot give falls back as a quality's does: to the offered size nearest it.
public enum HVTCaptureSize: Sendable, Hashable, CustomStringConvertible {
  /// This width and height.
  case size(HVTFrameSize)
  /// The largest size the camera offers at which it reaches its frame rate (a sensor's full size: not a
  /// webcam's 2 fps still mode).
  case largest

  /// `WIDTHxHEIGHT` (from 16x16 to 7680x4320), or `largest`: what `hvtcam --quality` and `--photo-size` take.
  public init?(commandLineName name: String) {
    if name == "largest" {
      self = .largest
      return
    }
    let parts = name.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      Self.widths.contains(width), Self.heights.contains(height)
    else { return nil }
    self = .size(HVTFrameSize(width: width, height: height))
  }

  /// The widths a size may have.
  public static let widths = 16...7680
  /// The heights a size may have.
  public static let heights = 16...4320

  /// The size asked of the camera; `nil` for ``largest``.
  package var requested: HVTFrameSize? {
    if case .size(let size) = self { size } else { nil }
  }

  /// `1280x960`, or `largest`.
  public var description: String { requested?.description ?? "largest" }
}
