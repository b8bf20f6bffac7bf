import Foundation
import MediaInspection
import Testing

/// What `hvtcam photo` and `hvtcam record` write into their files besides the picture, read back by
/// exiftool and ffprobe (not by HVTCamera's own code).
@Suite("metadata in the files", .timeLimit(.minutes(2)))
struct MetadataTests {
  /// St. John's, Newfoundland: UTC−03:30 in December, an offset no rounding to whole hours hides.
  static let environment = HVTCam.environment(setting: ["TZ": "America/St_Johns"])
  static let tagging = [
    "--location", "-33.856784,151.215297,12.5,270", "--title", "Over the bridge", "--artist", "A. Person",
    "--comment", "Zoë's test & <more>", "--copyright", "© 2026 A. Person",
  ]

  /// exiftool's reading of a file: every tag by group (`-G1`), numbers as numbers (`-n`).
  func exiftool(_ path: String) async throws -> [String: Any] {
    let result = try await Subprocess.run(tool: "exiftool", ["-j", "-n", "-G1", "-a", path])
    try #require(result.succeeded, "\(result)")
    let list = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
    return try #require(list?.first)
  }

  /// The local time `date` shows at UTC−03:30, in EXIF's syntax.
  func stJohns(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "America/St_Johns")
    formatter.dateFormat = "yyyy:MM:dd HH:mm"
    return formatter.string(from: date)
  }

  @Test("a photo's EXIF and XMP: local time with UTC offset and sub-seconds, camera, GPS, flash, the app's tags")
  func photo() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("tagged.jpg")
    let before = Date()
    let result = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + Self.tagging + ["-o", path], environment: Self.environment)
    #expect(result.succeeded, "\(result)")
    let after = Date()
    let tags = try await exiftool(path)
    let validation = try await Subprocess.run(tool: "exiftool", ["-validate", "-warning", "-a", path])
    #expect(
      validation.standardOutput.contains("Validate") && validation.standardOutput.contains(": OK"), "\(validation)")

    #expect(tags["ExifIFD:OffsetTimeOriginal"] as? String == "-03:30", "\(tags)")
    #expect(tags["ExifIFD:OffsetTime"] as? String == "-03:30")
    let subSeconds = "\(tags["ExifIFD:SubSecTimeOriginal"] ?? "")"
    #expect(subSeconds.count == 3 && Int(subSeconds) != nil, "\(tags)")
    let original = tags["ExifIFD:DateTimeOriginal"] as? String ?? ""
    #expect(
      [stJohns(before), stJohns(after)].contains(String(original.prefix(16))),
      "\(original) should be the local time between \(before) and \(after)")
    #expect((tags["XMP-exif:DateTimeOriginal"] as? String)?.hasSuffix(".\(subSeconds)-03:30") == true, "\(tags)")
    #expect(tags["IFD0:Make"] as? String == "HVTCamera")
    #expect((tags["IFD0:Model"] as? String)?.hasPrefix("Simulated rear camera") == true, "\(tags)")
    #expect((tags["IFD0:Software"] as? String)?.hasPrefix("HVTCamera") == true)
    #expect(tags["IFD0:Orientation"] as? Int == 1)
    #expect(tags["ExifIFD:ExifImageWidth"] as? Int == 640 && tags["ExifIFD:ExifImageHeight"] as? Int == 480)
    // The simulated rear camera has a flash, in auto mode: 0x18 did not fire, 0x19 fired.
    #expect([0x18, 0x19].contains(tags["ExifIFD:Flash"] as? Int ?? -1), "\(tags)")

    #expect(tags["GPS:GPSLatitudeRef"] as? String == "S" && tags["GPS:GPSLongitudeRef"] as? String == "E")
    #expect(abs((tags["GPS:GPSLatitude"] as? Double ?? 0) - 33.856784) < 1e-6, "\(tags)")
    #expect(abs((tags["GPS:GPSLongitude"] as? Double ?? 0) - 151.215297) < 1e-6, "\(tags)")
    #expect(tags["GPS:GPSAltitude"] as? Double == 12.5 && tags["GPS:GPSAltitudeRef"] as? Int == 0)
    #expect(tags["GPS:GPSImgDirection"] as? Int == 270 && tags["GPS:GPSImgDirectionRef"] as? String == "T")
    #expect(abs((tags["XMP-exif:GPSLatitude"] as? Double ?? 0) + 33.856784) < 1e-6, "\(tags)")

    #expect(tags["IFD0:ImageDescription"] as? String == "Over the bridge")
    #expect(tags["IFD0:Artist"] as? String == "A. Person")
    #expect(tags["IFD0:Copyright"] as? String == "© 2026 A. Person")
    #expect(tags["ExifIFD:UserComment"] as? String == "Zoë's test & <more>", "\(tags)")
    #expect(tags["XMP-dc:Title"] as? String == "Over the bridge")
    #expect(tags["XMP-dc:Description"] as? String == "Zoë's test & <more>")
    #expect(tags["XMP-dc:Creator"] as? String == "A. Person")
    #expect(tags["XMP-dc:Rights"] as? String == "© 2026 A. Person")
  }

  @Test("without a location or tags a photo has no GPS and no tags, but still its date, offset and camera")
  func untaggedPhoto() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("plain.jpg")
    let result = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", path], environment: Self.environment)
    #expect(result.succeeded, "\(result)")
    let tags = try await exiftool(path)
    #expect(tags["ExifIFD:OffsetTimeOriginal"] as? String == "-03:30", "\(tags)")
    #expect(tags["IFD0:Make"] as? String == "HVTCamera")
    let unexpected = tags.keys.filter { $0.hasPrefix("GPS:") || $0.contains("Artist") || $0.hasPrefix("XMP-dc:") }
    #expect(unexpected.isEmpty, "\(unexpected)")
  }

  @Test(
    "an MP4 movie's tags (ffprobe) and XMP (exiftool): title, artist, comment, copyright, ISO 6709 location, GPS, date with offset"
  )
  func movie() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("tagged.mp4")
    let result = try await HVTCam.run(
      ["record"] + HVTCam.recording + Self.tagging + ["--max-duration", "1", "-o", path], environment: Self.environment)
    #expect(result.succeeded, "\(result)")
    let probe = try await Subprocess.run(
      tool: "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
    let json = try JSONSerialization.jsonObject(with: Data(probe.standardOutput.utf8)) as? [String: Any]
    let format = try #require((json?["format"] as? [String: Any])?["tags"] as? [String: String], "\(probe)")
    #expect(format["title"] == "Over the bridge" && format["artist"] == "A. Person", "\(format)")
    #expect(format["comment"] == "Zoë's test & <more>" && format["copyright"] == "© 2026 A. Person", "\(format)")
    #expect(format["encoder"]?.hasPrefix("HVTCamera") == true && format["creation_time"] != nil, "\(format)")
    // The ©xyz item phones write.
    #expect(format["location"] == "-33.856784+151.215297+12.5/", "\(format)")

    let tags = try await exiftool(path)
    #expect(abs((tags["XMP-exif:GPSLatitude"] as? Double ?? 0) + 33.856784) < 1e-6, "\(tags)")
    #expect(abs((tags["XMP-exif:GPSLongitude"] as? Double ?? 0) - 151.215297) < 1e-6, "\(tags)")
    #expect(tags["XMP-exif:GPSAltitude"] as? Double == 12.5, "\(tags)")
    #expect((tags["ItemList:GPSCoordinates"] as? String)?.hasPrefix("-33.856784 151.215297") == true, "\(tags)")
    #expect((tags["XMP-exif:DateTimeOriginal"] as? String)?.hasSuffix("-03:30") == true, "\(tags)")
    #expect(tags["XMP-tiff:Make"] as? String == "HVTCamera", "\(tags)")
    #expect((tags["XMP-tiff:Model"] as? String)?.hasPrefix("Simulated rear camera") == true, "\(tags)")
  }

  @Test(
    "a WebM movie's tags (ffprobe) are the app's, as typed, not quoted; it has a date and its writing app (exiftool)")
  func webMMovie() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("tagged.webm")
    let result = try await HVTCam.run(
      ["record", "--preset", "webm-vp8"] + HVTCam.recording + Self.tagging + ["--max-duration", "1", "-o", path],
      environment: Self.environment)
    #expect(result.succeeded, "\(result)")
    let probe = try await Subprocess.run(
      tool: "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
    let json = try JSONSerialization.jsonObject(with: Data(probe.standardOutput.utf8)) as? [String: Any]
    let format = try #require((json?["format"] as? [String: Any])?["tags"] as? [String: String], "\(probe)")
    // GStreamer 1.22's matroskamux alone would write `"Over\ the\ bridge"` and `"Zo\303\253\'s…"`.
    #expect(format["TITLE"] == "Over the bridge" && format["ARTIST"] == "A. Person", "\(format)")
    #expect(format["COMMENTS"] == "Zoë's test & <more>" && format["COPYRIGHT"] == "© 2026 A. Person", "\(format)")

    let tags = try await exiftool(path)
    #expect((tags["Matroska:WritingApp"] as? String)?.hasPrefix("HVTCamera (GStreamer 1.") == true, "\(tags)")
    #expect(tags["Matroska:DateTimeOriginal"] != nil && tags["Matroska:GPSCoordinates"] == nil, "\(tags)")
  }

  @Test("--location out of range or malformed is a usage error naming the option")
  func badLocation() async throws {
    for value in ["91,0", "0,181", "1,2,3,360", "north,east", "1"] {
      let result = try await HVTCam.run(["photo"] + HVTCam.simulated + ["--location", value, "-o", "/tmp/never.jpg"])
      #expect(result.status == 64 && result.standardError.contains("--location"), "\(value): \(result)")
    }
  }
}
