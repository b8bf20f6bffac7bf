import CGStreamer

/// Called with each pad an element adds while running (a demuxer's streams), on the thread that adds it.
public typealias PadAddedHandler = @Sendable (_ pad: Pad) -> Void

extension Element {
  /// Calls `handler` with every pad the element adds from now on, such as the stream pads `qtdemux` and
  /// `matroskademux` expose once they have read the file's headers. It runs on the element's streaming
  /// thread: link the pad or add probes to it, never change states from here. The handler lives as long
  /// as the element. Wraps `g_signal_connect_data` on `pad-added`.
  public func onPadAdded(_ handler: @escaping PadAddedHandler) {
    typealias Callback =
      @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, UnsafeMutableRawPointer?) ->
      Void
    let callback: Callback = { _, pad, data in
      guard let pad, let data else { return }
      CallbackContext<PadAddedHandler>.callback(from: data)(Pad(retaining: pad))
    }
    connect("pad-added", unsafeBitCast(callback, to: GCallback.self), handler)
  }

  /// An unlinked pad of this element that `pad` can link to, requested from a matching template when
  /// needed (a muxer's `video_%u` for a video stream, `audio_%u` for sound); `nil` when the element takes
  /// nothing of the kind. Wraps `gst_element_get_compatible_pad` (a full reference).
  public func compatiblePad(for pad: Pad) -> Pad? {
    gst_element_get_compatible_pad(pointer, pad.pointer, nil).map(Pad.init(adopting:))
  }
}
