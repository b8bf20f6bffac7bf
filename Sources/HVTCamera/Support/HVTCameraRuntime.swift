import Dispatch
import HVTGStreamer

/// Process-wide GStreamer lifetime.
public enum HVTCameraRuntime {
  /// The GStreamer version in use, e.g. `"GStreamer 1.22.0"`. Wraps `gst_version_string`.
  public static var gstreamerVersion: String { GStreamer.versionString }

  /// Controllers not yet released, or whose worker queue is still stopping what they left running.
  static let activeControllers = DispatchGroup()

  /// Releases GStreamer's global state at the very end of a process, so that `GST_TRACERS=leaks` reports
  /// what is still alive. First waits (up to `timeout` seconds) until every controller has been released
  /// and its worker queue has stopped what it left running: GStreamer objects released by another thread
  /// while `gst_deinit` runs would crash it. Returns whether they all had; no camera can be used
  /// afterwards. Wraps `gst_deinit`.
  @discardableResult
  public static func shutDown(timeout: Double = 10) -> Bool {
    let settled = activeControllers.wait(timeout: .now() + timeout) == .success
    GStreamer.deinitialize()
    return settled
  }
}
