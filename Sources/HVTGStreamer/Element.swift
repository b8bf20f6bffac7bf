import CGStreamer
import HVTGLib

/// An owned reference to a `GstElement`: the reference is released when this object goes away.
///
/// Initialisers say what they take over: `init(adopting:)` a full reference, `init(sinking:)` a floating one
/// (as returned by element factories and `gst_parse_launch`), `init(retaining:)` a borrowed one.
///
/// `@unchecked Sendable`: it holds one counted reference to a `GstElement`, whose functions lock the object themselves.
public class Element: @unchecked Sendable {
  /// The underlying element; valid as long as this object lives.
  public let pointer: UnsafeMutablePointer<GstElement>

  /// Takes over a full (non-floating) reference.
  public required init(adopting pointer: UnsafeMutablePointer<GstElement>) {
    self.pointer = pointer
  }

  /// Takes over a floating reference, sinking it. Wraps `gst_object_ref_sink`.
  public convenience init(sinking pointer: UnsafeMutablePointer<GstElement>) {
    gst_object_ref_sink(pointer)
    self.init(adopting: pointer)
  }

  /// Adds a reference of its own to an element it does not own. Wraps `gst_object_ref`.
  public convenience init(retaining pointer: UnsafeMutablePointer<GstElement>) {
    gst_object_ref(pointer)
    self.init(adopting: pointer)
  }

  /// Makes an element from a registered factory, e.g. `Element(factory: "x264enc", name: "encoder")`.
  /// Throws `GStreamerError.missingElement` (with the nearest factory name) when the factory does not exist.
  /// Wraps `gst_element_factory_make`.
  public convenience init(factory: String, name: String? = nil) throws {
    GStreamer.initialize()
    guard let made = gst_element_factory_make(factory, name) else {
      throw GStreamerError.missingElement(
        factory: factory, suggestion: NameSuggestion.nearest(to: factory, among: GStreamer.elementFactoryNames()))
    }
    self.init(sinking: made)
  }

  deinit {
    gst_object_unref(pointer)
  }

  var object: UnsafeMutablePointer<GstObject> { hvt_gst_object_cast(pointer) }

  /// The element's name, unique within its bin. Wraps `gst_object_get_name`.
  public var name: String { String(ownedCString: gst_object_get_name(object)) }

  /// The element's path from the top-level bin, e.g. `/GstPipeline:camera/GstTee:tee`.
  /// Wraps `gst_object_get_path_string`.
  public var path: String { String(ownedCString: gst_object_get_path_string(object)) }

  /// The name of the factory that made the element, e.g. `"x264enc"`. Wraps `gst_element_get_factory`.
  public var factoryName: String? {
    guard let factory = gst_element_get_factory(pointer) else { return nil }
    return String(ownedCString: gst_object_get_name(hvt_gst_object_cast(UnsafeMutableRawPointer(factory))))
  }

  /// Asks for a state change; live sources answer `.noPreroll` on the way to PAUSED.
  /// Wraps `gst_element_set_state`.
  @discardableResult
  public func setState(_ state: ElementState) -> StateChangeResult {
    StateChangeResult(gst_element_set_state(pointer, state.gstState))
  }

  /// Waits up to `timeout` seconds for a pending state change to complete and returns the current state.
  /// Wraps `gst_element_get_state`.
  public func state(timeout seconds: Double) -> (result: StateChangeResult, current: ElementState) {
    var current = GST_STATE_VOID_PENDING
    var pending = GST_STATE_VOID_PENDING
    let result = gst_element_get_state(pointer, &current, &pending, ClockTime.from(seconds: seconds))
    return (StateChangeResult(result), ElementState(current))
  }

  /// Moves a paused or playing pipeline to `position` nanoseconds of stream time, flushing what was
  /// queued; `accurate` decodes up to the exact position instead of the key frame before it. A paused
  /// pipeline prerolls again at the new position. Returns whether the seek was taken. Wraps
  /// `gst_element_seek_simple` with `GST_SEEK_FLAG_FLUSH` (and `GST_SEEK_FLAG_ACCURATE`).
  @discardableResult
  public func seek(to position: UInt, accurate: Bool) -> Bool {
    let flags = GST_SEEK_FLAG_FLUSH.rawValue | (accurate ? GST_SEEK_FLAG_ACCURATE.rawValue : 0)
    return gst_element_seek_simple(pointer, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags), Int(position)) != 0
  }

  /// The state the element is in right now, without waiting (`GST_STATE`).
  public var currentState: ElementState { ElementState(hvt_gst_element_current_state(pointer)) }

  /// Keeps the element's state out of (`true`) or back in (`false`) its parent's state changes. Wraps
  /// `gst_element_set_locked_state`.
  public func setLockedState(_ locked: Bool) {
    gst_element_set_locked_state(pointer, locked ? 1 : 0)
  }

  /// Brings the element to its parent bin's state. Wraps `gst_element_sync_state_with_parent`.
  @discardableResult
  public func syncStateWithParent() -> Bool {
    gst_element_sync_state_with_parent(pointer) != 0
  }

  /// One of the element's always-present pads, e.g. `"sink"` or `"src"`. Wraps `gst_element_get_static_pad`.
  public func staticPad(_ name: String) -> Pad? {
    gst_element_get_static_pad(pointer, name).map(Pad.init(adopting:))
  }

  /// Requests a new pad from a template such as `"src_%u"` (tee, muxers). Wraps `gst_element_request_pad_simple`.
  public func requestPad(_ template: String) -> Pad? {
    gst_element_request_pad_simple(pointer, template).map(Pad.init(adopting:))
  }

  /// Gives back a pad obtained from `requestPad`. Wraps `gst_element_release_request_pad`.
  public func releaseRequestPad(_ pad: Pad) {
    gst_element_release_request_pad(pointer, pad.pointer)
  }

  /// Links this element's source pad to `next`'s sink pad, negotiating caps. Wraps `gst_element_link`.
  public func link(to next: Element) throws {
    guard gst_element_link(pointer, next.pointer) != 0 else {
      throw GStreamerError.linkFailed(from: name, to: next.name)
    }
  }

  /// Sends an end-of-stream event into the element: into a pipeline, to each of its sources. For an
  /// `appsrc` on its own, use ``endAppSourceStream()``. Wraps `gst_element_send_event` with
  /// `gst_event_new_eos`.
  @discardableResult
  public func sendEndOfStream() -> Bool {
    gst_element_send_event(pointer, gst_event_new_eos()) != 0
  }

  /// Runs `action` once the element is finalized, at the very end: after the element's own finalize has
  /// released what it held (GObject's data is cleared last), on the thread that let go of it last. For
  /// what must outlive every use the element makes of it: the Wayland connection `waylandsink` keeps,
  /// with its window, until it is finalized. Wraps `g_object_set_data_full`.
  public func onFinalize(_ action: @escaping @Sendable () -> Void) {
    let context = CallbackContext<@Sendable () -> Void>.retained(action)
    g_object_set_data_full(
      UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), "hvt-on-finalize-\(context)", context
    ) { data in
      guard let data else { return }
      CallbackContext<@Sendable () -> Void>.callback(from: data)()
      CallbackContext<@Sendable () -> Void>.release(data)
    }
  }

  /// Posts an error on the bus as from this element, a `GST_RESOURCE_ERROR_NOT_FOUND` saying `text`: what
  /// the X11 sinks post when their window is closed ("Output window was closed"), for a sink whose window
  /// the application draws. Wraps `gst_element_post_message` with `gst_message_new_error`.
  public func postResourceNotFound(_ text: String) {
    let error = g_error_new_literal(gst_resource_error_quark(), gint(GST_RESOURCE_ERROR_NOT_FOUND.rawValue), text)
    defer { g_error_free(error) }
    _ = gst_element_post_message(pointer, gst_message_new_error(hvt_gst_object_cast(pointer), error, nil))
  }
}

extension Element {
  /// The running time now: clock time minus base time, or `nil` unless the element is PLAYING (only
  /// then does running time advance; an element in a pipeline has its pipeline's clock and base time). Wraps `gst_element_get_clock`, `gst_clock_get_time` and
  /// `gst_element_get_base_time`.
  public var runningTime: UInt? {
    guard currentState == .playing, let clock = gst_element_get_clock(pointer) else { return nil }
    defer { gst_object_unref(clock) }
    let now = gst_clock_get_time(clock)
    let base = gst_element_get_base_time(pointer)
    return now >= base ? now - base : 0
  }
}
