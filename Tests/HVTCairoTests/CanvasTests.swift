import Testing

@testable import HVTCairo

/// The canvas's pixels as GStreamer's overlay compositions take them: premultiplied B, G, R, A bytes.
@Suite("Canvas and text layout")
struct CanvasTests {
  /// The four bytes of the pixel at (`x`, `y`).
  private func pixel(_ canvas: Canvas, _ x: Int, _ y: Int) -> [UInt8] {
    canvas.withPixels { pixels, stride in Array(pixels[(y * stride + x * 4)..<(y * stride + x * 4 + 4)]) }
  }

  @Test("a new canvas is transparent; a fill is premultiplied BGRA, half-transparent black over nothing is (0,0,0,128)")
  func fills() {
    let canvas = Canvas(width: 8, height: 4)
    #expect(pixel(canvas, 3, 2) == [0, 0, 0, 0])
    canvas.fill(x: 0, y: 0, width: 4, height: 4, with: Colour(red: 1, green: 0.5, blue: 0))
    canvas.fill(x: 4, y: 0, width: 4, height: 4, with: Colour.black.opacity(0.5))
    #expect(pixel(canvas, 1, 1) == [0, 128, 255, 255], "orange: blue 0, green 128, red 255, opaque")
    #expect(pixel(canvas, 6, 1) == [0, 0, 0, 128])
    canvas.withPixels { pixels, stride in #expect(stride == 32 && pixels.count == 4 * 32) }
  }

  @Test("text is measured, then drawn inside its logical rectangle: white glyphs with a dark outline")
  func text() {
    let layout = TextLayout("Flash: Auto", font: "Sans Bold 20px")
    let (width, height) = layout.size
    #expect(width > 80 && width < 160 && height >= 20 && height < 40, "\(width)x\(height)")
    let canvas = Canvas(width: width + 4, height: height + 4)
    canvas.draw(layout, x: 2, y: 2, fill: .white, outline: .black, outlineWidth: 2)
    var white = 0
    var dark = 0
    var outside = 0
    for y in 0..<canvas.height {
      for x in 0..<canvas.width {
        let bytes = pixel(canvas, x, y)
        if bytes == [255, 255, 255, 255] { white += 1 }
        if bytes[3] == 255 && bytes[0..<3].allSatisfy({ $0 < 64 }) { dark += 1 }
        if (x == 0 || y == 0) && bytes[3] != 0 { outside += 1 }
      }
    }
    #expect(white > 100 && dark > 100, "\(white) white and \(dark) dark outline pixels")
    #expect(outside == 0, "nothing drawn on the canvas's first row and column")
  }
}
