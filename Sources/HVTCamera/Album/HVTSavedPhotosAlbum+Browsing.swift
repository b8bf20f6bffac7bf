import Foundation
import HVTGStreamer

extension HVTSavedPhotosAlbum {
  /// The folders a library source browses: the album's own (``photosFolder``, ``moviesFolder``) for
  /// `.savedPhotosAlbum`, the user's pictures and videos folders for `.photoLibrary`; none for `.camera`.
  public static func folders(of source: HVTCameraController.SourceType) -> [URL] {
    switch source {
    case .camera: []
    case .savedPhotosAlbum: [photosFolder, moviesFolder]
    case .photoLibrary: [picturesDirectory, videosDirectory]
    }
  }

  /// The photos and movies of a library source, newest first: the visible regular files of its
  /// ``folders(of:)`` (not their subfolders) that are a JPEG or PNG photo (its header read, nothing
  /// decoded) or that GStreamer reads as a still image or a movie (HVTGStreamer's `MediaDiscoverer`);
  /// anything else, and the hidden partial files of saves in progress, is left out. Blocks while it reads
  /// each file; ``forEachItem(of:_:)`` hands each over as it is found.
  public static func items(of source: HVTCameraController.SourceType) -> [HVTAlbumItem] {
    var items: [HVTAlbumItem] = []
    forEachItem(of: source) {
      items.append($0)
      return true
    }
    return items
  }

  /// Calls `body` with each item of ``items(of:)``, in the same order, as soon as it is read, until
  /// `body` returns `false`: a listing of thousands of photos shows its first lines at once, and stops
  /// when asked.
  public static func forEachItem(
    of source: HVTCameraController.SourceType, _ body: (HVTAlbumItem) throws -> Bool
  ) rethrows {
    for file in candidates(of: source) {
      guard let item = item(file) else { continue }
      guard try body(item) else { return }
    }
  }

  /// Whether a library source has something to browse: the newest file that GStreamer reads as a photo
  /// or movie is looked for, and the search stops there.
  public static func hasItems(_ source: HVTCameraController.SourceType) -> Bool {
    candidates(of: source).contains { item($0) != nil }
  }

  /// A file to look at, with what its folder listing said of it.
  private struct File {
    var url: URL
    var modified: Date
    var size: Int
  }

  /// The visible regular files of the source's folders with their modification dates, newest first.
  private static func candidates(of source: HVTCameraController.SourceType) -> [File] {
    var seen = Set<String>()
    var files: [File] = []
    for folder in folders(of: source) {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names where !name.hasPrefix(".") {
        let url = folder.appendingPathComponent(name)
        guard seen.insert(url.standardizedFileURL.path).inserted,
          let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
          attributes[.type] as? FileAttributeType == .typeRegular
        else { continue }
        files.append(
          File(
            url: url, modified: attributes[.modificationDate] as? Date ?? .distantPast,
            size: (attributes[.size] as? NSNumber)?.intValue ?? 0))
      }
    }
    return files.sorted { $0.modified > $1.modified }
  }

  /// The item of one file: a JPEG or PNG photo by its header (``ImageHeader``), else what GStreamer reads
  /// it as, when that is a photo or a movie.
  private static func item(_ file: File) -> HVTAlbumItem? {
    if let image = ImageHeader.read(path: file.url.path) {
      return HVTAlbumItem(
        url: file.url, mediaType: .image, modified: file.modified, width: image.width, height: image.height,
        duration: nil, audioStreams: 0, fileSize: file.size)
    }
    guard let media = try? MediaDiscoverer.discover(file.url), media.isImage || media.isMovie else { return nil }
    return HVTAlbumItem(
      url: file.url, mediaType: media.isMovie ? .movie : .image, modified: file.modified, width: media.width,
      height: media.height, duration: media.isMovie ? media.duration : nil, audioStreams: media.audioStreams,
      fileSize: file.size)
  }
}
