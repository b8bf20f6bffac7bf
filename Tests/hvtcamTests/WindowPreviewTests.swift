import Foundation
import MediaInspection
import Testing

/// `--preview window` (`HVTPreviewOutput.window`): a sink chosen for the display the process has, opened
/// before it is used; without a display, a clear error instead of a crash.
@Suite("hvtcam --preview window", .timeLimit(.minutes(2)))
struct WindowPreviewTests {
  @Test("without a display: exit 1, saying there is none; no crash, no file")
  func noDisplay() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // A desktop session has XDG_RUNTIME_DIR; without it, glimagesink's probe of Wayland prints a line of
    // libwayland's own.
    let session = ["XDG_RUNTIME_DIR": directory.url.path]
    for environment in [
      HVTCam.environment(setting: session, removing: ["DISPLAY", "WAYLAND_DISPLAY"]),
      HVTCam.environment(setting: session.merging(["DISPLAY": ":4095"]) { $1 }, removing: ["WAYLAND_DISPLAY"]),
    ] {
      let result = try await HVTCam.run(
        ["photo"] + HVTCam.simulated + ["--preview", "window", "-o", directory.path("shot.jpg")],
        environment: environment)
      #expect(result.status == 1 && !result.signalled, "\(result)")
      #expect(result.standardError.hasPrefix("hvtcam photo: cannot show the preview in a window: "), "\(result)")
      let reason =
        environment["DISPLAY"] == nil
        ? "neither DISPLAY nor WAYLAND_DISPLAY is set" : "could not open the X display :4095"
      #expect(result.standardError.contains(reason), "\(result)")
    }
    #expect(try directory.contents().isEmpty)
  }

  @Test("on a private Xvfb: an X sink opens the window and the photo is taken")
  func onXvfb() async throws {
    let display = try await PrivateDisplay()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let result = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["--preview", "window", "-v", "-o", path],
      environment: HVTCam.environment(setting: ["DISPLAY": display.name], removing: ["WAYLAND_DISPLAY"]))
    let log = display.log + ["running: \(display.isRunning)"]
    await display.stop()
    #expect(result.succeeded && result.outputLines == [path], "\(result)\nXvfb: \(log)")
    // Xvfb has no Xv adaptor, so xvimagesink cannot open it and ximagesink is used.
    #expect(result.errorLines.contains { $0.contains("/GstXImageSink:preview: PAUSED -> PLAYING") }, "\(result)")
    #expect(result.errorLines.contains { $0.contains("prepare-window-handle") }, "a window was made: \(result)")
    try await expectJPEG(at: path)
  }
}
