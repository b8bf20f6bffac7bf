import CGStreamer

/// An owned reference to a pipeline's `GstBus`.
///
/// `@unchecked Sendable`: a counted reference to a `GstBus`, whose functions are thread-safe.
public final class Bus: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<GstBus>

  /// Takes over a full reference.
  init(adopting pointer: UnsafeMutablePointer<GstBus>) {
    self.pointer = pointer
  }

  deinit {
    gst_object_unref(pointer)
  }

  /// Delivers every message to `handler` on the posting thread, as a `BusMessage`, and then drops it
  /// (the `GstMessage` is released here, so nothing piles up on the bus). Needs no main loop. The
  /// messages posted before, which waited on the bus, are dropped (``dropPending()``): each held the
  /// object that posted it (a pipeline's first `gtk4paintablesink`, replaced, lived until the pipeline
  /// stopped).
  /// The handler must be quick and must not change element states: hop to a queue for that.
  /// Replaces any earlier handler, releasing its closure first: GStreamer versions differ on whether a
  /// second handler replaces the first, and one that refuses keeps neither closure's release. Wraps
  /// `gst_bus_set_sync_handler`.
  public func setSyncHandler(_ handler: @escaping @Sendable (BusMessage) -> Void) {
    removeSyncHandler()
    let context = CallbackContext.retained(handler)
    gst_bus_set_sync_handler(
      pointer,
      { _, message, data in
        guard let message else { return GST_BUS_DROP }
        if let data {
          CallbackContext<@Sendable (BusMessage) -> Void>.callback(from: data)(BusMessage(message))
        }
        gst_message_unref(message)
        return GST_BUS_DROP
      },
      context,
      { data in CallbackContext<@Sendable (BusMessage) -> Void>.release(data) })
    dropPending()
  }

  /// Drops the messages waiting on the bus (posted while no sync handler took them), releasing the
  /// objects that posted them. Wraps `gst_bus_pop` and `gst_message_unref`.
  public func dropPending() {
    while let message = gst_bus_pop(pointer) { gst_message_unref(message) }
  }

  /// Whether messages wait on the bus. Wraps `gst_bus_have_pending`.
  public var hasPendingMessages: Bool { gst_bus_have_pending(pointer) != 0 }

  /// Removes the sync handler, releasing its closure. Wraps `gst_bus_set_sync_handler` with `NULL`.
  public func removeSyncHandler() {
    gst_bus_set_sync_handler(pointer, nil, nil, nil)
  }
}
