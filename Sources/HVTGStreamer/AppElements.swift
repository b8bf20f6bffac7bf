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

  /// Waits up to `timeout` seconds for the next sample from an `appsink` element; `nil` on timeout or EOS.
  /// Wraps `gst_app_sink_try_pull_sample`.
  public func pullSample(timeout seconds: Double) -> Sample? {
    let sink = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)
    return gst_app_sink_try_pull_sample(sink, ClockTime.from(seconds: seconds)).map(Sample.init(adopting:))
  }
}
