import CPangoCairo

/// An opaque picture as 8-bit RGBx pixels (red, green, blue and one unused byte each, rows of `width * 4`
/// bytes: GStreamer's `video/x-raw,format=RGBx`), read from and written as PNG by cairo's own PNG code
/// (libpng underneath).
public struct PNGImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `height` rows of `width` RGBx pixels, with no padding.
  public let pixels: [UInt8]

  /// A picture of `width` × `height` RGBx `pixels`; `nil` when the sides are not positive or the bytes
  /// are not `width * height * 4`.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
    (self.width, self.height, self.pixels) = (width, height, pixels)
  }

  /// Decodes `png`, whatever its colour type and depth; a transparent picture is drawn over black. `nil`
  /// when the bytes are not a whole, valid PNG (libpng checks the signature, the chunks' CRCs and the
  /// compressed data). Wraps `cairo_image_surface_create_from_png_stream`, then `cairo_set_source_surface`
  /// and `cairo_paint` onto a `CAIRO_FORMAT_RGB24` surface (the one layout whose pixels are read here,
  /// whatever format the PNG was loaded in).
  public init?(png: [UInt8]) {
    let loaded: OpaquePointer? = png.withUnsafeBytes { bytes in
      var reader = PNGReader(bytes: bytes)
      return withUnsafeMutablePointer(to: &reader) { closure in
        cairo_image_surface_create_from_png_stream(
          { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            return closure.assumingMemoryBound(to: PNGReader.self).pointee.read(into: data, count: Int(length))
          }, closure)
      }
    }
    guard let loaded else { return nil }
    defer { cairo_surface_destroy(loaded) }
    let (width, height) = (Int(cairo_image_surface_get_width(loaded)), Int(cairo_image_surface_get_height(loaded)))
    guard cairo_surface_status(loaded) == CAIRO_STATUS_SUCCESS, width > 0, height > 0 else { return nil }
    guard let opaque = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else { return nil }
    defer { cairo_surface_destroy(opaque) }
    let context = cairo_create(opaque)
    cairo_set_source_surface(context, loaded, 0, 0)
    cairo_paint(context)
    cairo_destroy(context)
    cairo_surface_flush(opaque)
    guard cairo_surface_status(opaque) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(opaque) else {
      return nil
    }
    let stride = Int(cairo_image_surface_get_stride(opaque))
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    // RGB24 pixels are native 32-bit words, 0x00RRGGBB.
    for row in 0..<height {
      let words = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
      for column in 0..<width {
        let word = words[column]
        let offset = (row * width + column) * 4
        pixels[offset] = UInt8(truncatingIfNeeded: word >> 16)
        pixels[offset + 1] = UInt8(truncatingIfNeeded: word >> 8)
        pixels[offset + 2] = UInt8(truncatingIfNeeded: word)
      }
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  /// The picture as an 8-bit RGB PNG (no alpha channel), or `nil` when cairo fails. Wraps
  /// `cairo_image_surface_create` (`CAIRO_FORMAT_RGB24`) and `cairo_surface_write_to_png_stream`.
  public func png() -> [UInt8]? {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else {
      return nil
    }
    defer { cairo_surface_destroy(surface) }
    cairo_surface_flush(surface)
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
    else { return nil }
    let stride = Int(cairo_image_surface_get_stride(surface))
    for row in 0..<height {
      let words = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
      for column in 0..<width {
        let offset = (row * width + column) * 4
        words[column] =
          0xFF00_0000 | UInt32(pixels[offset]) << 16 | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2])
      }
    }
    cairo_surface_mark_dirty(surface)
    var written: [UInt8] = []
    let status = withUnsafeMutablePointer(to: &written) { closure in
      cairo_surface_write_to_png_stream(
        surface,
        { closure, data, length in
          guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
          closure.assumingMemoryBound(to: [UInt8].self).pointee.append(
            contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
          return CAIRO_STATUS_SUCCESS
        }, closure)
    }
    return status == CAIRO_STATUS_SUCCESS ? written : nil
  }
}

/// Hands cairo's PNG reader the bytes of a PNG in memory, in the pieces it asks for.
private struct PNGReader {
  let bytes: UnsafeRawBufferPointer
  var offset = 0

  /// Copies the next `count` bytes to `data`; a read error when fewer are left (a truncated file).
  mutating func read(into data: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
    guard count <= bytes.count - offset, let base = bytes.baseAddress else { return CAIRO_STATUS_READ_ERROR }
    data.update(from: (base + offset).assumingMemoryBound(to: UInt8.self), count: count)
    offset += count
    return CAIRO_STATUS_SUCCESS
  }
}
