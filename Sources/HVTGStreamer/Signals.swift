import CGStreamer

extension Element {
  /// Emits an action signal that takes no arguments and returns nothing, such as camerabin's
  /// `start-capture` and `stop-capture`. Throws `unknownSignal` when the element has no such signal.
  ///
  /// `g_signal_emit_by_name` is variadic, which Swift cannot call; this looks the signal up on the
  /// element's type and emits it with the instance as the only parameter. Wraps `g_signal_lookup`,
  /// `g_signal_query` and `g_signal_emitv`.
  public func emit(_ signal: String) throws {
    let id = g_signal_lookup(signal, hvt_g_object_type(pointer))
    guard id != 0 else { throw GStreamerError.unknownSignal(element: name, signal: signal) }
    var query = GSignalQuery()
    g_signal_query(id, &query)
    guard query.n_params == 0, query.return_type == hvt_g_type_none() else {
      throw GStreamerError.unknownSignal(element: name, signal: "\(signal) (it takes arguments or returns a value)")
    }
    var instance = GValue()
    g_value_init(&instance, hvt_g_object_type(pointer))
    g_value_set_object(&instance, pointer)
    defer { g_value_unset(&instance) }
    g_signal_emitv(&instance, id, 0, nil)
  }
}

extension Element {
  /// Calls `handler` each time the element emits `signal`, whatever the signal's arguments (they are not
  /// passed on), on the emitting thread; e.g. `srtsink`'s `caller-added`. The handler lives as long as
  /// the element. Wraps `g_signal_connect_data` with `G_CONNECT_SWAPPED`, so that the handler's data
  /// comes first, before arguments it does not read.
  public func onSignal(_ signal: String, _ handler: @escaping @Sendable () -> Void) {
    g_signal_connect_data(
      pointer, signal, unsafeBitCast(signalled, to: GCallback.self), CallbackContext.retained(handler),
      { data, _ in releaseCallbackContext(data) }, G_CONNECT_SWAPPED)
  }

  /// Connects `callback` to `signal`, with `handler` as its user data (read back with
  /// ``CallbackContext/callback(from:)``), released when the element goes away. Wraps
  /// `g_signal_connect_data`.
  func connect<Handler>(_ signal: String, _ callback: GCallback, _ handler: Handler) {
    g_signal_connect_data(
      pointer, signal, callback, CallbackContext.retained(handler), { data, _ in releaseCallbackContext(data) },
      GConnectFlags(rawValue: 0))
  }
}

/// Called with each element added anywhere inside a bin, on the thread that adds it.
public typealias DeepElementAddedHandler = @Sendable (_ element: Element) -> Void

extension Bin {
  /// Calls `handler` with every element added to this bin or to any bin inside it, from now on, on the
  /// thread that adds it (often while a state change is in progress: only configure the element or add
  /// probes to its pads, never change states from here). The handler lives as long as the bin.
  ///
  /// This is how to reach elements that a bin makes for itself, such as the encoder `encodebin` picks
  /// inside `camerabin`. Wraps `g_signal_connect_data` on `deep-element-added`.
  public func onDeepElementAdded(_ handler: @escaping DeepElementAddedHandler) {
    typealias Callback =
      @convention(c) (
        UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstElement>?,
        UnsafeMutableRawPointer?
      ) -> Void
    let callback: Callback = { _, _, element, data in
      guard let element, let data else { return }
      CallbackContext<DeepElementAddedHandler>.callback(from: data)(Element(retaining: element))
    }
    connect("deep-element-added", unsafeBitCast(callback, to: GCallback.self), handler)
  }
}

/// The C side of ``Element/onSignal(_:_:)``: with `G_CONNECT_SWAPPED`, the handler's data is the first
/// argument.
private let signalled: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
  guard let data else { return }
  CallbackContext<@Sendable () -> Void>.callback(from: data)()
}
