import Foundation
import MediaInspection

/// `hvtcam run` on a private X display, used as a person uses it: real key presses and mouse clicks
/// (`xdotool`, through the XTEST extension) in its window, screenshots of the window. The review's steps
/// are ``CameraWindow``'s.
struct InteractiveCamera: CameraWindow {
  let display: PrivateDisplay
  let process: Subprocess
  let directory: TemporaryDirectory
  /// The window's id, as `xdotool` prints it.
  let window: String

  /// Starts `hvtcam run` with the simulated camera at 640x480 and `arguments`, writing into a fresh
  /// folder, and waits until its camera is ready and its window is shown. With `tracingLeaks`, under
  /// GStreamer's leaks tracer (``LeakTests/expectNoLeaks(_:sourceLocation:)`` reads the result).
  init(_ arguments: [String] = [], tracingLeaks: Bool = false) async throws {
    display = try await PrivateDisplay()
    directory = try TemporaryDirectory()
    // The engine's debug lines (each key and what it did) go with the rest of stderr into a failure's
    // message, and `ximagesink`'s (each key X gave it, a few lines more at start and stop): a key the engine
    // never heard of once, in the Debian 13 tier, after a camera switch, and its log could not tell whether
    // X delivered it.
    let debug = ["GST_DEBUG": "hvtcamera:5,ximagesink:5", "GST_DEBUG_NO_COLOR": "1"]
    process = try HVTCam.start(
      ["run"] + HVTCam.recording + ["-o", directory.url.path] + arguments,
      environment: HVTCam.environment(
        setting: ["DISPLAY": display.name, "XDG_RUNTIME_DIR": directory.url.path].merging(
          tracingLeaks ? LeakTests.tracer.merging(["GST_DEBUG": "GST_TRACER:7,hvtcamera:5"]) { $1 } : debug
        ) { $1 },
        removing: ["WAYLAND_DISPLAY"]))
    _ = try await process.requireStandardErrorLine("ready") { $0 == "ready" }
    // Found once shown (`--onlyvisible`, waited for with `--sync`): a key pressed into a window not yet
    // mapped reaches nothing. In a clean-clone CI run of the Debian 13 tier beside the whole suite, a key
    // reached nothing while the pointer, at the middle of the screen, was over the root window (543 on
    // that Xvfb): the camera's window was not shown where it shows.
    let search = try await display.xdotool(["search", "--sync", "--onlyvisible", "--name", "^hvtcam run"])
    guard let window = search.outputLines.first else { throw TestFailure("no 'hvtcam run' window: \(search)") }
    self.window = window
    _ = try await display.xdotool(["windowfocus", "--sync", window])
  }

  /// Gives the window the keyboard's focus (as a person's click into it would) and presses and releases
  /// keys there, by X keysym name: one `xdotool` run, so that the focus a key goes to is the window's
  /// even if something took it since (a clean-clone CI run once lost a key press, nothing reaching the
  /// engine).
  func key(_ keys: [String]) async throws {
    _ = try await display.xdotool(["windowfocus", "--sync", window, "key", "--delay", "20"] + keys)
  }

  /// Clicks the left button at (`x`, `y`) of the window.
  func click(_ x: Int, _ y: Int) async throws {
    _ = try await display.xdotool(["mousemove", "--window", window, String(x), String(y), "click", "1"])
  }

  /// Drags with the left button from (`x0`, `y0`) to (`x1`, `y1`) of the window.
  func drag(from x0: Int, _ y0: Int, to x1: Int, _ y1: Int) async throws {
    _ = try await display.xdotool(
      [
        "mousemove", "--window", window, String(x0), String(y0), "mousedown", "1", "mousemove", "--window", window,
        String(x1), String(y1), "mouseup", "1",
      ])
  }

  /// Turns the wheel one step towards the user (button 5) at (`x`, `y`) of the window.
  func wheelDown(at x: Int, _ y: Int) async throws {
    _ = try await display.xdotool(["mousemove", "--window", window, String(x), String(y), "click", "5"])
  }

  /// A screenshot of the window (640 × 480, the frame's size: `ximagesink` draws frames at their size).
  func screenshot() async throws -> RGBImage {
    try await RGBImage.screenshot(window: window, display: display.name, width: 640, height: 480)
  }

  /// Screenshots until one shows what `shows` accepts (what a key changed appears at the next frames;
  /// see ``RGBImage/screenshot(window:display:width:height:tries:showing:)``).
  func screenshot(showing shows: (RGBImage) -> Bool) async throws -> RGBImage {
    try await RGBImage.screenshot(window: window, display: display.name, width: 640, height: 480, showing: shows)
  }

  /// Keeps a picture of the window for the README (see ``RGBImage/keepScreenshot(of:display:named:width:height:)``).
  func keepScreenshot(_ name: String) async throws {
    try await RGBImage.keepScreenshot(of: window, display: display.name, named: name, width: 640, height: 480)
  }

  /// Presses Escape (Cancel) and waits for hvtcam to end; stops the display and returns how it ended.
  func cancel() async throws -> ProcessResult {
    try await key("Escape")
    let result = await process.result()
    await display.stop()
    return result
  }

  /// Runs `body`; when it throws (a failed requirement), ends everything (``stop()``) before passing the
  /// error on, so that no `hvtcam` or display outlives the test.
  func stoppingOnFailure<Value>(_ body: () async throws -> Value) async throws -> Value {
    do {
      return try await body()
    } catch {
      // Where the X server sends keys and the pointer then, for a key that reached nothing.
      let focus = try? await display.xdotool(["getwindowfocus", "getmouselocation"])
      await stop()
      throw TestFailure(
        "\(error)\nthe window \(window); xdotool getwindowfocus getmouselocation: \(focus?.standardOutput ?? "failed")")
    }
  }

  /// Ends everything without asking (after a failed expectation).
  func stop() async {
    process.send(SIGKILL)
    _ = await process.result()
    await display.stop()
    directory.remove()
  }
}

extension RGBImage {
  /// The shutter's label over the dark bottom bars of a 640 × 480 screenshot: white text makes bright
  /// pixels there (none on the review screen, which has no shutter).
  var shutterLabelPixels: Int { count(in: 240..<400, 430..<472, dark: false) }

  /// How many pixels in the rectangle are dark (every channel below 170) or bright (every channel above
  /// 200): text and its shaded background show up as these.
  func count(in x: Range<Int>, _ y: Range<Int>, dark: Bool) -> Int {
    x.reduce(0) { total, px in
      total
        + y.filter { py in
          let pixel = self.pixel(px, py)
          return dark ? max(pixel.r, pixel.g, pixel.b) < 170 : min(pixel.r, pixel.g, pixel.b) > 200
        }.count
    }
  }
}
