import CPangoCairo

/// One line of text laid out in a font by Pango, to be measured, then drawn on a ``Canvas``.
///
/// Owns its `PangoLayout`. Not `Sendable`: Pango objects belong to the thread that uses them (each thread
/// has its own default font map).
public final class TextLayout {
  let layout: OpaquePointer

  /// Lays `text` out in `font`, a Pango font description such as `"Sans Bold 21px"`, with the thread's
  /// default cairo font map. Wraps `pango_cairo_font_map_get_default`, `pango_font_map_create_context`,
  /// `pango_layout_new`, `pango_font_description_from_string` and `pango_layout_set_text`.
  public init(_ text: String, font: String) {
    let context = pango_font_map_create_context(pango_cairo_font_map_get_default())
    layout = pango_layout_new(context)
    // The layout holds a reference of its own to the context.
    g_object_unref(UnsafeMutableRawPointer(context))
    let description = pango_font_description_from_string(font)
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    pango_layout_set_text(layout, text, -1)
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(layout))
  }

  /// The size of the text's logical rectangle in pixels: its advance and the line's height, the box a
  /// label takes. Wraps `pango_layout_get_pixel_extents`.
  public var size: (width: Int, height: Int) {
    var logical = PangoRectangle()
    pango_layout_get_pixel_extents(layout, nil, &logical)
    return (Int(logical.width), Int(logical.height))
  }
}
