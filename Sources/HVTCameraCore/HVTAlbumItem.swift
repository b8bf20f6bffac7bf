import Foundation

/// One photo or movie to browse, as GStreamer reads it (``HVTSavedPhotosAlbum/items(of:)``).
public struct HVTAlbumItem: Sendable, Hashable {
  /// The file.
  public var url: URL
  /// `.image` for a still image, `.movie` for a movie.
  public var mediaType: HVTMediaType
  /// When the file was last written.
  public var modified: Date
  /// The size of the picture in pixels, when GStreamer reads one.
  public var width: Int?
  /// See ``width``.
  public var height: Int?
  /// Movies: seconds.
  public var duration: Double?
  /// Sound streams in a movie.
  public var audioStreams: Int
  /// Bytes.
  public var fileSize: Int

  /// Each stored property, as a memberwise initializer takes them.
  package init(
    url: URL, mediaType: HVTMediaType, modified: Date, width: Int? = nil, height: Int? = nil, duration: Double? = nil,
    audioStreams: Int, fileSize: Int
  ) {
    self.url = url
    self.mediaType = mediaType
    self.modified = modified
    self.width = width
    self.height = height
    self.duration = duration
    self.audioStreams = audioStreams
    self.fileSize = fileSize
  }
}
