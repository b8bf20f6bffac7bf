import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// `cameraViewTransform` and `cameraOverlays` on a `.frames` preview, against photos taken at the same
/// time: the preview changes, the photo shows the whole, untouched frame.
@Suite("View transform and overlays", .timeLimit(.minutes(2)))
struct ViewTransformTests {
  /// The colour names of an RGBA frame at points, as ``RGBImage/colourName(_:_:)`` names them.
  private func colours(_ frame: HVTPreviewFrame, at points: [(Int, Int)]) -> [String] {
    let image = RGBImage(rgba: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride)
    return points.map { image.colourName($0.0, $0.1) }
  }

  /// A camera presented with a frames preview, the transform set first.
  private func presented(_ transform: HVTAffineTransform, frames: FrameCollector) async throws -> TestCamera {
    let camera = try TestCamera(present: false)
    try camera.controller.setCameraViewTransform(transform)
    camera.controller.previewOutput = frames.output(.rgba)
    try await camera.controller.presentAndWait()
    await frames.next(3)
    return camera
  }

  @Test("zoom 2× shows the centre of the frame; the photo is the whole frame")
  func zoom() async throws {
    let frames = FrameCollector()
    let camera = try await presented(HVTAffineTransform(scaleX: 2, y: 2), frames: frames)
    let photo = try await camera.controller.capturePhoto()
    let frame = await frames.next()
    // Source x 160…480 of 640 fills the preview: yellow, cyan, green, magenta, red.
    #expect(frame.width == 640 && frame.height == 480)
    #expect(
      colours(frame, at: [(20, 160), (137, 160), (320, 160), (502, 160), (625, 160)])
        == ["yellow", "cyan", "green", "magenta", "red"])
    let image = try await RGBImage.decode(photo.url.path, width: 640, height: 480)
    #expect(image.barNames() == RGBImage.smpteBars, "the photo is the whole frame")
    // Panned far right (the picture moves right): stops at the frame's left edge, x 0…320.
    try camera.controller.setCameraViewTransform(
      HVTAffineTransform(scaleX: 2, y: 2).concatenating(HVTAffineTransform(translationX: 1000, y: 0)))
    _ = try await camera.delegate.nextEvent { if case .previewChanged = $0 { true } else { nil } }
    await frames.next(3)
    let panned = await frames.next()
    #expect(
      colours(panned, at: [(90, 160), (275, 160), (457, 160), (600, 160)]) == ["white", "yellow", "cyan", "green"])
    await camera.controller.dismissAndWait()
  }

  @Test("a quarter turn clockwise: the preview is 480×640, the frame's left edge at its top")
  func quarterTurn() async throws {
    let frames = FrameCollector()
    let camera = try await presented(HVTAffineTransform(rotationAngle: .pi / 2), frames: frames)
    let frame = await frames.next()
    #expect(frame.width == 480 && frame.height == 640)
    // The source's top (the bars) is on the right; its white bar at the top, its blue bar at the bottom.
    #expect(colours(frame, at: [(440, 45), (440, 595)]) == ["white", "blue"])
    await camera.controller.dismissAndWait()
  }

  @Test("shears, other angles, scales below 1 and non-finite entries are refused; the transform stays")
  func refused() throws {
    let controller = try HVTCameraController(source: .simulated)
    let zoom = HVTAffineTransform(scaleX: 1.5, y: 1.5)
    try controller.setCameraViewTransform(zoom)
    for transform in [
      HVTAffineTransform(a: 1, b: 0.2, c: 0, d: 1, tx: 0, ty: 0), HVTAffineTransform(rotationAngle: .pi / 4),
      HVTAffineTransform(scaleX: 0.5, y: 0.5), HVTAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
    ] {
      #expect {
        try controller.setCameraViewTransform(transform)
      } throws: { error in
        guard case .unsupportedViewTransform(let refused, _) = error as? HVTCameraError else { return false }
        return refused == transform || transform.a.isNaN
      }
    }
    #expect(controller.cameraViewTransform == zoom)
  }

  @Test("an image overlay is in the preview and not in the photo, unless burned into photos")
  func imageOverlay() async throws {
    let frames = FrameCollector()
    let camera = try await presented(.identity, frames: frames)
    let square = camera.directory.appendingPathComponent("green.png")
    try await RGBImage.writeGreenSquarePNG(to: square.path)
    // A quarter of the width, from the middle: x 320…480, y 240…400 of 640×480, over the magenta bar.
    try camera.controller.setCameraOverlays([HVTCameraOverlay(.image(square), x: 0.5, y: 0.5, size: 0.25)])
    _ = try await camera.delegate.nextEvent { if case .previewChanged = $0 { true } else { nil } }
    await frames.next(3)
    let photo = try await camera.controller.capturePhoto()
    let frame = await frames.next()
    #expect(colours(frame, at: [(400, 300), (250, 300)]) == ["green", "cyan"], "over the magenta bar only")
    let image = try await RGBImage.decode(photo.url.path, width: 640, height: 480)
    #expect(image.colourName(400, 300) == "magenta", "not in the photo")
    camera.controller.overlayBurnsIntoCaptures = .photos
    _ = try await camera.delegate.nextEvent { if case .configured = $0 { true } else { nil } }
    let burned = try await camera.controller.capturePhoto()
    let burnedImage = try await RGBImage.decode(burned.url.path, width: 640, height: 480)
    #expect(burnedImage.colourName(400, 300) == "green", "burned into the photo")
    await camera.controller.dismissAndWait()
  }

  @Test("a text overlay is drawn on the preview; burned into movies, it is in the recording (a watermark)")
  func textWatermark() async throws {
    let frames = FrameCollector()
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.previewOutput = frames.output(.rgba)
    // Top right, over the blue bar.
    try camera.controller.setCameraOverlays([HVTCameraOverlay(.text("HVT"), x: 1, y: 0, size: 0.1)])
    camera.controller.overlayBurnsIntoCaptures = .movies
    try await camera.controller.presentAndWait()
    let frame = await frames.next(3)
    let corner = { (image: RGBImage) in
      (560..<640).flatMap { x in (0..<50).map { y in image.pixel(x, y) } }.filter { $0.r > 200 && $0.g > 200 }.count
    }
    let preview = RGBImage(rgba: frame.bytes, width: 640, height: 480, stride: frame.stride)
    #expect(corner(preview) > 50, "white text in the preview's corner")
    let photo = try await camera.controller.capturePhoto()
    #expect(corner(try await RGBImage.decode(photo.url.path, width: 640, height: 480)) == 0, "not in photos")
    let movie = try await camera.controller.recordMovie(maximumDuration: 0.5)
    #expect(corner(try await RGBImage.decode(movie.url.path, width: 640, height: 480)) > 50, "in the movie")
    await camera.controller.dismissAndWait()
  }

  @Test("app-drawn RGBA pixels are drawn on the preview; new pixels replace them on the running branch")
  func rgbaOverlay() async throws {
    let frames = FrameCollector()
    let camera = try await presented(.identity, frames: frames)
    let session = try #require(camera.controller.currentSession)
    var branch: PreviewBranch?
    func square(_ rgba: [UInt8]) -> HVTCameraOverlay {
      HVTCameraOverlay(
        .rgba(HVTRGBAImage(width: 32, height: 32, pixels: Data((0..<1024).flatMap { _ in rgba }))), x: 0.5, y: 0.5)
    }
    // 32 × 32 at (320, 240), over the green bar.
    for (rgba, colour) in [([255, 0, 0, 255], "red"), ([0, 0, 255, 255], "blue")] as [([UInt8], String)] {
      try camera.controller.setCameraOverlays([square(rgba)])
      _ = try await camera.delegate.nextEvent { if case .previewChanged = $0 { true } else { nil } }
      await frames.next(3)
      #expect(colours(await frames.next(), at: [(336, 256), (300, 256)]) == [colour, "green"])
      // The first overlay needs a branch with an overlay element; new pixels of the same size do not.
      #expect(branch == nil || session.preview === branch, "the running branch took the new pixels")
      branch = session.preview
    }
    #expect {
      try camera.controller.setCameraOverlays([
        HVTCameraOverlay(.rgba(HVTRGBAImage(width: 4, height: 4, pixels: Data(count: 10))))
      ])
    } throws: { "\($0)".contains("holds 64 bytes, not 10") }
    await camera.controller.dismissAndWait()
  }

  @Test("an overlay that cannot be drawn is refused: a missing file, values out of range, empty text")
  func invalidOverlays() throws {
    let controller = try HVTCameraController(source: .simulated)
    for overlay in [
      HVTCameraOverlay(.image(URL(fileURLWithPath: "/nonexistent/logo.png"))), HVTCameraOverlay(.text("x"), x: 2),
      HVTCameraOverlay(.text("x"), size: 0), HVTCameraOverlay(.text("")),
    ] {
      #expect(throws: HVTCameraError.self) { try controller.setCameraOverlays([overlay]) }
    }
    #expect(controller.cameraOverlays.isEmpty)
  }
}
