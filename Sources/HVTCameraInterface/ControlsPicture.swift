import HVTCameraCore
import HVTCairo
import HVTGStreamer

/// The default controls as drawn on a picture of `size`: their ``CameraControls/Look`` rendered as an
/// overlay composition of premultiplied ARGB rectangles, which the preview's one `overlaycomposition`
/// element blends into the frames, or attaches to them for a sink that draws compositions itself
/// (`glimagesink`).
///
/// Rectangles, in drawing order: the crop box's shades (black at half opacity) and white edges; a
/// movie's timeline — its bar (white at ``keptOpacity`` inside the trim or all along without editing,
/// at ``cutOpacity`` outside the trim), the trim handles in ``handleColour`` and the playhead in
/// ``playheadColour`` —; then a box per shown button, shaded (black at ``shadeOpacity``), holding its label in white with a dark outline
/// (Pango, `Sans Bold`, 1/22 of the picture's height) — what the five `textoverlay`s with
/// `shaded-background` and the eight `gdkpixbufoverlay`s of the crop box drew before, in one element.
package struct ControlsPicture: Hashable, Sendable {
  /// What the controls show.
  var look: CameraControls.Look
  /// The size of the frames the controls are drawn on.
  package var size: HVTFrameSize

  /// How dark a button's background is: the opacity of the black drawn under its label.
  static let shadeOpacity = 0.45

  /// How opaque the timeline's bar is where the movie is kept: light on dark pictures, and over light
  /// ones the handles and the playhead mark it.
  static let keptOpacity = 0.7
  /// How opaque the timeline's bar is where the trim leaves the movie out.
  static let cutOpacity = 0.25
  /// The colour of the trim handles: opaque yellow.
  static let handleColour = Colour(red: 1, green: 0.85, blue: 0)
  /// The colour of the playhead: opaque red.
  static let playheadColour = Colour(red: 0.9, green: 0, blue: 0)

  /// The labels' font size in pixels.
  private var fontPixels: Int { max(10, size.height / 22) }
  /// The space between a button's box and the picture's edges.
  private var margin: Int { max(4, size.height / 40) }
  /// The space between a label and the edges of its box.
  private var inset: Int { max(2, fontPixels / 4) }

  /// The composition the controls' element draws; `nil` when nothing is shown. Renders every rectangle:
  /// call it when the picture changes, never per frame.
  package func render() -> OverlayComposition? {
    let crop = CameraControls.cropBox(look, size: size, thickness: max(2, size.height / 160))
    let shades = crop.shades.map { rectangle($0, filled: Colour.black.opacity(0.5)) }
    let edges = crop.edges.map { rectangle($0, filled: .white) }
    let timeline = CameraControls.timelineParts(look, size: size)
    let bar =
      timeline.inside.map { rectangle($0, filled: Colour.white.opacity(Self.keptOpacity)) }
      + timeline.outside.map { rectangle($0, filled: Colour.white.opacity(Self.cutOpacity)) }
    let marks =
      timeline.handles.map { rectangle($0, filled: Self.handleColour) }
      + (timeline.playhead.map { [rectangle($0, filled: Self.playheadColour)] } ?? [])
    let buttons = CameraControls.Button.allCases.compactMap { button in
      CameraControls.label(button, look).map { label($0, placed: button.placement) }
    }
    return OverlayComposition(shades + edges + bar + marks + buttons)
  }

  /// A rectangle of one colour.
  private func rectangle(_ rect: HVTRect, filled colour: Colour) -> OverlayRectangle {
    let canvas = Canvas(width: rect.width, height: rect.height)
    canvas.fill(x: 0, y: 0, width: Double(rect.width), height: Double(rect.height), with: colour)
    return overlay(canvas, x: rect.x, y: rect.y)
  }

  /// A button's shaded box with its label, against the picture's edges as `placement` says (at most as
  /// wide as the picture).
  private func label(_ text: String, placed placement: (across: Double, top: Bool)) -> OverlayRectangle {
    let layout = TextLayout(text, font: "Sans Bold \(fontPixels)px")
    let (textWidth, textHeight) = layout.size
    let canvas = Canvas(width: min(size.width, textWidth + 2 * inset), height: textHeight + 2 * inset)
    canvas.fill(
      x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height),
      with: Colour.black.opacity(Self.shadeOpacity))
    canvas.draw(
      layout, x: Double(inset), y: Double(inset), fill: .white, outline: .black,
      outlineWidth: max(1.5, Double(fontPixels) / 10))
    let room = max(0, size.width - 2 * margin - canvas.width)
    let x = min(margin + Int((Double(room) * placement.across).rounded()), max(0, size.width - canvas.width))
    let y = placement.top ? margin : max(0, size.height - margin - canvas.height)
    return overlay(canvas, x: x, y: y)
  }

  /// The canvas's pixels as a rectangle with its top-left corner at (`x`, `y`).
  private func overlay(_ canvas: Canvas, x: Int, y: Int) -> OverlayRectangle {
    canvas.withPixels { pixels, stride in
      OverlayRectangle(
        premultipliedPixels: pixels, width: canvas.width, height: canvas.height, stride: stride, x: x, y: y)
    }
  }

  /// Each stored property, as a memberwise initializer takes them.
  package init(look: CameraControls.Look, size: HVTFrameSize) {
    self.look = look
    self.size = size
  }
}
