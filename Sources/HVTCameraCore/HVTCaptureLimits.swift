/// The ranges numeric settings must fall in: the library clamps values to them, and `hvtcam` refuses
/// values outside them with a usage error that names the range.
public enum HVTCaptureLimits {
  /// A closed range of seconds.
  public struct Seconds: Sendable, Hashable, CustomStringConvertible {
    /// The smallest value allowed.
    public let lowerBound: Double
    /// The largest value allowed.
    public let upperBound: Double

    /// `value` moved into the range (NaN becomes the lower bound).
    public func clamp(_ value: Double) -> Double {
      value.isNaN ? lowerBound : min(max(value, lowerBound), upperBound)
    }

    /// Whether `value` lies in the range.
    public func contains(_ value: Double) -> Bool { value >= lowerBound && value <= upperBound }

    /// `0.0333 to 86400 seconds`.
    public var description: String { "\(Self.format(lowerBound)) to \(Self.format(upperBound)) seconds" }

    private static func format(_ value: Double) -> String {
      value == value.rounded() ? String(Int(value)) : String(format: "%.4g", value)
    }
  }

  /// A recording's length (`videoMaximumDuration`): one frame at 30 fps up to 24 hours.
  public static let recordingDuration = Seconds(lowerBound: 1.0 / 30, upperBound: 24 * 3600)

  /// The seconds of video kept before a recording is asked for (`preRollDuration`): none up to a minute.
  public static let preRollDuration = Seconds(lowerBound: 0, upperBound: 60)

  /// A movie's key-frame interval (`videoKeyFrameInterval`): one frame at 30 fps up to one minute.
  public static let keyFrameInterval = Seconds(lowerBound: 1.0 / 30, upperBound: 60)

  /// `value` moved into `range`.
  package static func clamp(_ value: Int, to range: ClosedRange<Int>) -> Int {
    min(max(value, range.lowerBound), range.upperBound)
  }

  /// A movie's bit rate in bits per second (`videoBitRate`): 100 kbit/s up to 200 Mbit/s.
  public static let videoBitRate: ClosedRange<Int> = 100_000...200_000_000

  /// The longer side of thumbnails in pixels (`thumbnailMaximumDimension`): 16 up to 1920.
  public static let thumbnailDimension: ClosedRange<Int> = 16...1920

  /// How long the engine waits for progress before it gives up (a stalled drain, a camera that does not
  /// start): 0.1 s up to one hour.
  public static let stallTimeout = Seconds(lowerBound: 0.1, upperBound: 3600)
}
