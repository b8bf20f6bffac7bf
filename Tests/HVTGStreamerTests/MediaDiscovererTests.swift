import Foundation
import MediaInspection
import Testing

@testable import HVTGStreamer

/// `GstDiscoverer` on files written here by `gst-launch-1.0`: a movie, an image, and what is neither.
@Suite("MediaDiscoverer", .timeLimit(.minutes(1)))
struct MediaDiscovererTests {
  /// Runs a gst-launch-1.0 pipeline to its end.
  func launch(_ words: [String]) async throws {
    let result = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), ["-q"] + words)
    try #require(result.succeeded, "gst-launch-1.0 \(words): \(result)")
  }

  @Test("a Matroska movie is a movie with its size and duration; a JPEG is an image; a text file is refused")
  func kinds() async throws {
    try await TemporaryDirectory.with { directory in
      let folder = directory.url
      let movie = folder.appendingPathComponent("movie.mkv")
      try await launch([
        "videotestsrc", "num-buffers=30", "!", "video/x-raw,width=160,height=120,framerate=30/1", "!",
        "jpegenc", "!", "matroskamux", "!", "filesink", "location=\(movie.path)",
      ])
      let found = try MediaDiscoverer.discover(movie)
      #expect(found.isMovie && !found.isImage && found.width == 160 && found.height == 120, "\(found)")
      #expect(abs((found.duration ?? 0) - 1) < 0.05, "\(found)")

      let image = folder.appendingPathComponent("image.jpg")
      try await launch(["videotestsrc", "num-buffers=1", "!", "jpegenc", "!", "filesink", "location=\(image.path)"])
      let still = try MediaDiscoverer.discover(image)
      #expect(still.isImage && !still.isMovie, "\(still)")

      let text = folder.appendingPathComponent("text.mp4")
      try Data("not a movie\n".utf8).write(to: text)
      #expect(throws: GStreamerError.self) { try MediaDiscoverer.discover(text) }
      #expect(throws: GStreamerError.self) { try MediaDiscoverer.discover(folder.appendingPathComponent("none.mp4")) }
    }
  }
}
