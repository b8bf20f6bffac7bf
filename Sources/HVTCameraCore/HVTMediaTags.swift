/// Text an app adds to every capture, as camerabin's tag setter does: written into photos as EXIF and
/// XMP (`ImageDescription`/`dc:title`, `UserComment`/`dc:description`, `Artist`/`dc:creator`,
/// `Copyright`/`dc:rights`) and into MP4 movies (`©nam`, `©cmt`, `©ART`, `cprt`, through `mp4mux`'s
/// `GstTagSetter`). Set them with ``HVTCameraController/mediaTags``.
public struct HVTMediaTags: Sendable, Hashable {
  /// The longest tag written, in UTF-8 bytes: longer text is cut there, at a character boundary (a
  /// JPEG's EXIF and XMP segments hold 64 KiB each).
  public static let maximumLength = 1024

  /// A title.
  public var title: String?
  /// A comment, or description.
  public var comment: String?
  /// Who made the capture.
  public var artist: String?
  /// The copyright notice, e.g. `© 2026 A. Person`.
  public var copyright: String?

  /// Tags; each is optional.
  public init(title: String? = nil, comment: String? = nil, artist: String? = nil, copyright: String? = nil) {
    self.title = title
    self.comment = comment
    self.artist = artist
    self.copyright = copyright
  }

  /// Whether no tag is set (an empty string counts as not set).
  public var isEmpty: Bool { [title, comment, artist, copyright].allSatisfy { ($0 ?? "").isEmpty } }

  /// The tags as written: empty ones dropped, each cut to ``maximumLength`` bytes.
  package var written: HVTMediaTags {
    func cut(_ text: String?) -> String? {
      guard let text, !text.isEmpty else { return nil }
      var result = ""
      var length = 0
      for character in text {
        length += character.utf8.count
        guard length <= Self.maximumLength else { break }
        result.append(character)
      }
      return result
    }
    return HVTMediaTags(title: cut(title), comment: cut(comment), artist: cut(artist), copyright: cut(copyright))
  }
}
