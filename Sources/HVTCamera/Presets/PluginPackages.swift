/// Which Debian 12 package ships the GStreamer elements presets commonly name, so that a missing one is
/// reported as "not installed (Debian: …)" rather than with a did-you-mean to a different codec. Checked
/// against `dpkg -S` for every element installed on the test machine (`PluginPackagesTests`).
enum PluginPackages {
  /// Element factory → Debian package.
  static let debianPackage: [String: String] = {
    let byPackage: [String: [String]] = [
      "gstreamer1.0-plugins-base": [
        "videoconvert", "videoscale", "videorate", "videotestsrc", "audiotestsrc", "appsrc", "appsink",
        "theoraenc", "vorbisenc", "opusenc", "oggmux", "audioconvert", "audioresample",
      ],
      "gstreamer1.0-x": ["ximagesink", "xvimagesink"],
      "gstreamer1.0-plugins-good": [
        "jpegenc", "jpegdec", "pngenc", "vp8enc", "vp9enc", "mp4mux", "qtmux", "matroskamux", "webmmux",
        "v4l2src", "v4l2h264enc", "v4l2h265enc", "v4l2vp8enc", "v4l2vp9enc", "v4l2jpegenc", "flacenc",
        "lamemp3enc", "rtph264pay", "splitmuxsink", "videobalance", "videoflip", "autovideosink", "pulsesrc",
        "qtdemux", "matroskademux", "multifilesrc", "aacparse", "autoaudiosrc",
      ],
      "gstreamer1.0-plugins-ugly": ["x264enc"],
      "gstreamer1.0-plugins-bad": [
        "openh264enc", "openh264dec", "h264parse", "h265parse", "x265enc", "vah264enc", "vah265enc",
        "vah264lpenc", "nvh264enc", "nvh265enc", "msdkh264enc", "msdkh265enc", "qsvh264enc", "qsvh265enc",
        "mpeg2enc", "mpegtsmux", "voaacenc", "waylandsink", "srtsink", "rtmp2sink", "hlssink2", "av1enc",
        "webpenc", "jpegparse", "vp9parse",
      ],
      "gstreamer1.0-libav": ["avenc_aac", "avenc_mpeg4", "avdec_h264"],
      "gstreamer1.0-vaapi": ["vaapih264enc", "vaapih265enc", "vaapisink"],
      "gstreamer1.0-gl": ["glimagesink", "glupload", "glcolorconvert"],
      "gstreamer1.0-gtk3": ["gtksink", "gtkglsink"],
      // Debian 13 and later (gst-plugins-rs); Debian 12 has no package of it.
      "gstreamer1.0-gtk4": ["gtk4paintablesink"],
      "gstreamer1.0-pipewire": ["pipewiresrc", "pipewiresink"],
    ]
    var table: [String: String] = [:]
    for (package, factories) in byPackage {
      for factory in factories { table[factory] = package }
    }
    return table
  }()

  /// `Debian: gstreamer1.0-plugins-ugly or gstreamer1.0-plugins-bad`: the packages of `factories` that are
  /// known, in the order of the first factory of each.
  static func installHint(for factories: [String]) -> String? {
    var packages: [String] = []
    for package in factories.compactMap({ debianPackage[$0] }) where !packages.contains(package) {
      packages.append(package)
    }
    return packages.isEmpty ? nil : "Debian: \(packages.joined(separator: " or "))"
  }
}
