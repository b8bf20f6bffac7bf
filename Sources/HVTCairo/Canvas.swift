import CPangoCairo

/// A picture drawn with cairo, in premultiplied ARGB: 32-bit pixels, alpha in the high byte, so B, G, R, A
/// bytes on a little-endian machine. That is the format GStreamer's overlay compositions take
/// (`GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB` with premultiplied alpha), so the pixels go to the video
/// as they are.
///
/// Owns its cairo image surface and context. Not `Sendable`: draw on one thread, then hand the pixels on.
public final class Canvas {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  private let surface: OpaquePointer
  private let context: OpaquePointer

  /// A transparent canvas of `width` × `height` pixels (at least one by one). Wraps
  /// `cairo_image_surface_create` (`CAIRO_FORMAT_ARGB32`) and `cairo_create`.
  public init(width: Int, height: Int) {
    (self.width, self.height) = (max(1, width), max(1, height))
    surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))
    context = cairo_create(surface)
  }

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// Paints the rectangle at (`x`, `y`) of `width` × `height` pixels with `colour`, over what is there.
  /// Wraps `cairo_set_source_rgba`, `cairo_rectangle` and `cairo_fill`.
  public func fill(x: Double, y: Double, width: Double, height: Double, with colour: Colour) {
    setSource(colour)
    cairo_rectangle(context, x, y, width, height)
    cairo_fill(context)
  }

  /// Draws `text` with the top-left corner of its logical rectangle at (`x`, `y`), filled with `fill` and
  /// outlined with `outline`, a stroke `outlineWidth` pixels wide centred on the glyphs' edges (none when 0).
  /// Wraps `pango_cairo_update_context`, `pango_layout_context_changed`, `pango_cairo_layout_path`,
  /// `cairo_stroke_preserve` and `cairo_fill`.
  public func draw(_ text: TextLayout, x: Double, y: Double, fill: Colour, outline: Colour, outlineWidth: Double) {
    pango_cairo_update_context(context, pango_layout_get_context(text.layout))
    pango_layout_context_changed(text.layout)
    cairo_new_path(context)
    cairo_move_to(context, x, y)
    pango_cairo_layout_path(context, text.layout)
    if outlineWidth > 0 {
      setSource(outline)
      cairo_set_line_width(context, outlineWidth)
      cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
      cairo_stroke_preserve(context)
    }
    setSource(fill)
    cairo_fill(context)
  }

  /// Calls `body` with the pixels (see ``Canvas``): `height` rows of `stride` bytes, each starting with
  /// `width` pixels. Wraps `cairo_surface_flush`, `cairo_image_surface_get_data` and
  /// `cairo_image_surface_get_stride`.
  public func withPixels<Result>(_ body: (_ pixels: UnsafeRawBufferPointer, _ stride: Int) throws -> Result) rethrows
    -> Result
  {
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let data = cairo_image_surface_get_data(surface)
    return try body(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : stride * height), stride)
  }

  /// Wraps `cairo_set_source_rgba`.
  private func setSource(_ colour: Colour) {
    cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, colour.alpha)
  }
}
