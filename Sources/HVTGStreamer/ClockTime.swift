import CGStreamer

/// Conversions between `GstClockTime` (nanoseconds in a `UInt`) and seconds.
public enum ClockTime {
  /// `GST_CLOCK_TIME_NONE`: the value GStreamer uses for "no timestamp".
  public static let none: UInt = hvt_gst_clock_time_none()

  /// `GST_SECOND`: nanoseconds per second.
  public static let second: UInt = hvt_gst_second()

  /// Whether a clock time holds a value (`GST_CLOCK_TIME_IS_VALID`).
  public static func isValid(_ time: UInt) -> Bool { time != none }

  /// Converts seconds to a clock time, rounding to the nearest nanosecond.
  public static func from(seconds: Double) -> UInt { UInt((max(0, seconds) * Double(second)).rounded()) }

  /// Converts a valid clock time to seconds.
  public static func seconds(_ time: UInt) -> Double { Double(time) / Double(second) }
}
