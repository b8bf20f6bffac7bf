import CGStreamer

/// A GStreamer debug category of the application's own, so that `GST_DEBUG=name:LEVEL` shows its log
/// lines among GStreamer's. Wraps `_gst_debug_category_new` (what `GST_DEBUG_CATEGORY_INIT` expands to).
///
/// `@unchecked Sendable`: a category GStreamer registers for the process and never frees; logging to it is thread-safe.
public final class DebugCategory: @unchecked Sendable {
  /// Log levels (`GstDebugLevel`).
  public enum Level: UInt32, Sendable, Comparable {
    /// `GST_LEVEL_ERROR`
    case error = 1
    /// `GST_LEVEL_WARNING`
    case warning = 2
    /// `GST_LEVEL_FIXME`
    case fixme = 3
    /// `GST_LEVEL_INFO`
    case info = 4
    /// `GST_LEVEL_DEBUG`
    case debug = 5
    /// `GST_LEVEL_LOG`
    case log = 6
    /// `GST_LEVEL_TRACE`
    case trace = 7

    /// Less verbose levels order first.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  private let pointer: UnsafeMutablePointer<GstDebugCategory>

  /// Registers (or finds) the category `name`, described in `gst-launch-1.0 --gst-debug-help`.
  public init(name: String, description: String) {
    GStreamer.initialize()
    pointer = _gst_debug_category_new(name, 0, description)
  }

  /// Whether messages of `level` would be shown (`GST_DEBUG` threshold). Wraps
  /// `gst_debug_category_get_threshold`.
  public func isEnabled(_ level: Level) -> Bool {
    gst_debug_category_get_threshold(pointer).rawValue >= level.rawValue
  }

  /// Logs a message at `level`, attributed to `object` (an element's name appears in the line) and to the
  /// Swift source location. The message is built only when the level is enabled. Wraps
  /// `gst_debug_log_literal`.
  public func log(
    _ level: Level, _ message: @autoclosure () -> String, object: Element? = nil,
    file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
  ) {
    guard isEnabled(level) else { return }
    let text = message()
    file.withUTF8Buffer { fileBytes in
      function.withUTF8Buffer { functionBytes in
        let fileName = String(decoding: fileBytes, as: UTF8.self)
        let functionName = String(decoding: functionBytes, as: UTF8.self)
        gst_debug_log_literal(
          pointer, GstDebugLevel(rawValue: level.rawValue), fileName, functionName, gint(line),
          object.map { UnsafeMutablePointer<GObject>(OpaquePointer($0.pointer)) }, text)
      }
    }
  }
}

extension Bin {
  /// Writes the bin's graph to `$GST_DEBUG_DUMP_DOT_DIR/<timestamp>-<name>.dot` when that variable is set
  /// (GStreamer does nothing otherwise). Wraps `gst_debug_bin_to_dot_file_with_ts`.
  public func dumpDotFile(named name: String) {
    gst_debug_bin_to_dot_file_with_ts(bin, GST_DEBUG_GRAPH_SHOW_ALL, name)
  }
}
