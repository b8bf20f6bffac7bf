import CGStreamer

/// The `file://` URI of a local file as GLib, and so GIO's `GFile` and every GNOME and KDE program that
/// names files by URI, writes it: the absolute, canonical path, each byte outside the URI's unreserved
/// and path characters percent-encoded. The freedesktop thumbnail cache keys its entries by this text.
package enum FileURI {
  /// The URI of `path` (relative paths are taken from the current folder; `.`, `..` and repeated slashes
  /// are removed, symbolic links are not followed, as `g_file_new_for_path` does), or `nil` when GLib
  /// refuses the path. Wraps `g_canonicalize_filename` and `g_filename_to_uri`.
  package static func of(path: String) -> String? {
    guard let canonical = g_canonicalize_filename(path, nil) else { return nil }
    defer { g_free(canonical) }
    guard let uri = g_filename_to_uri(canonical, nil, nil) else { return nil }
    return String(ownedCString: uri)
  }
}
