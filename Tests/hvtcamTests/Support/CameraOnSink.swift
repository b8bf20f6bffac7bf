import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// `hvtcam run` on a private Xvfb with its preview on one sink (`HVT_PREVIEW_SINK`), 640 × 480 shown at its
/// own size, in a window of its own or embedded in a Tk window of the test's (`--window-id`), the leaks
/// tracer on.
struct CameraOnSink {
  /// Where the preview is shown.
  enum Placement: String, CaseIterable, Sendable {
    /// In a window of its own (`hvtcam run`'s `.window`).
    case window
    /// In a Tk window of the test's own (`--window-id`).
    case embedded
  }

  /// The sink asked for.
  let sink: String
  private let display: PrivateDisplay
  private let directory: TemporaryDirectory
  private let app: AppWindow?
  private let camera: Subprocess
  /// The window the preview is drawn in.
  let window: String

  /// Starts `hvtcam run` with the simulated camera, `--verbose` and `arguments`, and waits until its camera is
  /// ready and its window shown.
  init(sink: String, _ placement: Placement, _ arguments: [String] = []) async throws {
    self.sink = sink
    display = try await PrivateDisplay()
    directory = try TemporaryDirectory()
    app =
      placement == .embedded
      ? try await AppWindow(display: display, title: "camera app", width: 640, height: 480) : nil
    let environment = LeakTests.tracing(configHome: directory.url).merging([
      "DISPLAY": display.name, "XDG_RUNTIME_DIR": directory.url.path, WindowSink.override: sink,
    ]) { $1 }.filter { $0.key != "WAYLAND_DISPLAY" }
    camera = try HVTCam.start(
      ["run"] + HVTCam.recording + ["-v", "-o", directory.url.path] + (app.map { ["--window-id", $0.id] } ?? [])
        + arguments,
      environment: environment)
    _ = try await camera.requireStandardErrorLine("ready") { $0 == "ready" }
    if let app { window = app.id } else { window = try await Self.cameraWindow(on: display) }
  }

  /// The camera's own window on `display`: `hvtcam run`'s, named after the title tag by the X sinks and
  /// "OpenGL renderer" by `glimagesink` (which does not read the tag). Waits until it is shown
  /// (`xdotool search --sync`; ended with the test when cancelled, or after the subprocess hang limit).
  private static func cameraWindow(on display: PrivateDisplay) async throws -> String {
    let search = try await display.xdotool(
      ["search", "--sync", "--onlyvisible", "--name", "^(hvtcam run|OpenGL renderer)"])
    guard let window = search.outputLines.first else { throw TestFailure("no camera window: \(search)") }
    return window
  }

  /// Screenshots of the preview's window until one shows what `shows` accepts; returns the last.
  func screenshot(showing shows: (RGBImage) -> Bool) async throws -> RGBImage {
    try await RGBImage.screenshot(window: window, display: display.name, width: 640, height: 480, showing: shows)
  }

  /// Ends hvtcam with SIGINT, closes the windows and the display; expects a clean exit, the preview on the
  /// sink asked for, and nothing leaked.
  func stop(sourceLocation: SourceLocation = #_sourceLocation) async {
    camera.send(SIGINT)
    let result = await camera.result()
    await app?.close()
    await display.stop()
    directory.remove()
    #expect(result.succeeded, "\(result)", sourceLocation: sourceLocation)
    let typeName = Self.typeNames[sink] ?? sink
    #expect(
      result.errorLines.contains { $0.contains("/\(typeName):preview: PAUSED -> PLAYING") },
      "the preview ran on \(sink): \(result.errorLines.filter { $0.contains(":preview: ") })",
      sourceLocation: sourceLocation)
    LeakTests.expectNoLeaks(result, sourceLocation: sourceLocation)
  }

  /// The sinks' GStreamer type names, as `--verbose` prints them in element paths.
  private static let typeNames = [
    "ximagesink": "GstXImageSink", "glimagesink": "GstGLImageSinkBin", "xvimagesink": "GstXvImageSink",
  ]

  /// Whether a private Xvfb offers an Xv adaptor (`xvinfo`), without which `xvimagesink` cannot open it.
  static func hasXvAdaptor() async throws -> Bool {
    let display = try await PrivateDisplay()
    let info = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/xvinfo"), [], environment: ["DISPLAY": display.name])
    await display.stop()
    return info.outputLines.contains { $0.contains("Adaptor #") }
  }
}
