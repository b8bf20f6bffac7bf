import Foundation
import MediaInspection
import Testing

/// `hvtcam library` and the freedesktop thumbnail cache, across processes: one `hvtcam` writes an entry
/// into `$XDG_CACHE_HOME/thumbnails`, others read it back, and `gio`, `md5sum`, `exiftool` and
/// `gst-discoverer-1.0` check what it is. Each test has a cache folder of its own.
@Suite("hvtcam library and the freedesktop thumbnail cache", .timeLimit(.minutes(2)))
struct ThumbnailCacheCommandTests {
  /// This process's GStreamer registry, which the children are pointed at (`GST_REGISTRY_1_0`): with
  /// `XDG_CACHE_HOME` moved, each would otherwise build one of its own in the test's cache folder.
  static let registry: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let registry = environment["GST_REGISTRY_1_0"] { return registry }
    let folder = (environment["XDG_CACHE_HOME"] ?? "\(environment["HOME"] ?? "/root")/.cache") + "/gstreamer-1.0"
    let name = try? FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("registry.") }
    return name.map { "\(folder)/\($0)" }
  }()

  /// hvtcam's environment: the photo library in `pictures`, the thumbnail cache in `cacheHome` (`nil`:
  /// `XDG_CACHE_HOME` unset), `HOME` at `home` when given.
  static func environment(pictures: String, cacheHome: String?, home: String? = nil) -> [String: String] {
    var setting = ["XDG_PICTURES_DIR": pictures, "XDG_VIDEOS_DIR": pictures]
    if let cacheHome { setting["XDG_CACHE_HOME"] = cacheHome }
    if let home { setting["HOME"] = home }
    if let registry { setting["GST_REGISTRY_1_0"] = registry }
    return HVTCam.environment(setting: setting, removing: cacheHome == nil ? ["XDG_CACHE_HOME"] : [])
  }

  static let pick = ["library", "--source", "photo-library", "pick", "1"]

  /// Expects `entry` to be a current large thumbnail of `photo` as other programs read it
  /// (``FreedesktopThumbnails/problems(ofEntry:for:size:)``).
  static func expectCurrent(_ entry: String, of photo: String, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let problems = try await FreedesktopThumbnails.problems(ofEntry: entry, for: photo)
    #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
  }

  /// A photo in `directory`'s Pictures folder picked once with its cache in `directory`/cache: the photo,
  /// the cache's folder, hvtcam's environment, and where the photo's large entry is.
  static func pickedOnce(in directory: TemporaryDirectory) async throws -> (
    photo: String, cacheHome: String, environment: [String: String], entry: String
  ) {
    let photo = try await LibraryWindowTests.makePhotos(in: directory)[0]
    let cacheHome = directory.path("cache")
    let environment = Self.environment(pictures: directory.path("Pictures"), cacheHome: cacheHome)
    let first = try await HVTCam.run(Self.pick, environment: environment)
    #expect(first.succeeded && first.outputLines == [photo], "\(first)")
    return (photo, cacheHome, environment, try await FreedesktopThumbnails.entry(of: photo, in: cacheHome))
  }

  @Test("pick writes the photo's large entry, named by md5sum of gio's URI; a second hvtcam finds it current")
  func writtenThenRead() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (photo, cacheHome, environment, entry) = try await Self.pickedOnce(in: directory)
    try await Self.expectCurrent(entry, of: photo)
    #expect(try await FreedesktopThumbnails.mode(of: entry) == "600")
    for folder in ["thumbnails", "thumbnails/large"] {
      #expect(try await FreedesktopThumbnails.mode(of: "\(cacheHome)/\(folder)") == "700", "\(folder)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(cacheHome)/thumbnails/large").count == 1)

    let inode = try await FreedesktopThumbnails.inode(of: entry)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: entry))
    let second = try await HVTCam.run(Self.pick, environment: environment)
    #expect(second.succeeded && second.outputLines == [photo], "\(second)")
    #expect(try await FreedesktopThumbnails.inode(of: entry) == inode, "the current entry is not written again")
    #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == bytes)
  }

  @Test("a stale entry (the photo touched), garbage and a truncated entry are replaced by the next pick")
  func staleAndCorrupt() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (photo, _, environment, entry) = try await Self.pickedOnce(in: directory)
    let valid = try Data(contentsOf: URL(fileURLWithPath: entry))

    let modified = try await FreedesktopThumbnails.modified(photo)
    let touched = try await Subprocess.run(tool: "touch", ["-d", "@\(modified + 100)", photo])
    try #require(touched.succeeded, "\(touched)")
    let inode = try await FreedesktopThumbnails.inode(of: entry)
    let afterTouch = try await HVTCam.run(Self.pick, environment: environment)
    #expect(afterTouch.succeeded, "\(afterTouch)")
    #expect(try await FreedesktopThumbnails.inode(of: entry) != inode, "the stale entry is replaced")
    try await Self.expectCurrent(entry, of: photo)

    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
    for (name, bytes) in [("garbage", garbage), ("truncated", valid.prefix(valid.count / 2))] {
      try bytes.write(to: URL(fileURLWithPath: entry))
      let picked = try await HVTCam.run(Self.pick, environment: environment)
      #expect(picked.succeeded && picked.outputLines == [photo], "\(name): \(picked)")
      try await Self.expectCurrent(entry, of: photo)
    }
  }

  @Test("without XDG_CACHE_HOME, or with a relative one, the cache is ~/.cache/thumbnails")
  func homeCache() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photo = try await LibraryWindowTests.makePhotos(in: directory)[0]
    for (home, cacheHome) in [("home", nil), ("other-home", "relative/cache")] {
      try FileManager.default.createDirectory(atPath: directory.path(home), withIntermediateDirectories: true)
      let environment = Self.environment(
        pictures: directory.path("Pictures"), cacheHome: cacheHome, home: directory.path(home))
      let picked = try await HVTCam.run(Self.pick, environment: environment, directory: directory.url)
      #expect(picked.succeeded, "\(picked)")
      try await Self.expectCurrent(
        try await FreedesktopThumbnails.entry(of: photo, in: directory.path("\(home)/.cache")), of: photo)
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("relative")))
  }

  @Test("a cache on a read-only disk, or where a file stands, does not make pick fail")
  func unwritable() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try await LibraryWindowTests.makePhotos(in: directory)
    let disk = try await SmallDisk(kilobytes: 64, readOnly: true)
    try Data("a file".utf8).write(to: directory.file("file"))
    for cacheHome in [disk.directory.url.path, directory.path("file")] {
      let thumbnail = directory.path("thumbnail-\(UUID().uuidString).jpg")
      let picked = try await HVTCam.run(
        Self.pick + ["--thumbnail", thumbnail],
        environment: Self.environment(pictures: directory.path("Pictures"), cacheHome: cacheHome))
      #expect(picked.succeeded && picked.standardError.contains("thumbnail 320x240"), "\(cacheHome): \(picked)")
      let report = try await MediaInspector.discover(thumbnail)
      #expect(report.isJPEG && report.size == "320x240", "\(report)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.directory.url.path).isEmpty)
    await disk.remove()
  }
}

/// The library window's tiles from the cache, on a private Xvfb: a current entry another program wrote
/// is shown instead of the photo, a stale one is replaced, a missing one written.
@Suite("hvtcam library browse and the freedesktop thumbnail cache", .timeLimit(.minutes(2)))
struct ThumbnailCacheWindowTests {
  @Test("the grid shows a current planted entry's yellow for the red photo; a stale entry and a missing one are made")
  func tilesFromTheCache() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photos = try await LibraryWindowTests.makePhotos(in: directory)
    let cacheHome = directory.path("cache")
    var entries: [String] = []
    for photo in photos { entries.append(try await FreedesktopThumbnails.entry(of: photo, in: cacheHome)) }
    let modified = [
      try await FreedesktopThumbnails.modified(photos[0]), try await FreedesktopThumbnails.modified(photos[1]),
    ]
    // Red's entry is current but yellow; green's is magenta and a second older than the photo; blue has none.
    for (index, (red, green, blue), age) in [(0, (255, 255, 0), 0), (1, (255, 0, 255), 1)]
      as [(Int, (UInt8, UInt8, UInt8), Int)]
    {
      try await FreedesktopThumbnails.plant(
        entries[index], width: 256, height: 192, red: red, green: green, blue: blue,
        text: [
          ("Thumb::URI", try await FreedesktopThumbnails.uri(of: photos[index])),
          ("Thumb::MTime", "\(modified[index] - age)"),
        ])
    }
    let planted = try Data(contentsOf: URL(fileURLWithPath: entries[0]))
    var environment = ["XDG_CACHE_HOME": cacheHome]
    if let registry = ThumbnailCacheCommandTests.registry { environment["GST_REGISTRY_1_0"] = registry }
    let browser = try await LibraryWindowTests.Browser(
      pictures: directory.path("Pictures"), home: directory.url.path, environment: environment)
    let (tileWidth, tileHeight) = (LibraryWindowTests.tileWidth, LibraryWindowTests.tileHeight)
    let grid = try await browser.screenshot {
      $0.colourName(tileWidth * 2 + tileWidth / 2, tileHeight / 2) == "blue"
    }
    let centres = (0..<3).map { grid.colourName($0 * tileWidth + tileWidth / 2, tileHeight / 2) }
    #expect(centres == ["yellow", "green", "blue"], "the current entry shown, the stale one not")
    try await browser.display.xdotool(["key", "Escape"])
    let result = await browser.process.result()
    await browser.display.stop()
    #expect(result.succeeded && result.standardError.contains("cancelled"), "\(result)")

    #expect(try Data(contentsOf: URL(fileURLWithPath: entries[0])) == planted, "the current entry is kept")
    for index in 1...2 { try await ThumbnailCacheCommandTests.expectCurrent(entries[index], of: photos[index]) }
  }
}
