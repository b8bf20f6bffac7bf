import CGStreamer

extension String {
  /// Takes a newly allocated C string (transfer full), copies it and frees it with `g_free`: GLib's
  /// strings, as GStreamer and GDBus hand them out.
  package init(ownedCString pointer: UnsafeMutablePointer<gchar>?) {
    guard let pointer else {
      self = ""
      return
    }
    self = String(cString: pointer)
    g_free(pointer)
  }
}
