import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// What the preview draws over the camera — the default controls and the app's overlays — drawn whole on
/// every sink the engine can choose, embedded in an app's window and in a window of its own, read back
/// from the window by `ximagesrc` (``CameraOnSink``). Before the controls were one element,
/// `glimagesink` showed one of their five labels and no shade, and one of two text overlays.
@Suite("Drawing on each sink", .serialized, .timeLimit(.minutes(2)))
struct DrawingOnSinksTests {
  @Test(
    "the default controls: every label and its shaded box", arguments: ["ximagesink", "glimagesink"],
    CameraOnSink.Placement.allCases)
  func controls(sink: String, placement: CameraOnSink.Placement) async throws {
    try await expectControlsDrawn(on: sink, placement)
  }

  @Test(
    "the default controls on xvimagesink: every label and its shaded box",
    .enabled("Xvfb has no Xv adaptor (xvinfo: no adaptors present), so xvimagesink cannot open it") {
      try await CameraOnSink.hasXvAdaptor()
    }, arguments: CameraOnSink.Placement.allCases)
  func controlsOnXv(placement: CameraOnSink.Placement) async throws {
    try await expectControlsDrawn(on: "xvimagesink", placement)
  }

  @Test("two text overlays of the app are both drawn, with the controls", arguments: ["ximagesink", "glimagesink"])
  func textOverlays(sink: String) async throws {
    let camera = try await CameraOnSink(sink: sink, .window, ["--text", "Studio 4\nTake 12"])
    // Right-aligned below the top bar (RunCommand's overlayTop and lineSpacing): 24 px lines centred at
    // y 77 and 115, over the red and blue bars, where only white text is bright.
    let lines = [(450..<640, 62..<93), (450..<640, 100..<131)]
    let shown = try await camera.screenshot { image in
      lines.allSatisfy { image.count(in: $0.0, $0.1, dark: false) >= Self.leastLabelPixels }
    }
    for (index, line) in lines.enumerated() {
      let white = shown.count(in: line.0, line.1, dark: false)
      #expect(white >= Self.leastLabelPixels, "line \(index + 1) on \(sink): \(white) white pixels")
    }
    #expect(Self.labelPixels(shown, Self.boxes[0]) >= Self.leastLabelPixels, "the controls are drawn too")
    await camera.stop()
  }

  /// Where the engine places the five buttons' boxes on a 640 × 480 picture of the live camera: Flash, Switch
  /// Camera, Cancel, the shutter and Mode.
  static let boxes =
    ControlsPicture(
      look: .init(mode: .photo, flash: .auto, canSwitchMode: true, editing: false, recording: nil, review: nil),
      size: HVTFrameSize(width: 640, height: 480)
    ).render()?.rectangles.map(\.placement) ?? []

  /// Runs the camera with its preview on `sink`, placed as `placement` says; expects every button drawn
  /// and shaded, and the camera's bars around them.
  private func expectControlsDrawn(on sink: String, _ placement: CameraOnSink.Placement) async throws {
    let camera = try await CameraOnSink(sink: sink, placement)
    let shown = try await camera.screenshot(showing: Self.showsEveryLabel)
    Self.expectControlsDrawn(in: shown, on: "\(sink), \(placement)")
    await camera.stop()
  }

  /// Whether every button's label is drawn.
  static func showsEveryLabel(_ image: RGBImage) -> Bool {
    boxes.allSatisfy { labelPixels(image, $0) >= leastLabelPixels }
  }

  /// Expects every button of a 640 × 480 picture of the live camera drawn and shaded, and the camera's
  /// bars around them; `shown` says where, for the messages.
  static func expectControlsDrawn(
    in shown: RGBImage, on sink: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(boxes.count == 5, "Flash, Switch Camera, Cancel, the shutter and Mode", sourceLocation: sourceLocation)
    for (box, name) in zip(boxes, ["Flash: Auto", "Switch Camera", "Cancel", "( Take Photo )", "Mode: Photo"]) {
      let label = labelPixels(shown, box)
      #expect(
        label >= leastLabelPixels, "\(name) on \(sink): \(label) white pixels in \(box)", sourceLocation: sourceLocation
      )
      let unshaded = unshadedBorderPixels(shown, box)
      #expect(
        unshaded.isEmpty, "\(name)'s box on \(sink) is not shaded at \(unshaded.prefix(8))",
        sourceLocation: sourceLocation)
    }
    // The top boxes lie over the 75 % bars, which go on below them: shaded, the box's border is darker.
    for box in boxes.prefix(2) {
      let (border, below) = meanBrightness(shown, box)
      #expect(
        border < below * 0.7, "the shade darkens the bars on \(sink): \(border) vs \(below)",
        sourceLocation: sourceLocation)
    }
    #expect(
      shown.barNames() == RGBImage.smpteBars, "the camera is shown around the controls on \(sink)",
      sourceLocation: sourceLocation)
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

  /// The mean brightest channel along the top of a box's border, and of the same columns 8 pixels below
  /// the box.
  static func meanBrightness(_ image: RGBImage, _ box: (x: Int, y: Int, width: Int, height: Int)) -> (
    border: Double, below: Double
  ) {
    let brightness = { (points: [(Int, Int)]) in
      let pixels = points.map { image.pixel($0.0, $0.1) }
      return Double(pixels.map { Int(max($0.r, $0.g, $0.b)) }.reduce(0, +)) / Double(max(1, points.count))
    }
    let top = border(of: box).filter { $0.1 < box.y + 3 }
    return (brightness(top), brightness(top.map { ($0.0, box.y + box.height + 8) }))
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
