import CGStreamer

/// An owned reference to a `GstVideoOverlayRectangle`: premultiplied ARGB pixels placed on the video, one
/// picture of an ``OverlayComposition``.
///
/// `@unchecked Sendable`: a counted reference to a rectangle that is not changed once made.
public final class OverlayRectangle: @unchecked Sendable {
  let pointer: OpaquePointer

  /// Takes over a full reference.
  init(adopting pointer: OpaquePointer) {
    self.pointer = pointer
  }

  /// A rectangle holding a copy of `pixels`: `height` rows of `width` pixels, `stride` bytes apart, in the
  /// composition format with premultiplied alpha (32-bit ARGB, alpha in the high byte: B, G, R, A bytes on a
  /// little-endian machine, as cairo's `CAIRO_FORMAT_ARGB32`), drawn at their own size with their top-left
  /// corner at (`x`, `y`) of the video. `width` and `height` must be at least 1, `stride` at least
  /// `width` × 4 and `pixels` hold `stride` × `height` bytes. Wraps `gst_buffer_new_memdup`,
  /// `gst_buffer_add_video_meta_full` and `gst_video_overlay_rectangle_new_raw`
  /// (`GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB`, `GST_VIDEO_OVERLAY_FORMAT_FLAG_PREMULTIPLIED_ALPHA`).
  public convenience init(
    premultipliedPixels pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int,
    x: Int, y: Int
  ) {
    GStreamer.initialize()
    precondition(width > 0 && height > 0 && stride >= width * 4 && pixels.count >= stride * height)
    let buffer = gst_buffer_new_memdup(pixels.baseAddress, gsize(stride * height))
    var offsets: [gsize] = [0, 0, 0, 0]
    var strides: [gint] = [gint(stride), 0, 0, 0]
    gst_buffer_add_video_meta_full(
      buffer, GST_VIDEO_FRAME_FLAG_NONE, hvt_gst_video_overlay_composition_format_rgb(), guint(width), guint(height), 1,
      &offsets, &strides)
    let rectangle = gst_video_overlay_rectangle_new_raw(
      buffer, gint(x), gint(y), guint(width), guint(height), GST_VIDEO_OVERLAY_FORMAT_FLAG_PREMULTIPLIED_ALPHA)
    // The rectangle holds a reference of its own to the pixels.
    gst_buffer_unref(buffer)
    self.init(adopting: rectangle!)
  }

  deinit {
    gst_video_overlay_rectangle_unref(pointer)
  }

  /// Where the rectangle is drawn on the video and at what size. Wraps
  /// `gst_video_overlay_rectangle_get_render_rectangle`.
  public var placement: (x: Int, y: Int, width: Int, height: Int) {
    var (x, y, width, height): (gint, gint, guint, guint) = (0, 0, 0, 0)
    gst_video_overlay_rectangle_get_render_rectangle(pointer, &x, &y, &width, &height)
    return (Int(x), Int(y), Int(width), Int(height))
  }
}

/// An owned reference to a `GstVideoOverlayComposition`: rectangles drawn over the video in order, later
/// ones over earlier ones. An element blends it into frames, or attaches it to them for a sink that
/// draws it itself (`glimagesink`, on the GPU). Immutable once made, so one composition may go with
/// every frame.
///
/// `@unchecked Sendable`: a counted reference to a composition that is not changed once made.
public final class OverlayComposition: @unchecked Sendable {
  let pointer: OpaquePointer

  /// Takes over a full reference.
  init(adopting pointer: OpaquePointer) {
    self.pointer = pointer
  }

  /// Adds a reference of its own. Wraps `gst_video_overlay_composition_ref`.
  convenience init(retaining pointer: OpaquePointer) {
    self.init(adopting: gst_video_overlay_composition_ref(pointer))
  }

  /// A composition of `rectangles`, in drawing order; `nil` when there are none (a composition holds at
  /// least one). Wraps `gst_video_overlay_composition_new` and `gst_video_overlay_composition_add_rectangle`.
  public convenience init?(_ rectangles: [OverlayRectangle]) {
    guard let first = rectangles.first else { return nil }
    let composition = gst_video_overlay_composition_new(first.pointer)!
    for rectangle in rectangles.dropFirst() {
      gst_video_overlay_composition_add_rectangle(composition, rectangle.pointer)
    }
    self.init(adopting: composition)
  }

  deinit {
    gst_video_overlay_composition_unref(pointer)
  }

  /// The rectangles, in drawing order. Wraps `gst_video_overlay_composition_n_rectangles` and
  /// `gst_video_overlay_composition_get_rectangle`.
  public var rectangles: [OverlayRectangle] {
    (0..<gst_video_overlay_composition_n_rectangles(pointer)).compactMap { index in
      gst_video_overlay_composition_get_rectangle(pointer, index).map {
        OverlayRectangle(adopting: gst_video_overlay_rectangle_ref($0))
      }
    }
  }
}

/// What an `overlaycomposition` element draws on a frame: called on the streaming thread for every frame.
public typealias DrawHandler = @Sendable () -> OverlayComposition?

extension Element {
  /// Answers an `overlaycomposition` element's `draw` signal with the composition `handler` returns, on the
  /// streaming thread, for every frame; `nil` passes the frame on undrawn. The handler runs in the
  /// frame's path: it should hand back a composition made beforehand, not draw one. The element blends
  /// the composition into the frame, or attaches it for a sink that draws compositions itself. The
  /// handler lives as long as the element. Wraps `g_signal_connect_data` on `draw`; the element takes the
  /// new reference the callback returns (`gst_video_overlay_composition_ref`).
  public func onDraw(_ handler: @escaping DrawHandler) {
    typealias Callback =
      @convention(c) (UnsafeMutablePointer<GstElement>?, OpaquePointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let callback: Callback = { _, _, data in
      guard let data, let composition = CallbackContext<DrawHandler>.callback(from: data)() else { return nil }
      return gst_video_overlay_composition_ref(composition.pointer)
    }
    connect("draw", unsafeBitCast(callback, to: GCallback.self), handler)
  }
}
