import HVTGStreamer

/// Process-wide GStreamer lifetime.
public enum HVTCameraRuntime {
  /// The GStreamer version in use, e.g. `"GStreamer 1.22.0"`. Wraps `gst_version_string`.
  public static var gstreamerVersion: String { GStreamer.versionString }

  /// Releases GStreamer's global state at the very end of a process, so that `GST_TRACERS=leaks` reports
  /// what is still alive. No camera can be used afterwards. Wraps `gst_deinit`.
  public static func shutDown() {
    GStreamer.deinitialize()
  }
}
