import CGStreamer

/// An owned reference to a `GstPad`.
public final class Pad: @unchecked Sendable {
  /// The underlying pad; valid as long as this object lives.
  public let pointer: UnsafeMutablePointer<GstPad>

  /// Takes over a full reference.
  public init(adopting pointer: UnsafeMutablePointer<GstPad>) {
    self.pointer = pointer
  }

  deinit {
    gst_object_unref(pointer)
  }

  /// The pad's name, e.g. `"src_0"`. Wraps `gst_object_get_name`.
  public var name: String { String(ownedCString: gst_object_get_name(hvt_gst_object_cast(pointer))) }

  /// Links this source pad to a sink pad. Wraps `gst_pad_link`.
  public func link(to sink: Pad) throws {
    guard gst_pad_link(pointer, sink.pointer) == GST_PAD_LINK_OK else {
      throw GStreamerError.linkFailed(from: name, to: sink.name)
    }
  }

  /// Unlinks this source pad from a sink pad. Wraps `gst_pad_unlink`.
  @discardableResult
  public func unlink(from sink: Pad) -> Bool {
    gst_pad_unlink(pointer, sink.pointer) != 0
  }

  /// Sends an end-of-stream event into this pad. Wraps `gst_pad_send_event` with `gst_event_new_eos`.
  @discardableResult
  public func sendEndOfStream() -> Bool {
    gst_pad_send_event(pointer, gst_event_new_eos()) != 0
  }

  /// Every format the pad could carry now (for a source in READY: what the device offers).
  /// Wraps `gst_pad_query_caps`.
  public func queryCaps() -> Caps {
    Caps(adopting: gst_pad_query_caps(pointer, nil))
  }

  /// The caps currently negotiated on the pad, if any. Wraps `gst_pad_get_current_caps`.
  public var currentCaps: Caps? {
    gst_pad_get_current_caps(pointer).map(Caps.init(adopting:))
  }
}
