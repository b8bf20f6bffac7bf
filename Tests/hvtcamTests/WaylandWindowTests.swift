import Foundation
import MediaInspection
import Testing
import WaylandHarness

/// `hvtcam run` on a Wayland compositor (a headless sway, ``PrivateCompositor``) used as a person uses it:
/// its window found by title in sway's tree, read back by `grim`, keys typed by `wtype` and clicks made by
/// a virtual mouse. `waylandsink` draws into a window HVTCamera opens itself (its own window has no title
/// and takes no keys or clicks), which hands the keys and clicks to the default controls. The movie
/// review's scenarios are ``MovieReview``'s, the same as on Xvfb.
@Suite(
  "hvtcam run on Wayland (headless sway)", .serialized, .timeLimit(.minutes(2)),
  .enabled(if: PrivateCompositor.unavailableReason == nil, "\(PrivateCompositor.unavailableReason ?? "")"))
struct WaylandWindowTests {
  /// `hvtcam run` with the simulated camera at 640x480 and `arguments` on a compositor whose output is
  /// `width` × `height` (the window fills it), its window up. The review's steps are ``CameraWindow``'s.
  struct Camera: CameraWindow {
    let compositor: PrivateCompositor
    let process: Subprocess
    let directory: TemporaryDirectory

    init(_ arguments: [String] = [], width: Int = 640, height: Int = 480, tracingLeaks: Bool = false) async throws {
      compositor = try await PrivateCompositor.start(width: width, height: height)
      directory = try TemporaryDirectory()
      process = try HVTCam.start(
        ["run"] + HVTCam.recording + ["-v", "-o", directory.url.path] + arguments,
        environment: HVTCam.environment(
          setting: compositor.environment.merging(tracingLeaks ? LeakTests.tracer : [:]) { $1 }))
      _ = try await process.requireStandardErrorLine("ready") { $0 == "ready" }
    }

    /// Presses and releases keys, by XKB keysym name, in the focused window (one `wtype`).
    func key(_ keys: [String]) async throws {
      try await compositor.press(keys)
    }

    /// Screenshots of the output until one shows what `shows` accepts, at most 30; the window fills the
    /// output, so at 640 × 480 they are the window's.
    func screenshot(showing shows: (RGBImage) -> Bool) async throws -> RGBImage {
      try await compositor.screenshot(showing: shows)
    }

    /// Presses Escape (Cancel) and waits for hvtcam to end; returns how it ended.
    func cancel() async throws -> ProcessResult {
      try await compositor.press("Escape")
      return await process.result()
    }

    /// Stops the compositor (hvtcam, if still running, loses its display and ends) and removes the folder.
    func remove() {
      compositor.stop()
      directory.remove()
    }
  }

  @Test("the window is titled and fills the output; the camera and every default control are drawn whole")
  func titledAndDrawn() async throws {
    let camera = try await Camera()
    defer { camera.remove() }
    let windows = try await camera.compositor.windows()
    #expect(windows.count == 1, "\(windows)")
    let window = try #require(windows.first)
    #expect(window.title == "hvtcam run" && window.appID == "org.hvtcamera.HVTCamera", "\(window)")
    #expect(window.width == 640 && window.height == 480, "\(window)")
    let shown = try await camera.compositor.screenshot(showing: DrawingOnSinksTests.showsEveryLabel)
    DrawingOnSinksTests.expectControlsDrawn(in: shown, on: "waylandsink in HVTCamera's own window")
    let result = try await camera.cancel()
    #expect(result.succeeded, "Escape cancels: \(result)")
    #expect(
      result.errorLines.contains { $0.hasSuffix("/GstWaylandSink:preview: PAUSED -> PLAYING") },
      "the preview ran on waylandsink: \(result.errorLines.filter { $0.contains(":preview: ") })")
  }

  @Test(
    "keys and clicks in a 1280x720 window: space opens the review, a click on Retake keeps nothing, Return uses the next; no leak"
  )
  func keysAndClicks() async throws {
    let camera = try await Camera(width: 1280, height: 720, tracingLeaks: true)
    defer { camera.remove() }
    // The 640x480 picture is shown at 960x720, from x 160: a point of the picture is at 160 + 1.5 x, 1.5 y.
    let window = { (x: Int, y: Int) in (160 + x * 3 / 2, y * 3 / 2) }
    var mark = camera.mark
    try await camera.compositor.press("space")
    try await camera.line("the review", after: mark) { $0.hasPrefix("reviewing ") }
    mark = camera.mark
    let retake = window(100, 450)
    try await camera.compositor.click(retake.0, retake.1)
    try await camera.line("the photo discarded", after: mark) { $0 == "photo discarded" }
    #expect(try camera.directory.contents().isEmpty, "a retaken photo leaves no file")

    mark = camera.mark
    let shutter = window(320, 450)
    try await camera.compositor.click(shutter.0, shutter.1)
    try await camera.line("the second review", after: mark) { $0.hasPrefix("reviewing ") }
    mark = camera.mark
    try await camera.compositor.press("Return")  // Use Photo
    try await camera.line("the photo used", after: mark) { $0 == "photo used" }
    let result = try await camera.cancel()
    #expect(result.succeeded && result.outputLines.count == 1, "only the used photo is delivered: \(result)")
    let photo = try #require(result.outputLines.first)
    let discovered = try await MediaInspector.discover(photo)
    #expect(discovered.isJPEG && discovered.size == "640x480", "\(discovered)")
    LeakTests.expectNoLeaks(result)
  }

  @Test(
    "--mode video: a stopped recording is reviewed, its timeline drawn; space starts nothing; r (Retake) leaves no file"
  )
  func movieReviewAndRetake() async throws {
    let camera = try await Camera(["--mode", "video"])
    defer { camera.remove() }
    try await MovieReview.retake(on: camera)
  }

  @Test(
    """
    --allows-editing --max-duration 3: the ball's movie stops itself into the review; typed keys move the playhead, \
    which shows its frame, and set the trim; Return delivers the cut movie, first and last frames the chosen ones
    """)
  func trimMovieWithKeys() async throws {
    let camera = try await Camera(["--mode", "video", "--allows-editing", "--max-duration", "3"])
    defer { camera.remove() }
    try await MovieReview.trimWithKeys(on: camera)
  }

  @Test("hvtcam library browse: the window is titled and shows the grid; Right moves the selection; a click picks")
  func libraryWindow() async throws {
    typealias Library = LibraryWindowTests
    let compositor = try await PrivateCompositor.start(width: Library.width, height: Library.height)
    defer { compositor.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photos = try await Library.makePhotos(in: directory)
    let browser = try HVTCam.start(
      ["library", "browse", "--source", "photo-library"],
      environment: HVTCam.environment(
        setting: compositor.environment.merging([
          "XDG_PICTURES_DIR": directory.path("Pictures"), "XDG_VIDEOS_DIR": directory.path("Videos"),
        ]) { $1 }))
    _ = try await browser.requireStandardErrorLine("the window") { $0 == "showing 3 items" }
    let windows = try await compositor.windows()
    #expect(windows.count == 1 && windows.first?.title?.hasPrefix("hvtcam library") == true, "\(windows)")
    let grid = try await compositor.screenshot { image in
      Library.isSelected(image, slot: 0)
        && image.colourName(Library.tileWidth * 2 + Library.tileWidth / 2, Library.tileHeight / 2) == "blue"
    }
    let centres = (0..<3).map {
      grid.colourName($0 * Library.tileWidth + Library.tileWidth / 2, Library.tileHeight / 2)
    }
    #expect(centres == ["red", "green", "blue"], "the tiles, newest first")

    let mark = browser.standardErrorSoFar.count
    try await compositor.press("Right")
    _ = try await browser.requireStandardErrorLine("the selection", from: mark) { $0 == "selected 2: \(photos[1])" }
    try await compositor.click(400, 66)
    let result = await browser.result()
    #expect(result.succeeded && result.outputLines == [photos[2]], "the clicked photo is picked: \(result)")
  }
}
