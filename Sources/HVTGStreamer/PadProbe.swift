import CGStreamer

/// What a pad probe watches (`GstPadProbeType`).
public struct PadProbeType: OptionSet, Sendable {
  /// The `GstPadProbeType` bits.
  public let rawValue: UInt32
  /// A probe type from `GstPadProbeType` bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `GST_PAD_PROBE_TYPE_BUFFER`: each buffer passing.
  public static let buffer = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue)
  /// `GST_PAD_PROBE_TYPE_BUFFER_LIST`: each list of buffers pushed at once (`gst_pad_push_list`, as
  /// `mpegtsmux` pushes its packets).
  public static let bufferList = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
  /// `GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM`: each downstream event (caps, segment, EOS…).
  public static let eventDownstream = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
  /// `GST_PAD_PROBE_TYPE_IDLE`: called once when no data is flowing through the pad.
  public static let idle = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_IDLE.rawValue)
  /// `GST_PAD_PROBE_TYPE_BLOCK`: the data is held (its thread waits) for as long as the probe is
  /// installed; with ``buffer``, only buffers are.
  public static let block = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_BLOCK.rawValue)
  /// Events travelling upstream (navigation, QoS, seeks).
  public static let eventUpstream = PadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue)
}

/// What a probe callback tells GStreamer to do with the data (`GstPadProbeReturn`).
public enum PadProbeReturn: Sendable {
  /// `GST_PAD_PROBE_OK`: let it pass, keep the probe.
  case ok
  /// `GST_PAD_PROBE_DROP`: drop the data, keep the probe.
  case drop
  /// `GST_PAD_PROBE_REMOVE`: let it pass and remove the probe.
  case remove

  var gstValue: GstPadProbeReturn {
    switch self {
    case .ok: GST_PAD_PROBE_OK
    case .drop: GST_PAD_PROBE_DROP
    case .remove: GST_PAD_PROBE_REMOVE
    }
  }
}

/// The kind of event a probe saw (the subset HVTCamera acts on).
public enum ProbedEvent: Sendable, Equatable {
  /// `GST_EVENT_CAPS`, with the new caps.
  case caps(Caps)
  /// `GST_EVENT_EOS`.
  case endOfStream
  /// `GST_EVENT_SEGMENT` of a time segment: its `start` (the timestamp that plays first) and `base`
  /// (the running time at `start`), in nanoseconds. A buffer's running time is `pts - start + base` at
  /// the normal rate. Encoders move their output's segment: `x264enc` starts it at 1000 hours.
  case segment(start: UInt, base: UInt)
  /// Any other event.
  case other

  /// Events of the same kind are equal; caps events when their caps print the same.
  public static func == (lhs: ProbedEvent, rhs: ProbedEvent) -> Bool {
    switch (lhs, rhs) {
    case (.endOfStream, .endOfStream), (.other, .other): true
    case (.segment(let a, let b), .segment(let c, let d)): a == c && b == d
    case (.caps(let a), .caps(let b)): a.description == b.description
    default: false
    }
  }
}

/// A view of the data a probe is called with, valid only during the callback (`GstPadProbeInfo`).
public struct PadProbeInfo: ~Copyable {
  let info: UnsafeMutablePointer<GstPadProbeInfo>

  /// The buffer passing, if this call is for a buffer. Wraps `GST_PAD_PROBE_INFO_BUFFER`.
  public var buffer: BufferView? {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0,
      let buffer = hvt_gst_pad_probe_info_buffer(info)
    else { return nil }
    return BufferView(pointer: buffer)
  }

  /// The event passing, if this call is for an event. Wraps `GST_PAD_PROBE_INFO_EVENT`.
  public var event: ProbedEvent? {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue != 0,
      let event = hvt_gst_pad_probe_info_event(info)
    else { return nil }
    switch hvt_gst_event_type(event) {
    case GST_EVENT_CAPS:
      var caps: UnsafeMutablePointer<GstCaps>?
      gst_event_parse_caps(event, &caps)
      return caps.map { .caps(Caps(retaining: $0)) } ?? .other
    case GST_EVENT_EOS:
      return .endOfStream
    case GST_EVENT_SEGMENT:
      var segment: UnsafePointer<GstSegment>?
      gst_event_parse_segment(event, &segment)
      guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return .other }
      return .segment(start: UInt(segment.pointee.start), base: UInt(segment.pointee.base))
    default:
      return .other
    }
  }

  /// Puts a copy of the time segment event passing, without its stop, in its place: buffers whose
  /// timestamps a probe moved past the segment's end are then not clipped downstream (`qtmux` drops
  /// them). Does nothing for any other data. Wraps `gst_event_parse_segment` and `gst_event_new_segment`.
  public mutating func removeSegmentStop() {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue != 0,
      let event = hvt_gst_pad_probe_info_event(info), hvt_gst_event_type(event) == GST_EVENT_SEGMENT
    else { return }
    var parsed: UnsafePointer<GstSegment>?
    gst_event_parse_segment(event, &parsed)
    guard let parsed, parsed.pointee.format == GST_FORMAT_TIME else { return }
    var segment = parsed.pointee
    segment.stop = guint64.max
    guard let replacement = gst_event_new_segment(&segment) else { return }
    gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
    hvt_gst_pad_probe_info_set_data(info, replacement)
    gst_event_unref(event)
  }

  /// The navigation event passing upstream (a key or a mouse action in a video sink's window), if this
  /// call is for one. Wraps `gst_navigation_event_get_type` and its parsers.
  public var navigationEvent: NavigationEvent? {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue != 0,
      let event = hvt_gst_pad_probe_info_event(info), hvt_gst_event_type(event) == GST_EVENT_NAVIGATION
    else { return nil }
    return NavigationEvent(event)
  }

  /// Whether this call is for a `GST_EVENT_RECONFIGURE` travelling upstream (a downstream element asks
  /// the source to negotiate again). Wraps `GST_PAD_PROBE_INFO_EVENT` and `GST_EVENT_TYPE`.
  public var isReconfigure: Bool {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue != 0,
      let event = hvt_gst_pad_probe_info_event(info)
    else { return false }
    return hvt_gst_event_type(event) == GST_EVENT_RECONFIGURE
  }

  /// Puts a buffer sharing `content`'s memory, with the probed buffer's timestamps and duration, in the
  /// probed buffer's place: downstream sees `content` as the frame of the moment. Wraps `gst_buffer_copy`.
  public mutating func replaceBuffer(withContentOf content: Buffer) {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0,
      let buffer = hvt_gst_pad_probe_info_buffer(info)
    else { return }
    hvt_gst_pad_probe_info_set_data(info, hvt_gst_buffer_copy_timed(content.pointer, buffer))
    gst_buffer_unref(buffer)
  }

  /// Makes the probed buffer's metadata writable (copying the `GstBuffer` struct, not its memory, when it
  /// is shared with other tee branches) and puts the writable buffer in its place. Wraps
  /// `gst_buffer_make_writable`.
  public mutating func writableBuffer() -> BufferView? {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0,
      let buffer = hvt_gst_pad_probe_info_buffer(info)
    else { return nil }
    let writable = hvt_gst_buffer_make_writable(buffer)
    hvt_gst_pad_probe_info_set_data(info, writable)
    return writable.map(BufferView.init(pointer:))
  }

  /// Makes the probed frame's metadata writable as ``writableBuffer()`` does, for a frame of a camera's
  /// buffer pool that is shared with other tee branches and held downstream for a while (by an encoder):
  /// its writable stand-in reads the frame's memory and keeps the frame until it is freed, so the frame
  /// goes back to its pool whole and is used again rather than discarded and allocated anew (see
  /// `PooledFrameStandIn`). GStreamer 1.24 and later do that themselves (their copy holds its parent
  /// buffer, and frees its memory before its metas), so there, as for a frame that is not shared or not in
  /// system memory, it is ``writableBuffer()``. Wraps `gst_buffer_copy_into` and `gst_memory_new_wrapped`.
  public mutating func writableFrame() -> BufferView? {
    guard PooledFrameStandIn.isNeeded, let standIn = standInFrame() else { return writableBuffer() }
    return standIn
  }

  /// Puts a `PooledFrameStandIn` in the shared probed frame's place, whatever GStreamer's version; `nil`
  /// when the frame is not shared, not in system memory, or not a buffer.
  mutating func standInFrame() -> BufferView? {
    guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0,
      let buffer = hvt_gst_pad_probe_info_buffer(info), hvt_gst_buffer_is_writable(buffer) == 0,
      let standIn = PooledFrameStandIn.make(replacing: buffer)
    else { return nil }
    hvt_gst_pad_probe_info_set_data(info, standIn)
    return BufferView(pointer: standIn)
  }
}

/// A probe callback: runs on a streaming thread (or, for an idle probe, possibly on the caller's thread).
/// It must only look at data and record facts; never change element states from it.
public typealias PadProbeCallback = @Sendable (_ pad: Pad, _ info: inout PadProbeInfo) -> PadProbeReturn

extension Pad {
  /// Installs a probe and returns its id (for `removeProbe`). The callback's context is released when the
  /// probe is removed or the pad goes away. Wraps `gst_pad_add_probe`.
  @discardableResult
  public func addProbe(_ type: PadProbeType, _ callback: @escaping PadProbeCallback) -> UInt {
    let context = CallbackContext.retained(callback)
    return UInt(
      gst_pad_add_probe(
        pointer, GstPadProbeType(rawValue: type.rawValue),
        { pad, info, data in
          guard let pad, let info, let data else { return GST_PAD_PROBE_OK }
          var view = PadProbeInfo(info: info)
          return CallbackContext<PadProbeCallback>.callback(from: data)(Pad(retaining: pad), &view).gstValue
        },
        context,
        { data in CallbackContext<PadProbeCallback>.release(data) }))
  }

  /// Removes a probe installed with `addProbe`. Wraps `gst_pad_remove_probe`.
  public func removeProbe(_ id: UInt) {
    gst_pad_remove_probe(pointer, gulong(id))
  }

  /// Adds a reference of its own to a pad it does not own.
  convenience init(retaining pointer: UnsafeMutablePointer<GstPad>) {
    gst_object_ref(pointer)
    self.init(adopting: pointer)
  }
}
