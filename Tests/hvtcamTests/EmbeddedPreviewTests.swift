import Foundation
import MediaInspection
import Testing

/// The preview in windows on a private Xvfb, checked as a person would see it: screenshots of the
/// windows, read by `ximagesrc`, must show the simulated camera's colour bars.
@Suite("hvtcam preview windows on Xvfb", .timeLimit(.minutes(2)))
struct EmbeddedPreviewTests {
  /// hvtcam's environment for a display: DISPLAY, and XDG_RUNTIME_DIR as a desktop session has it.
  private static func environment(_ display: PrivateDisplay, _ directory: TemporaryDirectory) -> [String: String] {
    HVTCam.environment(
      setting: ["DISPLAY": display.name, "XDG_RUNTIME_DIR": directory.url.path], removing: ["WAYLAND_DISPLAY"])
  }

  /// Screenshots of `window` until it shows the seven bars across `width` × `height` (the sink draws the
  /// next frame at the new size); returns the last.
  private static func screenshotShowingBars(_ window: String, on display: PrivateDisplay, width: Int, height: Int)
    async throws -> RGBImage
  {
    try await RGBImage.screenshot(window: window, display: display.name, width: width, height: height) {
      $0.barNames() == RGBImage.smpteBars
    }
  }

  @Test(
    "--window-id: the camera is drawn inside the app's window, opens none of its own, fills it after a resize; no leak"
  )
  func embedded() async throws {
    let display = try await PrivateDisplay()
    let window = try await AppWindow(display: display, title: "camera app", width: 320, height: 240)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let windowsBefore = try await topLevelWindows(on: display)
    let path = directory.path("embedded.mp4")
    let recording = try HVTCam.start(
      ["record"] + HVTCam.recording + ["--window-id", window.id, "--max-duration", "60", "-o", path],
      environment: Self.environment(display, directory).merging(LeakTests.tracer) { $1 })
    _ = try await recording.requireStandardErrorLine("a second recorded") { $0.hasPrefix("elapsed 1 ") }
    let shown = try await Self.screenshotShowingBars(window.id, on: display, width: 320, height: 240)
    #expect(shown.barNames() == RGBImage.smpteBars)
    #expect(try await topLevelWindows(on: display) == windowsBefore, "hvtcam opened no window of its own")
    try await window.resize(width: 480, height: 360, display: display)
    let resized = try await Self.screenshotShowingBars(window.id, on: display, width: 480, height: 360)
    #expect(resized.barNames() == RGBImage.smpteBars, "the picture fills the resized window")
    try await RGBImage.keepScreenshot(
      of: window.topLevel, display: display.name, named: "embedded-in-tk", width: 480, height: 360)
    recording.send(SIGINT)
    let result = await recording.result()
    await window.close()
    await display.stop()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    // glimagesink's GL display lives as long as the pipeline: released before exit, or Mesa's threads
    // outlive the process's teardown (a crash seen at exit before the controller released it in time).
    LeakTests.expectNoLeaks(result)
    let movie = try await MediaInspector.discover(path)
    #expect(movie.isH264 && movie.size == "640x480", "\(movie)")
  }

  @Test("--preview window: a window titled after the command shows the camera")
  func ownWindow() async throws {
    let display = try await PrivateDisplay()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("window.mp4")
    let recording = try HVTCam.start(
      ["record"] + HVTCam.recording + ["--preview", "window", "--max-duration", "60", "-o", path],
      environment: Self.environment(display, directory))
    _ = try await recording.requireStandardErrorLine("a second recorded") { $0.hasPrefix("elapsed 1 ") }
    // The sinks add the application's name to the title: "hvtcam record : hvtcam".
    let found = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/xdotool"), ["search", "--name", "^hvtcam record"],
      environment: ["DISPLAY": display.name])
    #expect(found.succeeded && found.outputLines.count == 1, "one window named 'hvtcam record…': \(found)")
    if let id = found.outputLines.first, found.succeeded {
      // ximagesink (Xvfb has no Xv adaptor) opens a window of the frame's size.
      let shown = try await Self.screenshotShowingBars(id, on: display, width: 640, height: 480)
      #expect(shown.barNames() == RGBImage.smpteBars)
    }
    recording.send(SIGINT)
    let result = await recording.result()
    await display.stop()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
  }
}
