/// The size (and, for iFrame, the encoding) of captures, as in `UIImagePickerController.QualityType`.
///
/// A quality the device cannot deliver falls back to `.type1920x1080`, and if the device cannot deliver
/// that either, to the size it offers nearest the request; the capture's metadata says what was used.
public enum HVTQualityType: String, Sendable, Hashable, CaseIterable {
  /// The largest size the device offers (up to 3840x2160).
  case typeHigh
  /// 640x480: sharing over slow networks.
  case typeMedium
  /// 320x240: the smallest useful size.
  case typeLow
  /// 640x480 (VGA).
  case type640x480
  /// 1280x720 (HD).
  case type1280x720
  /// 1920x1080 (Full HD), the default.
  case type1920x1080
  /// 3840x2160 (UHD).
  case type3840x2160
  /// 960x540, every frame a key frame (Apple's iFrame editing format).
  case typeIFrame960x540
  /// 1280x720, every frame a key frame (Apple's iFrame editing format).
  case typeIFrame1280x720

  /// The names the command line uses: `640x480 1280x720 1920x1080 3840x2160 high medium low
  /// iframe960x540 iframe1280x720`.
  public var commandLineName: String {
    switch self {
    case .typeHigh: "high"
    case .typeMedium: "medium"
    case .typeLow: "low"
    case .type640x480: "640x480"
    case .type1280x720: "1280x720"
    case .type1920x1080: "1920x1080"
    case .type3840x2160: "3840x2160"
    case .typeIFrame960x540: "iframe960x540"
    case .typeIFrame1280x720: "iframe1280x720"
    }
  }

  /// The quality with this command-line name, or `nil`.
  public init?(commandLineName: String) {
    guard let match = Self.allCases.first(where: { $0.commandLineName == commandLineName }) else { return nil }
    self = match
  }

  /// The frame size asked of the device; `nil` for `.typeHigh`, which takes the largest size offered.
  public var requestedSize: HVTFrameSize? {
    switch self {
    case .typeHigh: nil
    case .typeMedium, .type640x480: HVTFrameSize(width: 640, height: 480)
    case .typeLow: HVTFrameSize(width: 320, height: 240)
    case .type1280x720, .typeIFrame1280x720: HVTFrameSize(width: 1280, height: 720)
    case .type1920x1080: HVTFrameSize(width: 1920, height: 1080)
    case .type3840x2160: HVTFrameSize(width: 3840, height: 2160)
    case .typeIFrame960x540: HVTFrameSize(width: 960, height: 540)
    }
  }

  /// Whether movies are encoded with every frame a key frame (the iFrame qualities).
  public var isIntraOnly: Bool { self == .typeIFrame960x540 || self == .typeIFrame1280x720 }
}

/// A frame size in pixels.
public struct HVTFrameSize: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates a size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The number of pixels.
  public var area: Int { width * height }

  /// Orders sizes by area, then width.
  public static func < (lhs: HVTFrameSize, rhs: HVTFrameSize) -> Bool {
    (lhs.area, lhs.width) < (rhs.area, rhs.width)
  }

  /// `WIDTHxHEIGHT`, e.g. `1280x720`.
  public var description: String { "\(width)x\(height)" }
}
