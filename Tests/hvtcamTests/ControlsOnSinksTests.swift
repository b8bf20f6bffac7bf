import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The default controls drawn whole on every sink the engine can choose, embedded in an app's window
/// and in a window of their own: `hvtcam run` on a private Xvfb, `HVT_PREVIEW_SINK` forcing the sink,
/// the window read back by `ximagesrc`. Each button's box, where the engine places it
/// (``ControlsPicture``), must hold its label's white pixels and be shaded. Before the controls were
/// one element, `glimagesink` showed one label of five and no shade.
@Suite("The default controls on each sink", .serialized, .timeLimit(.minutes(2)))
struct ControlsOnSinksTests {
  /// Where the preview is shown.
  enum Placement: String, CaseIterable, Sendable {
    /// In a window of its own (`hvtcam run`'s `.window`).
    case window
    /// In a Tk window of the test's own (`--window-id`).
    case embedded
  }

  @Test("every label and its shaded box", arguments: ["ximagesink", "glimagesink"], Placement.allCases)
  func drawnWhole(sink: String, placement: Placement) async throws {
    try await expectControlsDrawn(on: sink, placement)
  }

  @Test(
    "xvimagesink: every label and its shaded box",
    .enabled("Xvfb has no Xv adaptor (xvinfo: no adaptors present), so xvimagesink cannot open it") {
      try await Self.hasXvAdaptor()
    }, arguments: Placement.allCases)
  func drawnWholeOnXv(placement: Placement) async throws {
    try await expectControlsDrawn(on: "xvimagesink", placement)
  }

  /// Whether a private Xvfb offers an Xv adaptor (`xvinfo`), without which `xvimagesink` cannot open it.
  static func hasXvAdaptor() async throws -> Bool {
    let display = try await PrivateDisplay()
    let info = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/xvinfo"), [], environment: ["DISPLAY": display.name])
    await display.stop()
    return info.outputLines.contains { $0.contains("Adaptor #") }
  }

  /// The sinks' GStreamer type names, as `--verbose` prints them in element paths.
  private static let typeNames = [
    "ximagesink": "GstXImageSink", "glimagesink": "GstGLImageSinkBin", "xvimagesink": "GstXvImageSink",
  ]

  /// Runs `hvtcam run` (the leaks tracer on) with its preview on `sink`, placed as `placement` says, on a
  /// 640 × 480 picture shown at its own size; expects every button drawn, the camera's bars around them, the
  /// sink used the one asked for, a clean exit on SIGINT and nothing leaked.
  private func expectControlsDrawn(on sink: String, _ placement: Placement) async throws {
    let display = try await PrivateDisplay()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let app =
      placement == .embedded
      ? try await AppWindow(display: display, title: "camera app", width: 640, height: 480) : nil
    let environment = LeakTests.tracing(configHome: directory.url).merging([
      "DISPLAY": display.name, "XDG_RUNTIME_DIR": directory.url.path, WindowSink.override: sink,
    ]) { $1 }.filter { $0.key != "WAYLAND_DISPLAY" }
    let camera = try HVTCam.start(
      ["run"] + HVTCam.simulated + ["-v", "-o", directory.url.path] + (app.map { ["--window-id", $0.id] } ?? []),
      environment: environment)
    _ = try await camera.requireStandardErrorLine("ready") { $0 == "ready" }
    let window: String
    if let app { window = app.id } else { window = try await Self.cameraWindow(on: display) }
    let boxes = try #require(
      ControlsPicture(
        look: .init(mode: .photo, flash: .auto, canSwitchMode: true, editing: false, recording: nil, review: nil),
        size: HVTFrameSize(width: 640, height: 480)
      ).render()
    ).rectangles.map(\.placement)
    #expect(boxes.count == 5, "Flash, Switch Camera, Cancel, the shutter and Mode")
    let shown = try await RGBImage.screenshot(window: window, display: display.name, width: 640, height: 480) {
      image in boxes.allSatisfy { Self.labelPixels(image, $0) >= Self.leastLabelPixels }
    }
    for (box, name) in zip(boxes, ["Flash: Auto", "Switch Camera", "Cancel", "( Take Photo )", "Mode: Photo"]) {
      let label = Self.labelPixels(shown, box)
      #expect(label >= Self.leastLabelPixels, "\(name) on \(sink), \(placement): \(label) white pixels in \(box)")
      let unshaded = Self.unshadedBorderPixels(shown, box)
      #expect(unshaded.isEmpty, "\(name)'s box on \(sink), \(placement) is not shaded at \(unshaded.prefix(8))")
    }
    // The top boxes lie over the 75 % bars, which go on below them: shaded, the box's border is darker.
    for box in boxes.prefix(2) {
      let (border, below) = Self.meanBrightness(shown, box)
      #expect(border < below * 0.7, "the shade darkens the bars on \(sink), \(placement): \(border) vs \(below)")
    }
    #expect(shown.barNames() == RGBImage.smpteBars, "the camera is shown around the controls")
    camera.send(SIGINT)
    let result = await camera.result()
    await app?.close()
    await display.stop()
    #expect(result.succeeded, "\(result)")
    let typeName = try #require(Self.typeNames[sink])
    #expect(
      result.errorLines.contains { $0.contains("/\(typeName):preview: PAUSED -> PLAYING") },
      "the preview ran on \(sink): \(result.errorLines.filter { $0.contains(":preview: ") })")
    LeakTests.expectNoLeaks(result)
  }

  /// The camera's own window on `display`: `hvtcam run`'s, named after the title tag by the X sinks and
  /// "OpenGL renderer" by `glimagesink` (which does not read the tag). Waits until it is shown
  /// (`xdotool search --sync`; ended with the test when cancelled, or after the subprocess hang limit).
  private static func cameraWindow(on display: PrivateDisplay) async throws -> String {
    let search = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/xdotool"),
      ["search", "--sync", "--onlyvisible", "--name", "^(hvtcam run|OpenGL renderer)"],
      environment: ["DISPLAY": display.name])
    guard search.succeeded, let window = search.outputLines.first else {
      throw TestFailure("no camera window: \(search)")
    }
    return window
  }

  /// How many white pixels (every channel above 200) a label needs at least: "Cancel", the shortest,
  /// has several hundred at 21 px.
  static let leastLabelPixels = 60

  /// The white pixels inside a box: its label's (under the shade, even the picture's own white is
  /// darker than this).
  static func labelPixels(_ image: RGBImage, _ box: (x: Int, y: Int, width: Int, height: Int)) -> Int {
    image.count(in: box.x..<(box.x + box.width), box.y..<(box.y + box.height), dark: false)
  }

  /// The pixels of a box's border (two pixels wide, one pixel in from its edge, where no label is drawn)
  /// that are brighter than any picture under the shade can be: black at 45 % opacity leaves at most
  /// 140 of 255 in each channel (150 allowed for scaling and rounding).
  static func unshadedBorderPixels(_ image: RGBImage, _ box: (x: Int, y: Int, width: Int, height: Int)) -> [String] {
    border(of: box).filter { x, y in
      let pixel = image.pixel(x, y)
      return max(pixel.r, pixel.g, pixel.b) > 150
    }.map { "(\($0.0),\($0.1))" }
  }

  /// The mean brightest channel along the top box's border, and of the same columns 8 pixels below the box.
  static func meanBrightness(_ image: RGBImage, _ box: (x: Int, y: Int, width: Int, height: Int)) -> (
    border: Double, below: Double
  ) {
    let brightness = { (points: [(Int, Int)]) in
      Double(
        points.map { Int(max(image.pixel($0.0, $0.1).r, image.pixel($0.0, $0.1).g, image.pixel($0.0, $0.1).b)) }
          .reduce(0, +)) / Double(max(1, points.count))
    }
    let border = border(of: box).filter { $0.1 < box.y + 3 }
    return (brightness(border), brightness(border.map { ($0.0, box.y + box.height + 8) }))
  }

  /// The points of a box's border: two pixels wide, one pixel in from each edge.
  static func border(of box: (x: Int, y: Int, width: Int, height: Int)) -> [(Int, Int)] {
    let xs = (box.x + 1)..<(box.x + box.width - 1)
    let ys = (box.y + 1)..<(box.y + box.height - 1)
    let rows = [box.y + 1, box.y + 2, box.y + box.height - 3, box.y + box.height - 2].flatMap { y in xs.map { ($0, y) }
    }
    let columns = [box.x + 1, box.x + 2, box.x + box.width - 3, box.x + box.width - 2].flatMap { x in ys.map { (x, $0) }
    }
    return rows + columns
  }
}
