import Foundation
import HVTGStreamer
import HVTSupport

/// The saved-photos album on Linux: an `HVTCamera` folder in the user's pictures folder (for photos) and
/// videos folder (for movies), located as the XDG user-dirs spec says, or folders the app chooses. The
/// counterpart of `UIImageWriteToSavedPhotosAlbum`, `UISaveVideoAtPathToSavedPhotosAlbum` and
/// `UIVideoAtPathIsCompatibleWithSavedPhotosAlbum`.
///
/// Saving is asynchronous, on a queue of the album's own, and atomic: the file is written under a hidden
/// partial name in the album and renamed when complete, never over a file already there (a number is
/// added to the name instead). What goes in is checked by GStreamer's own reader (`GstDiscoverer`), not
/// by its name.
public enum HVTSavedPhotosAlbum {
  /// The user's pictures folder: `$XDG_PICTURES_DIR`, else the entry in `~/.config/user-dirs.dirs`,
  /// else `~/Pictures`.
  public static var picturesDirectory: URL { userDirectory("XDG_PICTURES_DIR", fallback: "Pictures") }

  /// The user's videos folder: `$XDG_VIDEOS_DIR`, else `~/.config/user-dirs.dirs`, else `~/Videos`.
  public static var videosDirectory: URL { userDirectory("XDG_VIDEOS_DIR", fallback: "Videos") }

  /// The folders the app chose, if any.
  private static let chosen = Locked<(photos: URL?, movies: URL?)>((nil, nil))

  /// Where photos go: `<pictures folder>/HVTCamera` unless set. Created when the first photo is saved.
  public static var photosFolder: URL {
    get { chosen.withLock { $0.photos } ?? picturesDirectory.appendingPathComponent("HVTCamera", isDirectory: true) }
    set { chosen.withLock { $0.photos = newValue } }
  }

  /// Where movies go: `<videos folder>/HVTCamera` unless set. Created when the first movie is saved.
  public static var moviesFolder: URL {
    get { chosen.withLock { $0.movies } ?? videosDirectory.appendingPathComponent("HVTCamera", isDirectory: true) }
    set { chosen.withLock { $0.movies = newValue } }
  }

  /// Goes back to the default folders (``picturesDirectory`` and ``videosDirectory``'s `HVTCamera`).
  static func restoreDefaultFolders() {
    chosen.withLock { $0 = (nil, nil) }
  }

  /// The queue saves run on, one at a time, and completions are called on.
  private static let queue = DispatchQueue(label: "hvtcamera.album")

  /// Whether the album can be written: the photos folder exists and is writable, or can be created.
  public static var isAvailable: Bool {
    var folder = photosFolder
    while !FileManager.default.fileExists(atPath: folder.path), folder.pathComponents.count > 1 {
      folder.deleteLastPathComponent()
    }
    return FileManager.default.isWritableFile(atPath: folder.path)
  }

  /// Whether the file at `path` can go in the album as a movie: GStreamer reads it as one (a moving video
  /// stream and a duration: `GstDiscoverer`). A text file named `.mp4` is not. Blocks while it reads.
  public static func isVideoCompatible(atPath path: String) -> Bool {
    (try? MediaDiscoverer.discover(URL(fileURLWithPath: path)).isMovie) ?? false
  }

  /// Whether the file at `path` can go in the album as a photo: GStreamer reads it as a still image.
  public static func isImageCompatible(atPath path: String) -> Bool {
    (try? MediaDiscoverer.discover(URL(fileURLWithPath: path)).isImage) ?? false
  }

  /// Copies the movie at `path` into ``moviesFolder``, keeping its name (with a number added if it is
  /// taken), and calls `completion` on the album's queue with where it went, or with
  /// ``HVTCameraError/notCompatibleWithAlbum(path:reason:)`` when it is not a movie, or the file error.
  public static func saveVideo(
    atPath path: String, completion: @escaping @Sendable (Result<URL, HVTCameraError>) -> Void
  ) {
    queue.async {
      completion(
        Result { () throws -> URL in
          let source = URL(fileURLWithPath: path)
          let media: DiscoveredMedia
          do { media = try MediaDiscoverer.discover(source) } catch {
            throw HVTCameraError.notCompatibleWithAlbum(path: path, reason: String(describing: error))
          }
          guard media.isMovie else {
            throw HVTCameraError.notCompatibleWithAlbum(path: path, reason: "GStreamer reads no moving picture in it")
          }
          return try copy(source, into: moviesFolder, movie: true)
        }.mapError(HVTCameraError.init))
    }
  }

  /// ``saveVideo(atPath:completion:)`` for `async` code.
  public static func saveVideo(atPath path: String) async throws -> URL {
    try await withCheckedThrowingContinuation { continuation in
      saveVideo(atPath: path) { continuation.resume(with: $0.mapError { $0 as any Error }) }
    }
  }

  /// Writes a photo (its JPEG) into ``photosFolder`` as `name` (with a number added if it is taken), and
  /// calls `completion` on the album's queue with where it went, or the error:
  /// ``HVTCameraError/notCompatibleWithAlbum(path:reason:)`` when its bytes are not a JPEG.
  public static func writeImage(
    _ image: HVTImage, named name: String = "IMG.jpg",
    completion: @escaping @Sendable (Result<URL, HVTCameraError>) -> Void
  ) {
    queue.async {
      completion(
        Result { () throws -> URL in
          guard image.jpegData.starts(with: [0xFF, 0xD8, 0xFF]) else {
            throw HVTCameraError.notCompatibleWithAlbum(path: name, reason: "its bytes are not a JPEG")
          }
          return try write(image.jpegData, named: name, into: photosFolder, movie: false)
        }.mapError(HVTCameraError.init))
    }
  }

  /// ``writeImage(_:named:completion:)`` for `async` code.
  public static func writeImage(_ image: HVTImage, named name: String = "IMG.jpg") async throws -> URL {
    try await withCheckedThrowingContinuation { continuation in
      writeImage(image, named: name) { continuation.resume(with: $0.mapError { $0 as any Error }) }
    }
  }

  /// Copies a captured photo into ``photosFolder`` or a movie into ``moviesFolder`` (a movie when
  /// GStreamer reads one in it), keeping its name (a number is added if it is taken), and returns where
  /// it went. Blocks while it reads and writes.
  @discardableResult
  public static func save(_ url: URL) throws -> URL {
    let isMovie = (try? MediaDiscoverer.discover(url).isMovie) ?? false
    return try copy(url, into: isMovie ? moviesFolder : photosFolder, movie: isMovie)
  }

  /// Copies `source` into `folder` under its own name, atomically (``write(_:named:into:movie:)``).
  private static func copy(_ source: URL, into folder: URL, movie: Bool) throws -> URL {
    let data: Data
    do {
      data = try Data(contentsOf: source, options: .alwaysMapped)
    } catch {
      throw HVTCameraError.fileReadFailed(path: source.path, reason: SystemCallError.reason(of: error))
    }
    return try write(data, named: source.lastPathComponent, into: folder, movie: movie)
  }

  /// Writes `data` into `folder` as `name`, or `stem-2.ext`, `stem-3.ext`… when it is taken: under a
  /// partial name, then renamed without replacing anything (``CaptureFiles``).
  private static func write(_ data: Data, named name: String, into folder: URL, movie: Bool) throws -> URL {
    let stem = (name as NSString).deletingPathExtension
    let ext = (name as NSString).pathExtension
    var number = 1
    while true {
      let candidate = number == 1 ? name : (ext.isEmpty ? "\(stem)-\(number)" : "\(stem)-\(number).\(ext)")
      do {
        let reservation = try CaptureFiles.reserve(
          folder.appendingPathComponent(candidate), movie: movie, replacing: false)
        return try CaptureFiles.write(data, to: reservation)
      } catch HVTCameraError.fileExists, HVTCameraError.fileInUse {
        number += 1
      }
    }
  }

  /// Reads one XDG user directory: the environment, then `user-dirs.dirs`, then `~/<fallback>`.
  static func userDirectory(_ key: String, fallback: String) -> URL {
    let environment = ProcessInfo.processInfo.environment
    let home = environment["HOME"] ?? NSHomeDirectory()
    if let value = environment[key], !value.isEmpty { return URL(fileURLWithPath: value, isDirectory: true) }
    let config =
      environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: home).appendingPathComponent(".config")
    if let text = try? String(contentsOf: config.appendingPathComponent("user-dirs.dirs"), encoding: .utf8) {
      for line in text.split(separator: "\n") where line.hasPrefix("\(key)=") {
        let value = line.dropFirst(key.count + 1).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return URL(fileURLWithPath: value.replacingOccurrences(of: "$HOME", with: home), isDirectory: true)
      }
    }
    return URL(fileURLWithPath: home).appendingPathComponent(fallback, isDirectory: true)
  }
}
