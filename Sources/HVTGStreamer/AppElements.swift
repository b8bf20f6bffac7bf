import CGStreamer

extension Element {
  /// Pushes a sample into an `appsrc` element (its caps become the stream's caps).
  /// Wraps `gst_app_src_push_sample`.
  public func pushSample(_ sample: Sample) throws {
    let source = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSrc.self)
    let result = gst_app_src_push_sample(source, sample.pointer)
    guard result == GST_FLOW_OK else {
      throw GStreamerError.reported(
        MessageReport(
          domain: "gst-stream-error-quark", code: Int(result.rawValue),
          message: "appsrc refused a sample: \(String(cString: gst_flow_get_name(result)))", debug: nil, source: path))
    }
  }

  /// Ends the stream of an `appsrc` element: once the samples pushed before have gone downstream, an
  /// end of stream follows them. Returns whether the element took it (not when it is flushing, being
  /// stopped). Wraps `gst_app_src_end_of_stream`, the element's own `end-of-stream` action: an EOS event
  /// sent to `appsrc` from outside (``sendEndOfStream()``) before its first buffer never reaches
  /// downstream in GStreamer 1.26, though it does in 1.22.
  @discardableResult
  public func endAppSourceStream() -> Bool {
    let source = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSrc.self)
    return gst_app_src_end_of_stream(source) == GST_FLOW_OK
  }

  /// Waits up to `timeout` seconds for the next sample from an `appsink` element; `nil` on timeout or EOS
  /// (``isAppSinkAtEndOfStream`` tells which). Wraps `gst_app_sink_try_pull_sample`.
  public func pullSample(timeout seconds: Double) -> Sample? {
    let sink = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)
    return gst_app_sink_try_pull_sample(sink, ClockTime.from(seconds: seconds)).map(Sample.init(adopting:))
  }

  /// Waits up to `timeout` seconds for the sample a paused `appsink` element prerolled on (the first
  /// one after a start or a flushing seek); `nil` on timeout or EOS. Wraps `gst_app_sink_try_pull_preroll`.
  public func pullPreroll(timeout seconds: Double) -> Sample? {
    let sink = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)
    return gst_app_sink_try_pull_preroll(sink, ClockTime.from(seconds: seconds)).map(Sample.init(adopting:))
  }

  /// Whether an `appsink` element has received the end of the stream and handed out every sample before
  /// it. Wraps `gst_app_sink_is_eos`.
  public var isAppSinkAtEndOfStream: Bool {
    gst_app_sink_is_eos(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)) != 0
  }
}

/// Called with each sample an `appsink` receives, on its streaming thread.
public typealias NewSampleHandler = @Sendable (_ sample: Sample) -> Void

extension Element {
  /// Calls `handler` with every sample the `appsink` receives, on its streaming thread, as it arrives
  /// (no queue: with `max-buffers=1 drop=true`, samples that arrive while the handler runs are dropped
  /// upstream). The handler lives as long as the element. Wraps `gst_app_sink_set_callbacks` with
  /// `new_sample` and `gst_app_sink_pull_sample`.
  public func onNewSample(_ handler: @escaping NewSampleHandler) {
    let sink = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)
    var callbacks = GstAppSinkCallbacks()
    callbacks.new_sample = { sink, data in
      guard let sink, let data, let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_OK }
      CallbackContext<NewSampleHandler>.callback(from: data)(Sample(adopting: sample))
      return GST_FLOW_OK
    }
    gst_app_sink_set_callbacks(sink, &callbacks, CallbackContext.retained(handler)) { data in
      releaseCallbackContext(data)
    }
  }
}
