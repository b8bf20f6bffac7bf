import CGStreamer

/// Conversions between `GstClockTime` (nanoseconds in a `UInt`) and seconds.
public enum ClockTime {
  /// `GST_CLOCK_TIME_NONE`: the value GStreamer uses for "no timestamp".
  public static let none: UInt = hvt_gst_clock_time_none()

  /// `GST_SECOND`: nanoseconds per second.
  public static let second: UInt = hvt_gst_second()

  /// Whether a clock time holds a value (`GST_CLOCK_TIME_IS_VALID`).
  public static func isValid(_ time: UInt) -> Bool { time != none }

  /// The largest valid clock time (one below `GST_CLOCK_TIME_NONE`), about 584 years.
  public static let maximum: UInt = none - 1

  /// Converts seconds to a clock time, rounding to the nearest nanosecond. Never traps: NaN and negative
  /// values become 0, and values beyond ``maximum`` (infinity included) become ``maximum``.
  public static func from(seconds: Double) -> UInt {
    guard seconds > 0 else { return 0 }
    let nanoseconds = (seconds * Double(second)).rounded()
    // `Double(maximum)` rounds up to 2^64, which does not fit: compare before converting.
    return nanoseconds < Double(maximum) ? UInt(nanoseconds) : maximum
  }

  /// Converts a valid clock time to seconds.
  public static func seconds(_ time: UInt) -> Double { Double(time) / Double(second) }
}
