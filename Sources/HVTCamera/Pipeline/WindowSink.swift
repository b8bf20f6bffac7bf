import HVTGStreamer

/// Chooses the sink of a `.window` preview explicitly, never through `autovideosink`, whose pick on a
/// machine without a usable display can be a sink that crashes the process (`dfbvideosink`).
///
/// Candidates follow the display the process has: Wayland (`WAYLAND_DISPLAY`) → `waylandsink`,
/// `glimagesink`; X11 (`DISPLAY`) → `xvimagesink`, `ximagesink`, `glimagesink` (for an embedded preview,
/// `xvimagesink`, `glimagesink`, `ximagesink`: the scaling sinks first). Each installed candidate
/// is opened (set to READY, which connects to the display) and the first that opens is used. Without a
/// display, or when none opens, the error says so.
///
/// `HVT_PREVIEW_SINK` in the process's environment names the one sink to try instead (``override``), for
/// the window and the embedded preview alike: how the tests run the default controls on each sink, and how
/// a person tries one. It must be installed and open the display (and, embedded, draw into a window), or
/// the preview fails saying so.
enum WindowSink {
  /// The environment variable that names the one sink to use, e.g. `HVT_PREVIEW_SINK=glimagesink`.
  static let override = "HVT_PREVIEW_SINK"

  /// How often a sink is tried before it counts as unable to open the display: an X server that has no
  /// other client (a bare `Xvfb` or `xinit`) resets when a probe closes its connection, and a connection
  /// made during the reset fails, which is no reason to fail.
  static let attempts = 3

  /// Whether a probe element of `factory` reaches READY, which connects it to the display.
  private static func opens(_ factory: String) throws -> Bool {
    for _ in 1...attempts {
      let probe = try Element(factory: factory)
      let opened = probe.setState(.ready) != .failure
      Teardown.stop(probe, what: "the display probe")
      if opened { return true }
    }
    return false
  }

  /// The sinks to try for a display environment, in order: the one ``override`` names, when set. With
  /// `overlayOnly`, the sinks that draw into an application's X11 window, those that scale the picture to
  /// the window first (`ximagesink` draws frames at their own size from the window's corner).
  static func candidates(environment: [String: String], overlayOnly: Bool = false) -> [String] {
    if let forced = environment[override], !forced.isEmpty { return [forced] }
    var names: [String] = []
    if !overlayOnly, environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) ?? false {
      names += ["waylandsink", "glimagesink"]
    }
    if environment["DISPLAY"].map({ !$0.isEmpty }) ?? false {
      names +=
        overlayOnly ? ["xvimagesink", "glimagesink", "ximagesink"] : ["xvimagesink", "ximagesink", "glimagesink"]
    }
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }

  /// The first candidate that is installed and opens the display (with `overlayOnly`, an X11 sink that
  /// can draw into an application's window). Wraps `gst_element_set_state` to READY
  /// and back to NULL on a probe element.
  static func choose(environment: [String: String], overlayOnly: Bool = false) throws -> String {
    let candidates = candidates(environment: environment, overlayOnly: overlayOnly)
    guard !candidates.isEmpty else {
      throw HVTCameraError.noDisplay(
        reason: overlayOnly
          ? "DISPLAY is not set (an embedded preview draws into an X11 window)"
          : "neither DISPLAY nor WAYLAND_DISPLAY is set")
    }
    var refused: [String] = []
    for factory in candidates where GStreamer.hasElement(factory) {
      if try opens(factory) { return factory }
      refused.append(factory)
    }
    let display =
      environment["WAYLAND_DISPLAY"].map { "Wayland display \($0)" } ?? "X display \(environment["DISPLAY"] ?? "")"
    let forced = environment[override].flatMap { $0.isEmpty ? nil : " (\(override))" } ?? ""
    throw HVTCameraError.noDisplay(
      reason: refused.isEmpty
        ? "none of \(candidates.joined(separator: ", "))\(forced) is installed (Debian: gstreamer1.0-x, gstreamer1.0-gl)"
        : "\(refused.joined(separator: ", "))\(forced) could not open the \(display)")
  }
}
