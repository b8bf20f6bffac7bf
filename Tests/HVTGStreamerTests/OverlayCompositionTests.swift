import HVTSupport
import Testing

@testable import HVTGStreamer

/// Overlay compositions made from premultiplied ARGB pixels, drawn by a real `overlaycomposition` element.
@Suite("Overlay compositions", .timeLimit(.minutes(1)))
struct OverlayCompositionTests {
  /// A rectangle of one premultiplied B, G, R, A colour.
  private func rectangle(_ bgra: [UInt8], x: Int, y: Int, width: Int, height: Int) -> OverlayRectangle {
    let pixels = [UInt8]((0..<(width * height)).flatMap { _ in bgra })
    return pixels.withUnsafeBytes {
      OverlayRectangle(premultipliedPixels: $0, width: width, height: height, stride: width * 4, x: x, y: y)
    }
  }

  @Test("no rectangles, no composition; rectangles keep their order and placement")
  func made() throws {
    #expect(OverlayComposition([]) == nil)
    let composition = try #require(
      OverlayComposition([
        rectangle([0, 0, 255, 255], x: 8, y: 4, width: 16, height: 8),
        rectangle([1, 2, 3, 4], x: 30, y: 20, width: 2, height: 3),
      ]))
    #expect(
      composition.rectangles.map { [$0.placement.x, $0.placement.y, $0.placement.width, $0.placement.height] }
        == [[8, 4, 16, 8], [30, 20, 2, 3]])
  }

  @Test("overlaycomposition blends the composition its draw handler returns into every frame")
  func blended() async throws {
    let composition = try #require(
      OverlayComposition([
        // Opaque red, then half-transparent white (premultiplied: 128 in every byte).
        rectangle([0, 0, 255, 255], x: 8, y: 4, width: 16, height: 8),
        rectangle([128, 128, 128, 128], x: 32, y: 20, width: 8, height: 8),
      ]))
    let source = try makeElement("videotestsrc", nil, ["num-buffers": "3", "pattern": "black"])
    let filter = try makeElement("capsfilter", nil, ["caps": "video/x-raw,format=BGRx,width=64,height=48"])
    let overlay = try makeElement("overlaycomposition")
    let drawn = Locked(0)
    overlay.onDraw {
      drawn.withLock { $0 += 1 }
      return composition
    }
    let sink = try makeElement("fakesink")
    let pipeline = try makePipeline("overlay-composition", [source, filter, overlay, sink])
    let caps = try recordCaps(at: sink, "sink")
    let frame = Locked<Buffer?>(nil)
    try #require(sink.staticPad("sink")).addProbe(.buffer) { _, info in
      if let buffer = info.buffer?.retained() { frame.withLock { $0 = buffer } }
      return .ok
    }
    #expect(await playToEnd(pipeline).errors.isEmpty)
    #expect(drawn.value == 3, "one draw per frame")
    let sample = Sample(buffer: try #require(frame.value), caps: try #require(caps.value))
    let pixels = try #require(sample.videoFramePixels())
    let pixel = { (x: Int, y: Int) in Array(pixels.bytes[(y * pixels.stride + x * 4)..<(y * pixels.stride + x * 4 + 3)])
    }
    #expect(pixel(10, 6) == [0, 0, 255], "red inside the first rectangle")
    #expect(pixel(35, 23).allSatisfy { (120...136).contains($0) }, "grey: half white over black, \(pixel(35, 23))")
    #expect(pixel(50, 40) == [0, 0, 0] && pixel(30, 6) == [0, 0, 0], "black outside")
  }
}
