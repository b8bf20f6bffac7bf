import HVTCamera

/// The reference the streaming rows hold HVTCamera's RTSP server against: the camera served the way
/// gst-rtsp-server's `test-launch` example serves a launch line, with no engine around it, and the same
/// encoder settings as HVTCamera's movies (and so its streams).
enum TestLaunchServing {
  /// `( videotestsrc is-live=true ! <the camera's caps> ! videobalance name=light ! videoconvert ! <the
  /// movies' encoder> ! rtph264pay name=pay0 pt=96 config-interval=-1 )`: the light is the brightness the
  /// latency rows turn up and back.
  static func launch(_ model: HVTPipelineModel) -> String {
    let size = model.configuration.size
    let encoder = model.movieEncoderElement?.launchText ?? "x264enc tune=zerolatency"
    return "( videotestsrc is-live=true pattern=smpte "
      + "! video/x-raw,format=I420,width=\(size.width),height=\(size.height),framerate=30/1 "
      + "! videobalance name=light ! videoconvert ! \(encoder) "
      + "! rtph264pay name=pay0 pt=96 config-interval=-1 aggregate-mode=zero-latency )"
  }

  /// The words a `gst-launch-1.0` line adds to stream what it records with a second encoder: `t. ! queue !
  /// videoconvert ! <the movies' encoder> ! rtph264pay ! udpsink` to `port` on 127.0.0.1 — what a
  /// gst-launch-1.0 user writes to record and stream at once.
  static func secondEncoderWords(_ model: HVTPipelineModel, port: Int) -> String {
    let encoder = model.movieEncoderElement?.launchText ?? "x264enc tune=zerolatency"
    return "t. ! queue ! videoconvert ! \(encoder) ! rtph264pay config-interval=-1 "
      + "! udpsink host=127.0.0.1 port=\(port) sync=false async=false"
  }
}
