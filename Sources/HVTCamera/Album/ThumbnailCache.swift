import Foundation
import HVTCairo
import HVTGLib
import HVTSupport

/// The thumbnail cache the freedesktop Thumbnail Managing Standard describes, shared with GNOME Files,
/// Snapshot, KDE and every other program that follows it: `$XDG_CACHE_HOME/thumbnails` (`~/.cache/thumbnails`
/// when that is unset or not an absolute path), with a folder per size (``Flavour``). An entry is a PNG
/// named after the MD5 digest of the file's `file://` URI, whose `tEXt` chunks `Thumb::URI` and
/// `Thumb::MTime` say which file, as it was when, it shows.
///
/// An entry is used only when both match the file (and `Thumb::Size`, when there is one); any other —
/// stale, of another file, truncated, garbled, not a PNG, larger than its folder's size — is ignored, and
/// replaced when a new thumbnail is stored. Storing never fails its caller: a cache that cannot be
/// written (a read-only folder, a full disk) is not used, and the reason is logged at `hvtcamera:4`.
/// There are no `fail/` entries: a file that cannot be decoded is tried again next time.
struct ThumbnailCache: Sendable, Equatable {
  /// The sizes of thumbnail the standard names, each with a folder of its own.
  enum Flavour: String, CaseIterable, Sendable {
    /// At most 128 pixels on the longer side, in `thumbnails/normal`.
    case normal
    /// At most 256 pixels on the longer side, in `thumbnails/large`.
    case large

    /// The longest side a thumbnail of this size has, in pixels.
    var size: Int { self == .normal ? 128 : 256 }

    /// The smallest size whose thumbnails are at least `longerSide` pixels, or `nil` when even `large`
    /// is smaller.
    static func fitting(_ longerSide: Int) -> Flavour? { allCases.first { $0.size >= longerSide } }
  }

  /// A file as the cache knows it: its URI (the key) and what tells a current entry from a stale one.
  struct Source: Sendable, Equatable {
    /// The file's path, as given.
    let path: String
    /// The file's canonical `file://` URI, percent-encoded as GLib writes it (`FileURI`).
    let uri: String
    /// The file's modification time, in whole seconds since 1970 (`st_mtim.tv_sec`): `Thumb::MTime`.
    let modified: Int
    /// The file's size in bytes: `Thumb::Size`.
    let size: Int

    /// `url`'s file as it is now, or `nil` when it cannot be `stat`ed or GLib makes no URI of its path.
    /// Wraps `stat(2)`.
    init?(_ url: URL) {
      var status = stat()
      guard stat(url.path, &status) == 0, let uri = FileURI.of(path: url.path) else { return nil }
      (path, self.uri) = (url.path, uri)
      (modified, size) = (Int(status.st_mtim.tv_sec), Int(status.st_size))
    }

    /// The entry's file name: the MD5 digest of ``uri`` in hexadecimal, then `.png` (`Checksum`, which
    /// wraps `g_compute_checksum_for_string`).
    var entryName: String { Checksum.md5(of: uri) + ".png" }
  }

  /// The `thumbnails` folder, or `nil` when there is none (no `XDG_CACHE_HOME` nor `HOME`).
  let folder: String?

  /// The cache in `folder` (its `normal` and `large` folders are made when needed).
  init(folder: String?) {
    self.folder = folder
  }

  /// The cache `environment` names: `$XDG_CACHE_HOME/thumbnails` when it is an absolute path, else
  /// `$HOME/.cache/thumbnails`, else none.
  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      folder = cache + "/thumbnails"
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      folder = home + "/.cache/thumbnails"
    } else {
      folder = nil
    }
  }

  /// Where `source`'s thumbnail of `flavour` is kept, or `nil` without a cache.
  func path(of source: Source, _ flavour: Flavour) -> String? {
    folder.map { "\($0)/\(flavour.rawValue)/\(source.entryName)" }
  }

  /// `source`'s thumbnail of `flavour`, decoded (``PNGImage``, cairo's PNG decoder), when the cache
  /// holds a current one (``entry(of:_:)``); `nil` otherwise.
  func picture(of source: Source, _ flavour: Flavour) -> PNGImage? {
    guard let (path, png) = entry(of: source, flavour) else { return nil }
    guard let image = PNGImage(png: png) else {
      debugLog.log(.info, "thumbnail cache: \(path) does not decode as a PNG; ignored")
      return nil
    }
    debugLog.log(.info, "thumbnail cache: read \(path) for \(source.uri)")
    return image
  }

  /// Whether the cache holds a current thumbnail of `flavour` for `source` (its chunks read, its pixels
  /// not decoded).
  func isCurrent(_ source: Source, _ flavour: Flavour) -> Bool { entry(of: source, flavour) != nil }

  /// The path and bytes of `source`'s entry of `flavour`, when there is one whose `tEXt` chunks
  /// (``PNGTextChunks``) name `source`'s URI and modification time (and size, when they give one) and
  /// whose picture is no larger than `flavour`.
  private func entry(of source: Source, _ flavour: Flavour) -> (String, [UInt8])? {
    guard let path = path(of: source, flavour),
      let data = FileManager.default.contents(atPath: path)
    else { return nil }
    let png = [UInt8](data)
    guard let chunks = PNGTextChunks(png: png) else {
      debugLog.log(.info, "thumbnail cache: \(path) is not a whole PNG; ignored")
      return nil
    }
    let text = chunks.text
    guard text["Thumb::URI"] == source.uri, text["Thumb::MTime"].flatMap({ Int($0) }) == source.modified,
      text["Thumb::Size"].map({ Int($0) == source.size }) ?? true,
      max(chunks.width, chunks.height) <= flavour.size
    else {
      debugLog.log(.info, "thumbnail cache: \(path) is stale or not of \(source.uri); ignored")
      return nil
    }
    return (path, png)
  }

  /// Stores `image` as `source`'s thumbnail of `flavour`: an 8-bit RGB PNG (cairo's encoder) with
  /// `Thumb::URI`, `Thumb::MTime` and `Thumb::Size`, written to a new file of mode 0600 beside the entry
  /// (`mkstemp`), then renamed over it (`rename`), so that a reader sees the old entry or the new one,
  /// never half of one. Makes the folders it needs (parents too) with mode 0700. Never fails: when the cache cannot
  /// be written, nothing is stored and the reason is logged. Does nothing for a file inside the cache.
  func store(_ image: PNGImage, of source: Source, _ flavour: Flavour) {
    guard let folder, let path = path(of: source, flavour), !source.path.hasPrefix(folder + "/") else { return }
    guard let encoded = image.png(),
      let png = PNGTextChunks.inserting(
        [
          ("Thumb::URI", source.uri), ("Thumb::MTime", String(source.modified)),
          ("Thumb::Size", String(source.size)), ("Software", "HVTCamera"),
        ], into: encoded)
    else {
      debugLog.log(.warning, "thumbnail cache: no PNG could be made for \(source.uri)")
      return
    }
    do {
      try Self.makeFolders("\(folder)/\(flavour.rawValue)")
      var template = Array("\(path).XXXXXX".utf8CString)
      let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard descriptor >= 0 else { throw SystemCallError("mkstemp") }
      let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      let failure = writeAll(Data(png), to: descriptor)
      close(descriptor)
      if failure != 0 {
        unlink(temporary)
        throw SystemCallError("write", code: failure)
      }
      guard rename(temporary, path) == 0 else {
        let error = SystemCallError("rename")
        unlink(temporary)
        throw error
      }
      debugLog.log(.info, "thumbnail cache: wrote \(path) for \(source.uri)")
    } catch {
      debugLog.log(.info, "thumbnail cache: \(path) not written: \(error)")
    }
  }

  /// Makes `folder` and each of its missing parents, with mode 0700 (`mkdir(2)`, as `mkdir -p`).
  private static func makeFolders(_ folder: String) throws {
    var missing: [String] = []
    var path = folder
    while !path.isEmpty, path != "/", access(path, F_OK) != 0 {
      missing.append(path)
      path = (path as NSString).deletingLastPathComponent
    }
    for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
      throw SystemCallError("mkdir \(path)")
    }
  }
}
