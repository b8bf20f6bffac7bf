import Foundation
import MediaInspection
import Testing

@Suite("hvtcam library", .timeLimit(.minutes(2)))
struct LibraryCommandTests {
  @Test("list, show and pick the photo library's photo and movie, newest first; a text file is left out")
  func browseAndPick() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let pictures = directory.path("Pictures")
    let videos = directory.path("Videos")
    let movie = "\(videos)/take.mp4"
    let photo = "\(pictures)/still.jpg"
    let recorded = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", movie])
    #expect(recorded.succeeded, "\(recorded)")
    let taken = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", photo])
    #expect(taken.succeeded, "\(taken)")
    try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: "\(pictures)/notes.jpg"))
    let environment = HVTCam.environment(setting: ["XDG_PICTURES_DIR": pictures, "XDG_VIDEOS_DIR": videos])
    let library = ["library", "--source", "photo-library"]

    let list = try await HVTCam.run(library + ["list"], environment: environment)
    #expect(list.succeeded && list.outputLines.count == 2, "\(list)")
    #expect(
      list.outputLines.first?.hasPrefix("1  image  640x480  ") == true
        && list.outputLines.first?.hasSuffix(photo) == true, "\(list)")
    #expect(
      list.outputLines.last.map { $0.hasPrefix("2  movie  640x480  1.0") && $0.contains(" s  1 sound  ") } == true,
      "\(list)")

    let shown = try await HVTCam.run(library + ["show", "2", "--json"], environment: environment)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any], "\(shown)")
    let item = try #require(document["item"] as? [String: Any], "\(shown)")
    #expect(
      document["version"] as? Int == 1 && item["path"] as? String == movie && item["mediaType"] as? String == "movie")
    #expect(item["audioStreams"] as? Int == 1 && (item["duration"] as? Double).map { abs($0 - 1) < 0.05 } == true)

    let thumbnail = directory.path("thumbnail.jpg")
    let picked = try await HVTCam.run(library + ["pick", "2", "--thumbnail", thumbnail], environment: environment)
    #expect(picked.succeeded && picked.outputLines == [movie], "\(picked)")
    #expect(picked.standardError.contains("thumbnail 320x240"), "\(picked)")
    let report = try await MediaInspector.discover(thumbnail)
    #expect(report.isJPEG && report.size == "320x240", "\(report)")
    // A thumbnail onto an existing file, or a device, is refused in words, and the file is left as it was.
    let before = try Data(contentsOf: URL(fileURLWithPath: thumbnail))
    for target in [thumbnail, "/dev/full"] {
      let refused = try await HVTCam.run(library + ["pick", "2", "--thumbnail", target], environment: environment)
      #expect(refused.status == 1 && refused.outputLines.isEmpty, "\(refused)")
      #expect(refused.standardError.contains("\(target) already exists and was not replaced"), "\(refused)")
      #expect(!refused.standardError.contains("NSCocoaErrorDomain"), "\(refused)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: thumbnail)) == before)
    let unwritable = directory.path("no-such-folder/thumbnail.jpg")
    let failed = try await HVTCam.run(library + ["pick", "2", "--thumbnail", unwritable], environment: environment)
    #expect(
      failed.status == 1
        && failed.standardError.contains("could not write \(unwritable): No such file or directory (errno 2)"),
      "\(failed)")

    // --media-types follows a picker's mediaTypes: only the photo, or only the movie, is listed and picked.
    for (types, expected) in [("image", photo), ("movie", movie)] {
      let only = try await HVTCam.run(library + ["list", "--media-types", types], environment: environment)
      #expect(only.succeeded && only.outputLines.count == 1, "\(only)")
      #expect(only.outputLines.first?.hasSuffix(expected) == true, "\(types): \(only)")
      let picked = try await HVTCam.run(library + ["pick", "1", "--media-types", types], environment: environment)
      #expect(picked.succeeded && picked.outputLines == [expected], "\(types): \(picked)")
    }
    let badTypes = try await HVTCam.run(library + ["list", "--media-types", "audio"], environment: environment)
    #expect(badTypes.status == 64 && badTypes.standardError.contains("--media-types audio"), "\(badTypes)")

    let missing = try await HVTCam.run(library + ["pick", "3"], environment: environment)
    #expect(missing.status == 64 && missing.standardError.contains("no item 3: the library has 2"), "\(missing)")
  }

  @Test("a name with a line break and a terminal escape is printed escaped by list, show and pick; --json exactly")
  func hostileNames() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let pictures = directory.path("Pictures")
    let name = "red\n\u{1b}[2J\u{1b}]0;owned\u{7}\\.jpg"
    let photo = "\(pictures)/\(name)"
    try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=64,height=48", "!", "jpegenc", "!", "filesink",
        "location=\(directory.path("plain.jpg"))",
      ])
    try #require(made.status == 0, "\(made.output)")
    try FileManager.default.moveItem(atPath: directory.path("plain.jpg"), toPath: photo)
    let environment = HVTCam.environment(
      setting: ["XDG_PICTURES_DIR": pictures, "XDG_VIDEOS_DIR": directory.path("Videos")])
    let library = ["library", "--source", "photo-library"]
    let shownName = #"red\n\e[2J\e]0;owned\x07\\.jpg"#
    for command in [["list"], ["show", "1"], ["pick", "1"]] {
      let result = try await HVTCam.run(library + command, environment: environment)
      #expect(result.succeeded && result.outputLines.count == 1, "\(command): \(result)")
      #expect(result.outputLines.first?.hasSuffix("\(pictures)/\(shownName)") == true, "\(command): \(result)")
      for control in ["\u{1b}", "\u{7}"] {
        #expect(!result.standardOutput.contains(control) && !result.standardError.contains(control), "\(command)")
      }
    }
    let json = try await HVTCam.run(library + ["list", "--json"], environment: environment)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any], "\(json)")
    let items = try #require(document["items"] as? [[String: Any]], "\(json)")
    #expect(items.first?["path"] as? String == photo, "\(json)")
  }

  @Test("list prints each item as it is read, and SIGINT during the scan of 300 movies ends it at the next item")
  func interruptedScan() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let videos = directory.path("Videos")
    try FileManager.default.createDirectory(atPath: videos, withIntermediateDirectories: true)
    let movie = directory.path("take.mp4")
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=3", "!", "video/x-raw,format=I420,width=64,height=48", "!", "x264enc", "!",
        "mp4mux",
        "!", "filesink", "location=\(movie)",
      ])
    try #require(made.status == 0, "\(made.output)")
    // Movies are read by GStreamer's discoverer, some tens of milliseconds each: the scan takes seconds.
    for index in 0..<300 { try FileManager.default.copyItem(atPath: movie, toPath: "\(videos)/take-\(index).mp4") }
    let listing = try HVTCam.start(
      ["library", "--source", "photo-library", "list"],
      environment: HVTCam.environment(setting: [
        "XDG_PICTURES_DIR": directory.path("Pictures"), "XDG_VIDEOS_DIR": videos,
      ]))
    let first = await listing.standardOutputLine { $0.hasPrefix("1  movie  64x48") }
    #expect(first != nil, "the first item is printed before the scan ends")
    listing.send(SIGINT)
    let result = await listing.result()
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.standardError.contains("interrupted by SIGINT after"), "\(result)")
    #expect((1..<300).contains(result.outputLines.count), "\(result.outputLines.count) of 300 items listed")
  }

  @Test("a 16000x12000 JPEG is listed from its header and picked with a thumbnail decoded at an eighth of its size")
  func hugePhoto() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let pictures = try Self.pictures(in: directory)
    try await Self.makePhoto(at: "\(pictures)/huge.jpg", width: 16000, height: 12000)
    let environment = Self.environment(pictures: pictures, in: directory)
    let library = ["library", "--source", "photo-library"]
    let listed = try await HVTCam.run(library + ["list"], environment: environment)
    #expect(listed.succeeded && listed.outputLines.first?.hasPrefix("1  image  16000x12000  ") == true, "\(listed)")
    let thumbnail = directory.path("thumbnail.jpg")
    let picked = try await HVTCam.run(library + ["pick", "1", "--thumbnail", thumbnail], environment: environment)
    #expect(picked.succeeded && picked.standardError.contains("thumbnail 320x240"), "\(picked)")
    // The SMPTE bars survive the scaled decode: white to the left, blue to the right, at the top.
    let image = try await RGBImage.decode(thumbnail, width: 320, height: 240)
    #expect([image.colourName(10, 40), image.colourName(310, 40)] == ["white", "blue"])
  }

  @Test(
    "progressive JPEGs (jpegtran): one of 640x480 is picked with its thumbnail; one of 16000x12000, whose decoding needs 549 MiB at any size, is listed and its pick refused in words"
  )
  func progressivePhotos() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let pictures = try Self.pictures(in: directory)
    for (name, width, height) in [("a-small", 640, 480), ("b-huge", 16000, 12000)] {
      let baseline = directory.path("\(name).jpg")
      try await Self.makePhoto(at: baseline, width: width, height: height)
      let made = try await MediaInspector.run(
        "jpegtran", ["-progressive", "-copy", "all", "-outfile", "\(pictures)/\(name).jpg", baseline])
      try #require(made.status == 0, "\(made.output)")
    }
    let environment = Self.environment(pictures: pictures, in: directory)
    let library = ["library", "--source", "photo-library"]
    let listed = try await HVTCam.run(library + ["list"], environment: environment)
    #expect(listed.succeeded && listed.outputLines.count == 2, "\(listed)")
    // Newest first: the numbers the listing gave.
    func number(of name: String) throws -> String {
      let line = try #require(listed.outputLines.first { $0.hasSuffix("/\(name).jpg") }, "\(listed)")
      return String(line.prefix { $0 != " " })
    }
    let thumbnail = directory.path("small.jpg")
    let small = try await HVTCam.run(
      library + ["pick", try number(of: "a-small"), "--thumbnail", thumbnail], environment: environment)
    #expect(small.succeeded && small.standardError.contains("thumbnail 320x240"), "\(small)")
    let image = try await RGBImage.decode(thumbnail, width: 320, height: 240)
    #expect([image.colourName(10, 40), image.colourName(310, 40)] == ["white", "blue"])
    let huge = try await HVTCam.run(library + ["pick", try number(of: "b-huge")], environment: environment)
    #expect(
      huge.status == 1 && huge.standardError.contains("b-huge.jpg")
        && huge.standardError.contains("a progressive JPEG of 16000x12000 needs 549 MiB to decode at any size"),
      "\(huge)")
  }

  /// The `Pictures` folder of a library in `directory`, made.
  private static func pictures(in directory: TemporaryDirectory) throws -> String {
    let pictures = directory.path("Pictures")
    try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
    return pictures
  }

  /// `hvtcam`'s environment with the library's folders in `directory`.
  private static func environment(pictures: String, in directory: TemporaryDirectory) -> [String: String] {
    HVTCam.environment(setting: ["XDG_PICTURES_DIR": pictures, "XDG_VIDEOS_DIR": directory.path("Videos")])
  }

  /// Writes a baseline JPEG of SMPTE bars, `width` × `height`, by `videotestsrc ! jpegenc`.
  private static func makePhoto(at path: String, width: Int, height: Int) async throws {
    let made = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,format=I420,width=\(width),height=\(height)", "!",
        "jpegenc", "!", "filesink", "location=\(path)",
      ])
    try #require(made.status == 0, "\(made.output)")
  }
}
