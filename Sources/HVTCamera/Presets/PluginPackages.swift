/// Which Debian package ships the GStreamer elements presets commonly name, so that a missing one is
/// reported as "not installed (Debian: …)" rather than with a did-you-mean to a different codec.
enum PluginPackages {
  /// Element factory → Debian package.
  static let debianPackage: [String: String] = {
    let byPackage: [String: [String]] = [
      "gstreamer1.0-plugins-base": [
        "videoconvert", "videoscale", "videorate", "videotestsrc", "audiotestsrc", "appsrc", "appsink",
        "theoraenc", "vorbisenc", "opusenc", "ximagesink", "xvimagesink", "oggmux", "audioconvert",
        "audioresample",
      ],
      "gstreamer1.0-plugins-good": [
        "jpegenc", "jpegdec", "pngenc", "vp8enc", "vp9enc", "mp4mux", "qtmux", "matroskamux", "webmmux",
        "v4l2src", "v4l2h264enc", "v4l2jpegenc", "flacenc", "rtph264pay", "splitmuxsink", "videobalance",
        "videoflip", "autovideosink", "pulsesrc", "qtdemux", "matroskademux",
      ],
      "gstreamer1.0-plugins-ugly": ["x264enc", "mpeg2enc", "lamemp3enc"],
      "gstreamer1.0-plugins-bad": [
        "openh264enc", "openh264dec", "h264parse", "h265parse", "x265enc", "vah264enc", "vah265enc", "nvh264enc",
        "mpegtsmux", "voaacenc", "waylandsink", "srtsink", "rtmp2sink", "hlssink2", "av1enc", "svtav1enc",
        "webpenc", "jpegparse", "vp8parse", "vp9parse",
      ],
      "gstreamer1.0-libav": ["avenc_aac", "avenc_h264_omx", "avenc_mpeg4", "avdec_h264"],
      "gstreamer1.0-vaapi": ["vaapih264enc", "vaapih265enc", "vaapisink"],
      "gstreamer1.0-gl": ["glimagesink", "glupload", "glcolorconvert"],
      "gstreamer1.0-gtk3": ["gtksink", "gtkglsink"],
      "gstreamer1.0-pipewire": ["pipewiresrc", "pipewiresink"],
    ]
    var table: [String: String] = [:]
    for (package, factories) in byPackage {
      for factory in factories { table[factory] = package }
    }
    return table
  }()

  /// `Debian: gstreamer1.0-plugins-ugly` for the first of `factories` whose package is known.
  static func installHint(for factories: [String]) -> String? {
    factories.lazy.compactMap { debianPackage[$0] }.first.map { "Debian: \($0)" }
  }
}
