import Foundation
import MediaInspection
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

/// The EXIF and XMP a photo carries, as the library writes and mirrors them; the files' fields are read by
/// exiftool in hvtcamTests' `MetadataTests`.
@Suite("Metadata", .timeLimit(.minutes(2)))
struct MetadataTests {
  @Test("segments go after the JFIF APP0 segment; anything not a JPEG, or a payload over 64 KiB, is refused")
  func segments() throws {
    let jfif = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 0xFF, 0xD9])
    let tagged = try #require(JPEGSegments.inserting(app1: [Data([1, 2])], into: jfif))
    #expect(
      [UInt8](tagged) == [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 0xFF, 0xE1, 0x00, 0x04, 1, 2, 0xFF, 0xD9])
    let bare = Data([0xFF, 0xD8, 0xFF, 0xD9])
    #expect(
      JPEGSegments.inserting(app1: [Data([7])], into: bare).map([UInt8].init) == [
        0xFF, 0xD8, 0xFF, 0xE1, 0, 3, 7, 0xFF, 0xD9,
      ])
    #expect(JPEGSegments.inserting(app1: [], into: Data([0x89, 0x50, 0x4E, 0x47])) == nil, "a PNG")
    #expect(JPEGSegments.inserting(app1: [Data(count: 65_534)], into: bare) == nil)
  }

  @Test("long tags are cut at a character boundary; empty ones are dropped; an invalid location is not written")
  func limits() {
    let long = String(repeating: "é", count: 600)  // 1200 UTF-8 bytes
    let written = HVTMediaTags(title: long, comment: "", artist: "A").written
    #expect(written.title?.utf8.count == 1024 && written.title?.count == 512)
    #expect(written.comment == nil && written.artist == "A" && written.copyright == nil)
    #expect(!HVTLocation(latitude: 91, longitude: 0).isValid && !HVTLocation(latitude: .nan, longitude: 0).isValid)
    #expect(!HVTLocation(latitude: 0, longitude: 0, direction: 360).isValid)
    #expect(
      HVTLocation(latitude: -33.856784, longitude: 151.215297, altitude: 12.5).iso6709 == "-33.856784+151.215297+12.5/")
  }

  @Test("a photo's metadata mirrors the location, tags and UTC offset written; a bad location is left out")
  func mirrored() async throws {
    let camera = try TestCamera()
    camera.controller.mediaTags = HVTMediaTags(title: "Bridge", comment: "")
    camera.controller.location = HVTLocation(latitude: 48.8583, longitude: 2.2945)
    camera.controller.takePicture()
    let first = try await camera.delegate.nextCapture(.image)
    let metadata = try #require(first.info[.mediaMetadata] as? HVTMediaMetadata)
    #expect(metadata.location == HVTLocation(latitude: 48.8583, longitude: 2.2945))
    #expect(metadata.tags == HVTMediaTags(title: "Bridge"))
    #expect(metadata.utcOffset == TimeZone.current.secondsFromGMT(for: metadata.captureDate))
    #expect(
      metadata.configuration.deviceManufacturer == "HVTCamera" && metadata.software?.hasPrefix("HVTCamera") == true)

    camera.controller.location = HVTLocation(latitude: 100, longitude: 0)
    camera.controller.takePicture()
    let second = try await camera.delegate.nextCapture(.image)
    #expect((second.info[.mediaMetadata] as? HVTMediaMetadata)?.location == nil)
  }

  @Test("a movie's date as written (XMP exif:DateTimeOriginal, read by exiftool, to the microsecond) is its metadata's")
  func movieDate() async throws {
    let camera = try TestCamera(mode: .video)
    camera.controller.mediaTags = HVTMediaTags(title: "Dated")
    let movie = try await camera.controller.recordMovie(maximumDuration: 0.5)
    let read = try await MediaInspector.run(
      "exiftool", ["-s3", "-XMP-exif:DateTimeOriginal", movie.url.path])
    // `2026:12:03 13:26:21.834491Z` or `…+01:00`: the second, its fraction, the offset.
    let text = read.output.trimmingCharacters(in: .whitespacesAndNewlines)
    let written = try #require(Self.exifDate(text), "\(read)")
    #expect(
      abs(written.timeIntervalSince(movie.metadata.captureDate)) < 1e-5, "\(text) vs \(movie.metadata.captureDate)")
  }

  @Test("a WebM movie's metadata mirrors what Matroska takes: the app's tags, a date in UTC, no location")
  func webMMetadata() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = try HVTPreset.named("webm-vp8")
    camera.controller.mediaTags = HVTMediaTags(title: "Dated", artist: "A. Person")
    camera.controller.location = HVTLocation(latitude: 48.8583, longitude: 2.2945)
    try await camera.controller.presentAndWait()
    let movie = try await camera.controller.recordMovie(maximumDuration: 0.5)
    #expect(movie.metadata.tags == HVTMediaTags(title: "Dated", artist: "A. Person"))
    #expect(movie.metadata.utcOffset == 0 && movie.metadata.location == nil, "\(movie.metadata)")
    let read = try await MediaInspector.run("exiftool", ["-s3", "-Matroska:DateTimeOriginal", movie.url.path])
    // `2026:12:04 04:04:54.803000092506409Z`: Matroska's nanoseconds, in UTC.
    let text = read.output.trimmingCharacters(in: .whitespacesAndNewlines)
    let written = try #require(Self.exifDate(text), "\(read)")
    // The first frame's moment, as the metadata says, not the muxer's start (the encoder's latency later).
    #expect(
      abs(written.timeIntervalSince(movie.metadata.captureDate)) < 1e-5, "\(text) vs \(movie.metadata.captureDate)")
  }

  /// A date as exiftool prints it, `2026:12:04 04:04:54.803000092506409Z` or `…54.834491+01:00`, with every
  /// digit of its fraction: `DateFormatter` keeps milliseconds only, truncated (a date a microsecond
  /// before a millisecond's end read 1.0003 ms early once, in a CI run).
  static func exifDate(_ text: String) -> Date? {
    guard let match = text.wholeMatch(of: #/(\d{4}:\d\d:\d\d \d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)/#) else {
      return nil
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy:MM:dd HH:mm:ssXXXXX"
    guard let second = formatter.date(from: "\(match.1)\(match.3)") else { return nil }
    return second.addingTimeInterval(match.2.flatMap { Double("0\($0)") } ?? 0)
  }
}

/// Matroska tag text as GStreamer 1.22's `matroskamux` quotes it, and in a real file.
@Suite("Matroska tag strings")
struct MatroskaTagStringsTests {
  @Test("gst_value_serialize's quoting is undone: escaped characters, octal bytes; text not quoted is left alone")
  func unwrapping() {
    func unwrapped(_ text: String) -> String? {
      MatroskaTagStrings.unwrapped(Array(text.utf8) + [0, 0]).map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(unwrapped(#""My\ title""#) == "My title")
    #expect(unwrapped(#""\302\251\ 2026\ \(c\)""#) == "© 2026 (c)")
    #expect(unwrapped(#""\"quoted\"\\""#) == #""quoted"\"#)
    #expect(unwrapped("plain") == nil && unwrapped(#"""#) == nil && unwrapped("") == nil)
  }

  @Test("a WebM file's quoted tags are rewritten in place; the file keeps its size and plays to its end")
  func mendsFile() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("tags.webm").path
    let written = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=10", "!", "vp8enc", "!", "taginject",
        #"tags="title=\"My title\",artist=\"Zoë\",comment=plain""#, "!", "webmmux", "!", "filesink", "location=\(path)",
      ])
    try #require(written.status == 0, "\(written.output)")
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(MatroskaTagStrings.unquote(in: URL(fileURLWithPath: path)) == 2)
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
    let probe = try await MediaInspector.run(
      "ffprobe", ["-v", "error", "-show_entries", "stream_tags", "-of", "default=nw=1", path])
    #expect(probe.output.contains("TAG:TITLE=My title") && probe.output.contains("TAG:ARTIST=Zoë"), "\(probe.output)")
    #expect(probe.output.contains("TAG:COMMENTS=plain"), "\(probe.output)")
    #expect(try await MediaInspector.discover(path).duration ?? 0 > 0.3)
    #expect(MatroskaTagStrings.unquote(in: URL(fileURLWithPath: path)) == 0, "nothing is left to mend")
  }
}
