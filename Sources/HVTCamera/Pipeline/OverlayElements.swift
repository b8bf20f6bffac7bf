import Foundation

extension HVTCameraOverlay {
  /// The element that draws the overlay on frames of `frame` size: `gdkpixbufoverlay` for an image,
  /// `textoverlay` for a text. App-drawn pixels are drawn once ``OverlayImages`` has made them a file.
  func element(named name: String, frame: HVTFrameSize) -> HVTElementDescription? {
    switch content {
    case .rgba:
      return nil
    case .image(let url):
      var element = HVTElementDescription(
        "gdkpixbufoverlay", name: name,
        ["location": url.path, "relative-x": String(x), "relative-y": String(y), "alpha": String(alpha)])
      if let size, let (width, height) = Self.pngSize(of: url), width > 0 {
        let shownWidth = max(1, Int((size * Double(frame.width)).rounded()))
        element = element.setting("overlay-width", to: String(shownWidth))
          .setting("overlay-height", to: String(max(1, shownWidth * height / width)))
      }
      return element
    case .text(let text):
      let pixels = max(8, Int(((size ?? 0.05) * Double(frame.height)).rounded()))
      // textoverlay's `position` alignment places the text between the edges: 0 at the left or top, 1 at
      // the right or bottom.
      return HVTElementDescription(
        "textoverlay", name: name,
        [
          "text": text, "font-desc": "Sans Bold \(pixels)px", "auto-resize": "false", "halignment": "position",
          "valignment": "position", "xpos": String(x), "ypos": String(y),
          "color": String(UInt32(alpha * 255) << 24 | 0xFF_FFFF), "draw-outline": "true",
        ])
    }
  }

  /// The width and height in a PNG file's header (IHDR), or `nil` when it is no PNG.
  static func pngSize(of url: URL) -> (Int, Int)? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let header = try? handle.read(upToCount: 24), header.count == 24,
      header.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    else { return nil }
    let number = { (offset: Int) in header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
  }
}

extension [HVTCameraOverlay] {
  /// The overlays' elements, in order, named `<prefix>-overlay-<n>`.
  func elements(prefix: String, frame: HVTFrameSize) -> [HVTElementDescription] {
    enumerated().compactMap { $1.element(named: "\(prefix)-overlay-\($0)", frame: frame) }
  }
}
