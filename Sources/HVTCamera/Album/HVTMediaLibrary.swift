import Foundation
import HVTSupport

/// A library to pick photos and movies from, as `UIImagePickerController` offers with its
/// `.photoLibrary` and `.savedPhotosAlbum` source types: the files of
/// ``HVTSavedPhotosAlbum/folders(of:)`` that GStreamer reads, newest first, and for a picked one the same
/// info dictionary a capture is delivered in.
public struct HVTMediaLibrary: Sendable, Hashable {
  /// `.photoLibrary` or `.savedPhotosAlbum` (`.camera` browses nothing).
  public let source: HVTCameraController.SourceType

  /// The media types the library shows: only photos for `[.image]`, as a picker whose `mediaTypes` is
  /// `[.image]` shows only images. Both by default.
  public let mediaTypes: [HVTMediaType]

  /// The library of `source`, with photos and movies.
  public init(_ source: HVTCameraController.SourceType) {
    self.init(source, mediaTypes: [.image, .movie])
  }

  /// The library of `source`, with the items of `mediaTypes` only
  /// (``HVTCameraController/library`` passes the controller's ``HVTCameraController/mediaTypes``).
  public init(_ source: HVTCameraController.SourceType, mediaTypes: [HVTMediaType]) {
    self.source = source
    self.mediaTypes = mediaTypes
  }

  /// The photos and movies of ``mediaTypes``, newest first (``HVTSavedPhotosAlbum/items(of:)``: a photo's
  /// header or `GstDiscoverer` reads each file). Blocks while it reads them.
  public var items: [HVTAlbumItem] {
    HVTSavedPhotosAlbum.items(of: source).filter { mediaTypes.contains($0.mediaType) }
  }

  /// Calls `body` with each of ``items`` as soon as it is read, newest first, until `body` returns `false`
  /// (``HVTSavedPhotosAlbum/forEachItem(of:_:)``).
  public func forEachItem(_ body: (HVTAlbumItem) throws -> Bool) rethrows {
    try HVTSavedPhotosAlbum.forEachItem(of: source) { item in
      mediaTypes.contains(item.mediaType) ? try body(item) : true
    }
  }

  /// The info dictionary of a picked item, as a capture's: `.mediaType`, `.originalImage` (the JPEG's
  /// bytes) and `.imageURL` for a JPEG photo (`.imageURL` alone for a photo of another format), `.mediaURL`
  /// for a movie, and `.thumbnail`, a JPEG of the photo or of the movie's first frame at most
  /// `thumbnailMaximumDimension` pixels on its longer side (`filesrc ! decodebin ! videoconvert`, then
  /// `videoscale ! jpegenc`). There is no `.mediaMetadata`: it describes captures made here.
  ///
  /// The thumbnail goes through the freedesktop thumbnail cache (`$XDG_CACHE_HOME/thumbnails`, shared
  /// with GNOME Files and KDE): up to 256 pixels it is made from a current cached one, and whenever the
  /// file is decoded its 256-pixel thumbnail is stored there, unless a current one is. A cache that
  /// cannot be written is not used, and never makes this throw.
  ///
  /// Blocks while the file is read and its first frame decoded. Throws
  /// ``HVTCameraError/fileReadFailed(path:reason:)`` when the file is gone, unreadable or no longer what
  /// it was listed as, or its first frame cannot be decoded.
  public static func info(for item: HVTAlbumItem, thumbnailMaximumDimension: Int = 320) throws
    -> [HVTCameraController.InfoKey: any Sendable]
  {
    try info(for: item, thumbnailMaximumDimension: thumbnailMaximumDimension, cache: ThumbnailCache())
  }

  /// ``info(for:thumbnailMaximumDimension:)`` with the thumbnail through `cache` (`nil`: none, as for a
  /// file of the engine's own in the temporary folder, which the cache should not name).
  static func info(for item: HVTAlbumItem, thumbnailMaximumDimension: Int, cache: ThumbnailCache?) throws
    -> [HVTCameraController.InfoKey: any Sendable]
  {
    var info: [HVTCameraController.InfoKey: any Sendable] = [.mediaType: item.mediaType]
    switch item.mediaType {
    case .image:
      let data: Data
      do {
        data = try Data(contentsOf: item.url)
      } catch {
        throw HVTCameraError.fileReadFailed(path: item.url.path, reason: SystemCallError.reason(of: error))
      }
      info[.imageURL] = item.url
      if data.starts(with: [0xFF, 0xD8, 0xFF]), let width = item.width, let height = item.height {
        info[.originalImage] = HVTImage(jpegData: data, width: width, height: height)
      }
    case .movie:
      guard FileManager.default.isReadableFile(atPath: item.url.path) else {
        throw HVTCameraError.fileReadFailed(path: item.url.path, reason: "it is gone or cannot be read")
      }
      info[.mediaURL] = item.url
    }
    info[.thumbnail] = try FileThumbnail.make(of: item.url, maximumDimension: thumbnailMaximumDimension, cache: cache)
    return info
  }
}
