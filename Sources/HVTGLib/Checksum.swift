import CGStreamer

/// Digests of text, as GLib computes them.
package enum Checksum {
  /// The MD5 digest of `text`'s UTF-8 bytes as 32 lower-case hexadecimal digits (the freedesktop
  /// thumbnail cache's file names). Wraps `g_compute_checksum_for_string` with `G_CHECKSUM_MD5`.
  package static func md5(of text: String) -> String {
    String(ownedCString: g_compute_checksum_for_string(G_CHECKSUM_MD5, text, -1))
  }
}
