import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The library's thumbnails in the freedesktop thumbnail cache (`ThumbnailCache`), each in a cache folder
/// of the test's own: entries named and tagged as GLib's `gio`, `md5sum` and `exiftool` say they must be,
/// read back when current, and ignored and replaced when not.
@Suite("The freedesktop thumbnail cache", .timeLimit(.minutes(2)))
struct ThumbnailCacheTests {
  /// A 640x480 JPEG of one colour (`0xAARRGGBB`) at `path`, made by `gst-launch-1.0`.
  static func makePhoto(_ path: String, colour: String = "0xffff0000") async throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=1", "pattern=solid-color", "foreground-color=\(colour)", "!",
        "video/x-raw,width=640,height=480", "!", "jpegenc", "!", "filesink", "location=\(path)",
      ])
    try #require(made.status == 0, "\(made.output)")
  }

  /// The RGB of the picture's centre pixel.
  static func centre(_ picture: LibraryCanvas.Picture) -> [UInt8] {
    let offset = (picture.height / 2 * picture.width + picture.width / 2) * 4
    return [UInt8](picture.bytes[offset..<(offset + 3)])
  }

  /// Whether `rgb` is near pure red (a JPEG's colours are a little off).
  static func isRed(_ rgb: [UInt8]) -> Bool { rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60 }

  @Test("the cache folder follows XDG_CACHE_HOME, else ~/.cache; an entry is named by the MD5 of gio's URI")
  func location() async throws {
    #expect(ThumbnailCache(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]).folder == "/c/thumbnails")
    #expect(ThumbnailCache(environment: ["HOME": "/h"]).folder == "/h/.cache/thumbnails")
    // The standard: a relative XDG_CACHE_HOME is ignored.
    #expect(ThumbnailCache(environment: ["XDG_CACHE_HOME": "c", "HOME": "/h"]).folder == "/h/.cache/thumbnails")
    #expect(ThumbnailCache(environment: [:]).folder == nil)

    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Characters GLib leaves as they are (', !, =) and ones it escapes (space, #, %, ü).
    let photo = directory.path("a b'!=#%ü/c d.jpg")
    try await Self.makePhoto(photo)
    let source = try #require(ThumbnailCache.Source(URL(fileURLWithPath: photo)))
    let uri = try await FreedesktopThumbnails.uri(of: photo)
    #expect(source.uri == uri)
    #expect(uri.contains("a%20b'!=%23%25%C3%BC/c%20d.jpg"), "\(uri)")
    #expect(source.entryName == "\(try await FreedesktopThumbnails.md5(of: uri)).png")
    let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": directory.path("cache")])
    #expect(
      cache.path(of: source, .large)
        == (try await FreedesktopThumbnails.entry(of: photo, in: directory.path("cache"))))
  }

  /// A red photo in `directory`/Pictures and a cache in `directory`/cache: the photo, the cache's folder,
  /// the cache, and where the photo's large entry goes.
  static func redPhoto(in directory: TemporaryDirectory) async throws -> (
    photo: String, cacheHome: String, cache: ThumbnailCache, entry: String
  ) {
    let photo = directory.path("Pictures/red.jpg")
    try await Self.makePhoto(photo)
    let cacheHome = directory.path("cache")
    let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": cacheHome])
    return (photo, cacheHome, cache, try await FreedesktopThumbnails.entry(of: photo, in: cacheHome))
  }

  @Test("a tile's picture fills the cache on a miss (0600 in 0700 folders) and comes from it when current")
  func missThenHit() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (photo, cacheHome, cache, entry) = try await Self.redPhoto(in: directory)

    let decoded = try FileThumbnail.picture(
      of: URL(fileURLWithPath: photo), fitting: LibraryGrid.pictureBox, cache: cache)
    #expect(Self.isRed(Self.centre(decoded)), "\(Self.centre(decoded))")
    #expect(decoded.width == 140 && decoded.height == 104, "\(decoded.width)x\(decoded.height)")
    let problems = try await FreedesktopThumbnails.problems(ofEntry: entry, for: photo)
    #expect(problems.isEmpty, "\(problems)")
    #expect(try await FreedesktopThumbnails.mode(of: entry) == "600")
    for folder in ["\(cacheHome)/thumbnails", "\(cacheHome)/thumbnails/large"] {
      #expect(try await FreedesktopThumbnails.mode(of: folder) == "700", "\(folder)")
    }
    // No temporary file is left beside the entry.
    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(cacheHome)/thumbnails/large").count == 1)

    // A current entry written by another program (yellow, unlike the photo) is what the tile shows, and
    // it is left as it is.
    let uri = try await FreedesktopThumbnails.uri(of: photo)
    let modified = try await FreedesktopThumbnails.modified(photo)
    try await FreedesktopThumbnails.plant(
      entry, width: 200, height: 150, red: 255, green: 255, blue: 0,
      text: [("Thumb::URI", uri), ("Thumb::MTime", "\(modified)")])
    let planted = try Data(contentsOf: URL(fileURLWithPath: entry))
    let cached = try FileThumbnail.picture(
      of: URL(fileURLWithPath: photo), fitting: LibraryGrid.pictureBox, cache: cache)
    #expect(Self.centre(cached) == [255, 255, 0], "the planted entry's yellow: \(Self.centre(cached))")
    #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == planted)
    // A thumbnail of up to 256 pixels is made from it too; a larger one from the photo.
    let small = try FileThumbnail.make(of: URL(fileURLWithPath: photo), maximumDimension: 160, cache: cache)
    #expect(small.width == 160 && small.height == 120, "\(small.width)x\(small.height)")
    let large = try FileThumbnail.make(of: URL(fileURLWithPath: photo), maximumDimension: 320, cache: cache)
    #expect(large.width == 320 && large.height == 240, "\(large.width)x\(large.height)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == planted, "a current entry is not rewritten")
  }

  @Test(
    "stale, foreign, garbled, truncated, mis-summed or oversized entries are ignored and replaced",
    arguments: ["stale", "other URI", "wrong size", "garbage", "truncated", "bad CRC", "too large", "touched photo"])
  func badEntries(kind: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (photo, _, cache, entry) = try await Self.redPhoto(in: directory)
    let uri = try await FreedesktopThumbnails.uri(of: photo)
    let modified = try await FreedesktopThumbnails.modified(photo)
    func plant(uri: String = uri, mtime: Int = modified, size: Int = 200, extra: [(String, String)] = []) async throws {
      try await FreedesktopThumbnails.plant(
        entry, width: size, height: size * 3 / 4, red: 255, green: 255, blue: 0,
        text: [("Thumb::URI", uri), ("Thumb::MTime", "\(mtime)")] + extra)
    }
    switch kind {
    case "stale": try await plant(mtime: modified - 1)
    case "other URI": try await plant(uri: uri + "x")
    case "wrong size": try await plant(extra: [("Thumb::Size", "1")])
    case "garbage":
      try FileManager.default.createDirectory(
        atPath: (entry as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: entry))
    case "truncated", "bad CRC":
      try await plant()
      var bytes = try Data(contentsOf: URL(fileURLWithPath: entry))
      if kind == "truncated" {
        bytes = bytes.prefix(bytes.count / 2)
      } else {
        // The last character of the URI's text, inside its tEXt chunk: the CRC no longer matches.
        let at = try #require(bytes.range(of: Data(uri.utf8))).upperBound - 1
        bytes[at] ^= 0x01
      }
      try bytes.write(to: URL(fileURLWithPath: entry))
    case "too large": try await plant(size: 512)
    default:
      try await plant()
      let touched = try await Subprocess.run(tool: "touch", ["-d", "@\(modified + 100)", photo])
      try #require(touched.succeeded, "\(touched)")
    }
    let picture = try FileThumbnail.picture(
      of: URL(fileURLWithPath: photo), fitting: LibraryGrid.pictureBox, cache: cache)
    #expect(Self.isRed(Self.centre(picture)), "\(kind): the photo, not the entry: \(Self.centre(picture))")
    let problems = try await FreedesktopThumbnails.problems(ofEntry: entry, for: photo)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("a cache that cannot be written is not used: the picture is still made, and nothing is thrown")
  func unwritable() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photo = directory.path("Pictures/red.jpg")
    try await Self.makePhoto(photo)
    // XDG_CACHE_HOME is a file; or the large folder is.
    try Data("a file".utf8).write(to: directory.file("file"))
    try FileManager.default.createDirectory(
      atPath: directory.path("cache/thumbnails"), withIntermediateDirectories: true)
    try Data("a file".utf8).write(to: directory.file("cache/thumbnails/large"))
    for cacheHome in [directory.path("file"), directory.path("cache")] {
      let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": cacheHome])
      for _ in 0..<2 {
        let picture = try FileThumbnail.picture(
          of: URL(fileURLWithPath: photo), fitting: LibraryGrid.pictureBox, cache: cache)
        #expect(Self.isRed(Self.centre(picture)), "\(cacheHome)")
      }
    }
    #expect(try String(contentsOf: directory.file("cache/thumbnails/large"), encoding: .utf8) == "a file")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("cache/thumbnails")) == ["large"])
  }
}
