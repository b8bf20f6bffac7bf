import Foundation
import MediaInspection
import Testing

/// `hvtcam library browse` used as a person uses it, on a private Xvfb: the grid of pictures screenshot
/// and checked by pixel, real keys and clicks (`xdotool`) in its window.
@Suite("hvtcam library browse: the library window on Xvfb", .serialized, .timeLimit(.minutes(2)))
struct LibraryWindowTests {
  /// The canvas's size and its tiles' (four columns, three rows over a 40-pixel caption bar).
  static let (width, height, tileWidth, tileHeight) = (640, 440, 160, 133)

  /// Three photos of one colour each, red the newest, then green, then blue, in a fresh Pictures folder.
  static func makePhotos(in directory: TemporaryDirectory) async throws -> [String] {
    let pictures = directory.path("Pictures")
    try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
    var paths: [String] = []
    for (index, (name, colour)) in [("red", "0xffff0000"), ("green", "0xff00ff00"), ("blue", "0xff0000ff")]
      .enumerated()
    {
      let path = "\(pictures)/\(name).jpg"
      let made = try await MediaInspector.run(
        "gst-launch-1.0",
        [
          "-q", "videotestsrc", "num-buffers=1", "pattern=solid-color", "foreground-color=\(colour)", "!",
          "video/x-raw,width=320,height=240", "!", "jpegenc", "!", "filesink", "location=\(path)",
        ])
      try #require(made.status == 0, "\(made.output)")
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSinceNow: -Double(index) * 60)], ofItemAtPath: path)
      paths.append(path)
    }
    return paths
  }

  /// Whether the pixel is the selection frame's amber.
  static func isAmber(_ image: RGBImage, _ x: Int, _ y: Int) -> Bool {
    let (r, g, b) = image.pixel(x, y)
    return r > 200 && (120...220).contains(g) && b < 80
  }

  /// Whether tile `slot`'s frame (its left edge, half-way down) is amber.
  static func isSelected(_ image: RGBImage, slot: Int) -> Bool {
    isAmber(image, slot % 4 * tileWidth + 4, slot / 4 * tileHeight + tileHeight / 2)
  }

  /// `hvtcam library browse` on a private display, its window found.
  struct Browser {
    let display: PrivateDisplay
    let process: Subprocess
    let window: String

    /// Starts the browser on the `count` items in `pictures` (and `home`'s Videos), with `options` added
    /// to its command line and `environment` to hvtcam's.
    init(
      pictures: String, home: String, count: Int = 3, options: [String] = [], environment: [String: String] = [:]
    ) async throws {
      let display = try await PrivateDisplay()
      self.display = display
      // A failed start leaves no X server behind.
      do {
        process = try HVTCam.start(
          ["library", "browse", "--source", "photo-library"] + options,
          environment: HVTCam.environment(
            setting: [
              "DISPLAY": display.name, "XDG_PICTURES_DIR": pictures, "XDG_VIDEOS_DIR": "\(home)/Videos",
              "XDG_RUNTIME_DIR": home,
            ].merging(environment) { $1 },
            removing: ["WAYLAND_DISPLAY"]))
        _ = try await process.requireStandardErrorLine("the window") { $0 == "showing \(count) items" }
        let search = try await display.xdotool(["search", "--sync", "--name", "^hvtcam library"])
        guard let window = search.outputLines.first else { throw TestFailure("no library window: \(search)") }
        self.window = window
        try await display.xdotool(["windowfocus", "--sync", window])
      } catch {
        await display.stop()
        throw error
      }
    }

    /// Sends keys to the window, one after another.
    func key(_ names: String...) async throws {
      try await display.xdotool(["key", "--window", window] + names)
    }

    func screenshot(showing shows: (RGBImage) -> Bool) async throws -> RGBImage {
      try await RGBImage.screenshot(
        window: window, display: display.name, width: LibraryWindowTests.width, height: LibraryWindowTests.height,
        showing: shows)
    }
  }

  @Test("the grid shows each photo, newest first, the first selected; Right moves the selection; a click picks")
  func browseAndPick() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photos = try await Self.makePhotos(in: directory)
    let browser = try await Browser(pictures: directory.path("Pictures"), home: directory.url.path)
    defer { Task { await browser.display.stop() } }
    // The tiles fill in one by one once the window is up: the third, blue, is the last.
    let grid = try await browser.screenshot {
      Self.isSelected($0, slot: 0)
        && $0.colourName(Self.tileWidth * 2 + Self.tileWidth / 2, Self.tileHeight / 2) == "blue"
    }
    let centres = (0..<3).map { grid.colourName($0 * Self.tileWidth + Self.tileWidth / 2, Self.tileHeight / 2) }
    #expect(centres == ["red", "green", "blue"], "the tiles, newest first")
    #expect(Self.isSelected(grid, slot: 0) && !Self.isSelected(grid, slot: 1), "the first tile is framed")
    #expect(grid.colourName(Self.tileWidth * 3 + 80, 66) == "black", "the fourth tile is empty")

    let mark = browser.process.standardErrorSoFar.count
    try await browser.display.xdotool(["key", "Right"])
    _ = try await browser.process.requireStandardErrorLine("the selection", from: mark) {
      $0 == "selected 2: \(photos[1])"
    }
    let moved = try await browser.screenshot { Self.isSelected($0, slot: 1) }
    #expect(Self.isSelected(moved, slot: 1) && !Self.isSelected(moved, slot: 0), "the frame moved to the second")
    try await browser.display.xdotool(["mousemove", "--window", browser.window, "400", "66", "click", "1"])
    let result = await browser.process.result()
    #expect(result.succeeded && result.outputLines == [photos[2]], "the clicked photo is picked: \(result)")
    #expect(result.standardError.contains("picked \(photos[2])"), "\(result)")
  }

  @Test("Escape cancels: nothing is printed on stdout and hvtcam exits 0; an empty library says so")
  func cancelAndEmpty() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try await Self.makePhotos(in: directory)
    let browser = try await Browser(pictures: directory.path("Pictures"), home: directory.url.path)
    try await browser.display.xdotool(["key", "Escape"])
    let result = await browser.process.result()
    await browser.display.stop()
    #expect(result.succeeded && result.outputLines.isEmpty && result.standardError.contains("cancelled"), "\(result)")

    let empty = directory.path("Empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let nothing = try await HVTCam.run(
      ["library", "browse", "--source", "photo-library"],
      environment: HVTCam.environment(setting: ["XDG_PICTURES_DIR": empty, "XDG_VIDEOS_DIR": empty]))
    #expect(
      nothing.status == 1 && nothing.standardError.contains("the photo library has no photo or movie to show"),
      "\(nothing)")
  }

  @Test(
    "10,000 photos: the window opens on the first page, End goes to the last page and draws only its pictures, Page Up a page back; each key answered"
  )
  func tenThousandPhotos() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // The three photos, then 9,997 copies of them, older and older: item i (from 0) is red, green, blue in turn.
    let originals = try await Self.makePhotos(in: directory)
    let pictures = directory.path("Pictures")
    let oldest = Date(timeIntervalSinceNow: -3 * 60)
    for index in 3..<10_000 {
      let path = "\(pictures)/copy-\(index).jpg"
      try FileManager.default.copyItem(atPath: originals[index % 3], toPath: path)
      try FileManager.default.setAttributes(
        [.modificationDate: oldest.addingTimeInterval(-Double(index))], ofItemAtPath: path)
    }
    let browser = try await Browser(pictures: pictures, home: directory.url.path, count: 10_000)
    defer { Task { await browser.display.stop() } }
    _ = try await browser.screenshot {
      Self.isSelected($0, slot: 0)
        && $0.colourName(Self.tileWidth * 2 + Self.tileWidth / 2, Self.tileHeight / 2) == "blue"
    }
    // The last page holds items 9996-9999 (12 a page): four tiles, the fourth (9999, red) selected.
    var mark = browser.process.standardErrorSoFar.count
    try await browser.display.xdotool(["key", "End"])
    _ = try await browser.process.requireStandardErrorLine("the last item selected", from: mark) {
      $0 == "selected 10000: \(pictures)/copy-9999.jpg"
    }
    let colours = ["red", "green", "blue"]
    let last = try await browser.screenshot {
      Self.isSelected($0, slot: 3)
        && $0.colourName(Self.tileWidth * 3 + Self.tileWidth / 2, Self.tileHeight / 2) == colours[9999 % 3]
    }
    let lastPage = (0..<4).map { last.colourName($0 * Self.tileWidth + Self.tileWidth / 2, Self.tileHeight / 2) }
    #expect(lastPage == (9996..<10_000).map { colours[$0 % 3] }, "the last page's tiles")
    #expect(
      last.colourName(Self.tileWidth / 2, Self.tileHeight + Self.tileHeight / 2) == "black", "no fifth tile")
    // A page back: item 9988 (the same slot, 3, of the page before) is selected and the page drawn.
    mark = browser.process.standardErrorSoFar.count
    try await browser.display.xdotool(["key", "Page_Up"])
    _ = try await browser.process.requireStandardErrorLine("a page back", from: mark) {
      $0 == "selected 9988: \(pictures)/copy-9987.jpg"
    }
    let back = try await browser.screenshot {
      Self.isSelected($0, slot: 3)
        && $0.colourName(Self.tileWidth * 3 + Self.tileWidth / 2, Self.tileHeight * 2 + Self.tileHeight / 2)
          == colours[9995 % 3]
    }
    #expect(Self.isSelected(back, slot: 3) && !Self.isSelected(back, slot: 0))
    try await browser.display.xdotool(["key", "Escape"])
    let result = await browser.process.result()
    #expect(result.succeeded && result.outputLines.isEmpty, "\(result)")
  }

  // MARK: - Movies trimmed before they are picked (--allows-editing)

  /// A 4 s movie of a moving ball at 10 frames a second (H.264 at x264's defaults, B-frames and all, as
  /// phones and cameras write it; a key frame a second), the
  /// newest item of the library (in `home`'s Videos), and a photo in Pictures; the movie's path.
  static func makeMovie(in directory: TemporaryDirectory) async throws -> String {
    _ = try await makePhotos(in: directory)
    let videos = directory.path("Videos")
    try FileManager.default.createDirectory(atPath: videos, withIntermediateDirectories: true)
    let path = "\(videos)/ball.mp4"
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=40", "pattern=ball", "!",
        "video/x-raw,format=I420,width=320,height=240,framerate=10/1",
        "!", "x264enc", "key-int-max=10", "!", "mp4mux", "!", "filesink", "location=\(path)",
      ])
    try #require(made.status == 0, "\(made.output)")
    return path
  }

  /// The trim screen's timeline on a screenshot: its handles' centres and its playhead's (the bar runs
  /// from x 32 to 608 at y 356…366 of the 640 × 440 canvas).
  static func trimScreen(_ image: RGBImage) -> (handles: [Double], playhead: Double?) {
    let timeline = image.timeline(playheadRow: 361, handleRow: 348)
    return (timeline.handles, timeline.playhead)
  }

  /// The browser with `--allows-editing --max-duration maximumDuration` on ``makeMovie(in:)``'s library in
  /// `directory`, its temporary folder (`TMPDIR`, where cut movies go) `directory`'s `tmp`; with the
  /// movie's path and that folder.
  static func trimmingBrowser(in directory: TemporaryDirectory, maximumDuration: Int) async throws -> (
    browser: Browser, movie: String, temporary: String
  ) {
    let movie = try await makeMovie(in: directory)
    let temporary = directory.path("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let browser = try await Browser(
      pictures: directory.path("Pictures"), home: directory.url.path, count: 4,
      options: ["--allows-editing", "--max-duration", String(maximumDuration)], environment: ["TMPDIR": temporary])
    return (browser, movie, temporary)
  }

  /// Where time `seconds` of a `duration` s movie is on the trim screen's timeline (it runs from x 32 to 608).
  static func place(_ seconds: Double, of duration: Double) -> Double { 32 + 576 * seconds / duration }

  @Test(
    """
    --allows-editing: a picked movie goes to the trim screen, its handles at its start and at --max-duration; \
    the keys move the playhead and put the handles there; Return delivers the frames chosen, cut into a new \
    file in the temporary folder, and the library's movie is left as it was
    """)
  func trimPickedMovie() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (browser, movie, temporary) = try await Self.trimmingBrowser(in: directory, maximumDuration: 3)
    defer { Task { await browser.display.stop() } }
    let before = try FileManager.default.attributesOfItem(atPath: movie)
    let original = try #require(try await MediaInspector.streams(movie).first { $0.type == "video" })
    let duration = original.duration

    try await browser.key("Return")
    let opened = try await browser.screenshot { image in
      let handles = Self.trimScreen(image).handles
      return handles.count == 2 && abs(handles[0] - 32) <= 4 && abs(handles[1] - Self.place(3, of: duration)) <= 4
    }
    #expect(Self.trimScreen(opened).playhead.map { abs($0 - 32) <= 3 } == true, "the playhead at the first frame")
    // The playhead a second and two frames on (frame 12), [; a second and a frame more (frame 23), ].
    try await browser.key("Right", "period", "period", "bracketleft", "Right", "period", "bracketright")
    let trimmed = try await browser.screenshot { image in
      let handles = Self.trimScreen(image).handles
      return handles.count == 2 && abs(handles[0] - Self.place(1.2, of: duration)) <= 4
        && abs(handles[1] - Self.place(2.4, of: duration)) <= 4
    }
    #expect(Self.trimScreen(trimmed).playhead.map { abs($0 - Self.place(2.3, of: duration)) <= 3 } == true)

    try await browser.key("Return")
    let result = await browser.process.result()
    #expect(result.succeeded, "\(result)")
    let cut = try #require(result.outputLines.first, "\(result)")
    #expect(cut.hasPrefix("\(temporary)/ball.trimmed-") && cut.hasSuffix(".mp4"), "\(result)")
    let after = try FileManager.default.attributesOfItem(atPath: movie)
    #expect(
      after[.size] as? Int == before[.size] as? Int
        && after[.modificationDate] as? Date == before[.modificationDate] as? Date, "the library's movie is untouched")
    let video = try #require(try await MediaInspector.streams(cut).first { $0.type == "video" })
    #expect(video.packets == 12 && abs(video.duration - 1.2) <= 0.1, "frames 12 to 23: \(video)")
    // Each end is its chosen frame: the ball is elsewhere a frame before or after.
    for (end, source) in [(0, 12), (11, 23)] {
      var psnr: [Double] = []
      for candidate in source - 1...source + 1 {
        psnr += try await MediaInspector.psnr(of: cut, skipping: end, against: movie, from: candidate, count: 1)
      }
      #expect(psnr.count == 3 && psnr[1] >= 30 && psnr[1] > max(psnr[0], psnr[2]) + 3, "frame \(end): \(psnr)")
    }
  }

  @Test(
    "--allows-editing: Escape on the trim screen goes back to the grid; Return with the handles untouched delivers the first --max-duration seconds"
  )
  func trimScreenBackAndLimit() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (browser, movie, temporary) = try await Self.trimmingBrowser(in: directory, maximumDuration: 2)
    defer { Task { await browser.display.stop() } }
    let duration = try #require(try await MediaInspector.streams(movie).first { $0.type == "video" }).duration

    let onTrimScreen = { (image: RGBImage) in
      let handles = Self.trimScreen(image).handles
      return handles.count == 2 && abs(handles[1] - Self.place(2, of: duration)) <= 4
    }
    try await browser.key("Return")
    _ = try await browser.screenshot(showing: onTrimScreen)
    try await browser.key("Escape")
    let grid = try await browser.screenshot { Self.isSelected($0, slot: 0) && Self.trimScreen($0).handles.isEmpty }
    #expect(Self.isSelected(grid, slot: 0), "back on the grid, the movie selected")
    #expect(browser.process.standardErrorSoFar.contains("cancelled") == false, "Escape there cancels nothing")
    try await browser.key("Return")
    _ = try await browser.screenshot(showing: onTrimScreen)
    try await browser.key("Return")
    let result = await browser.process.result()
    let cut = try #require(result.outputLines.first, "\(result)")
    #expect(result.succeeded && cut.hasPrefix("\(temporary)/ball.trimmed-"), "\(result)")
    let video = try #require(try await MediaInspector.streams(cut).first { $0.type == "video" })
    #expect(video.packets == 20 && abs(video.duration - 2) <= 0.1, "the first 2 s: \(video)")
  }
}
