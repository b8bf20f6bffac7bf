import Foundation
import MediaInspection
import Testing

@testable import HVTGStreamer

/// `GstTagList` values, and a muxer that writes them, read back by ffprobe (FFmpeg, not GStreamer).
@Suite("TagList", .timeLimit(.minutes(1)))
struct TagListTests {
  @Test("text, numbers and a date with its UTC offset and microseconds read back as they were set")
  func values() {
    let tags = TagList()
    #expect(tags.isEmpty)
    tags.set(.title, "Über «the» bridge")
    tags.set(.title, "Over the bridge")
    tags.set(.latitude, -33.856784)
    // 2026-12-02 09:11:12.345 UTC, seen from UTC+05:30.
    let moment = Date(timeIntervalSince1970: 1_796_202_672.345)
    tags.set(.dateTime, moment, utcOffset: 19_800)
    #expect(!tags.isEmpty)
    #expect(tags.string(.title) == "Over the bridge")
    #expect(tags.double(.latitude) == -33.856784)
    #expect(tags.string(.artist) == nil && tags.double(.longitude) == nil && tags.date(.title) == nil)
    let written = tags.date(.dateTime)
    #expect(written?.utcOffset == 19_800, "\(tags)")
    #expect(abs((written?.date.timeIntervalSince(moment) ?? 1)) < 1e-6, "\(tags)")
    #expect(tags.description.contains("2026-12-02T14:41:12.345"), "\(tags)")
  }

  @Test("mp4mux writes the tags merged into it; an element that writes none refuses them")
  func muxerWritesThem() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("tags.mp4")
    let pipeline = try Pipeline(
      launch: "videotestsrc num-buffers=10 ! x264enc ! mp4mux name=mux ! filesink location=\"\(file.path)\"")
    let muxer = try #require(pipeline.element(named: "mux"))
    let tags = TagList()
    tags.set(.title, "Over the bridge")
    tags.set(.artist, "A. Person")
    tags.set(.copyright, "© 2026 A. Person")
    #expect(muxer.mergeTags(tags))
    #expect(muxer.mergedTags?.string(.artist) == "A. Person")
    #expect(!(try Element(factory: "identity")).mergeTags(tags))
    let seen = await playToEnd(pipeline)
    guard case .endOfStream = seen.last else {
      Issue.record("no end of stream: \(seen)")
      return
    }

    let output = try await MediaInspector.standardOutput(
      of: "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", file.path])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let written = try #require((json["format"] as? [String: Any])?["tags"] as? [String: String])
    #expect(written["title"] == "Over the bridge" && written["artist"] == "A. Person", "\(written)")
    #expect(written["copyright"] == "© 2026 A. Person", "\(written)")
  }
}
