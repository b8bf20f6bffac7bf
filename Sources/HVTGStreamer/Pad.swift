import CGStreamer
import HVTGLib

/// An owned reference to a `GstPad`.
///
/// `@unchecked Sendable`: a counted reference to a `GstPad`, whose functions lock the pad themselves.
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

  /// Runs `body` holding the pad's stream lock. On a sink pad this parks the streaming thread before its
  /// next buffer (or serialized event) until `body` returns: what `body` does happens between two
  /// buffers. Keep `body` short. Wraps `GST_PAD_STREAM_LOCK` / `GST_PAD_STREAM_UNLOCK`.
  public func withStreamLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    hvt_gst_pad_stream_lock(pointer)
    defer { hvt_gst_pad_stream_unlock(pointer) }
    return try body()
  }

  /// Whether a streaming thread is inside this pad now (holds its stream lock): on a sink pad, whether a
  /// buffer or serialized event is being handled. Never waits: tries the lock and lets it go at once.
  /// Wraps `GST_PAD_STREAM_TRYLOCK` / `GST_PAD_STREAM_UNLOCK`.
  public var isStreaming: Bool {
    guard hvt_gst_pad_stream_trylock(pointer) != 0 else { return true }
    hvt_gst_pad_stream_unlock(pointer)
    return false
  }

  /// Pushes a buffer out of this source pad to its peer, after the pad's pending sticky events
  /// (stream-start, caps, segment). Call it only where no streaming thread pushes on this pad at the same
  /// time. Returns whether the peer accepted it. Wraps `gst_pad_push` (given a reference of its own).
  @discardableResult
  public func push(_ buffer: Buffer) -> Bool {
    gst_pad_push(pointer, gst_buffer_ref(buffer.pointer)) == GST_FLOW_OK
  }

  /// Asks the encoder upstream of this sink pad for a key frame as soon as it can (with its headers, for
  /// H.264 the SPS and PPS): pushes `gst_video_event_new_upstream_force_key_unit` to the pad's peer, which
  /// elements pass upstream (a tee, a parser) to the encoder (`GstVideoEncoder` honours it). Returns
  /// whether an element took the event.
  @discardableResult
  public func requestKeyFrame() -> Bool {
    gst_pad_push_event(pointer, gst_video_event_new_upstream_force_key_unit(ClockTime.none, 1, 0)) != 0
  }

  /// The element the pad belongs to, if it still has one. Wraps `gst_pad_get_parent_element` (a full
  /// reference).
  public var parentElement: Element? { gst_pad_get_parent_element(pointer).map(Element.init(adopting:)) }

  /// The pad this one is linked to, if any. Wraps `gst_pad_get_peer` (a full reference).
  public var peer: Pad? { gst_pad_get_peer(pointer).map(Pad.init(adopting:)) }

  /// Sends an end-of-stream event into this pad. Wraps `gst_pad_send_event` with `gst_event_new_eos`.
  @discardableResult
  public func sendEndOfStream() -> Bool {
    gst_pad_send_event(pointer, gst_event_new_eos()) != 0
  }

  /// Sends `target` (a sink pad) this pad's sticky stream-start, caps and segment events, in that order:
  /// what a pad linked after this one receives before its first buffer. The elements after `target`
  /// negotiate on them before any buffer comes (an encoder opens). They are the same events, not copies,
  /// so a pad that gives `target` this pad's events later (a `tee`'s new source pad) changes nothing.
  /// Returns false when this pad does not hold all three yet or `target` refused one. Wraps
  /// `gst_pad_get_sticky_event` and `gst_pad_send_event`.
  public func sendStickyEvents(to target: Pad) -> Bool {
    for type in [GST_EVENT_STREAM_START, GST_EVENT_CAPS, GST_EVENT_SEGMENT] {
      guard let event = gst_pad_get_sticky_event(pointer, type, 0), gst_pad_send_event(target.pointer, event) != 0
      else { return false }
    }
    return true
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
