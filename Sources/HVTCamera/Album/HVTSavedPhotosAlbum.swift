import Foundation

/// The saved-photos album on Linux: an `HVTCamera` folder in the user's pictures folder (for photos) and
/// videos folder (for movies), located as the XDG user-dirs spec says. The counterpart of
/// `UIImageWriteToSavedPhotosAlbum` and `UISaveVideoAtPathToSavedPhotosAlbum`.
public enum HVTSavedPhotosAlbum {
  /// The user's pictures folder: `$XDG_PICTURES_DIR`, else the entry in `~/.config/user-dirs.dirs`,
  /// else `~/Pictures`.
  public static var picturesDirectory: URL { userDirectory("XDG_PICTURES_DIR", fallback: "Pictures") }

  /// The user's videos folder: `$XDG_VIDEOS_DIR`, else `~/.config/user-dirs.dirs`, else `~/Videos`.
  public static var videosDirectory: URL { userDirectory("XDG_VIDEOS_DIR", fallback: "Videos") }

  /// Whether the album can be written: the pictures folder exists and is writable, or can be created.
  public static var isAvailable: Bool {
    var folder = picturesDirectory
    while !FileManager.default.fileExists(atPath: folder.path), folder.pathComponents.count > 1 {
      folder.deleteLastPathComponent()
    }
    return FileManager.default.isWritableFile(atPath: folder.path)
  }

  /// Whether a movie file can go in the album: an MP4, QuickTime, Matroska or WebM file.
  public static func isVideoCompatible(_ url: URL) -> Bool {
    ["mp4", "m4v", "mov", "mkv", "webm"].contains(url.pathExtension.lowercased())
  }

  /// Copies a captured photo (`.jpg`) into the pictures album or a movie into the videos album, keeping
  /// its name (a number is added if taken), and returns where it went.
  @discardableResult
  public static func save(_ url: URL) throws -> URL {
    let isMovie = isVideoCompatible(url)
    let folder = (isMovie ? videosDirectory : picturesDirectory).appendingPathComponent("HVTCamera", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var target = folder.appendingPathComponent(url.lastPathComponent)
      var number = 1
      while FileManager.default.fileExists(atPath: target.path) {
        number += 1
        let stem = url.deletingPathExtension().lastPathComponent
        target = folder.appendingPathComponent("\(stem)-\(number).\(url.pathExtension)")
      }
      try FileManager.default.copyItem(at: url, to: target)
      return target
    } catch {
      throw HVTCameraError.fileWriteFailed(path: folder.path, reason: error.localizedDescription)
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
