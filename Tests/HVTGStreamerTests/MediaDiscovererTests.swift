import Foundation
import Testing

@testable import HVTGStreamer

/// `GstDiscoverer` on files written here by `gst-launch-1.0`: a movie, an image, and what is neither.
@Suite("MediaDiscoverer", .timeLimit(.minutes(1)))
struct MediaDiscovererTests {
  /// A fresh folder, removed after `body`.
  func inFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hvt-discoverer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
  }

  /// Runs a gst-launch-1.0 pipeline to its end.
  func launch(_ words: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
    process.arguments = ["-q"] + words
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "gst-launch-1.0 \(words)")
  }

  @Test("a Matroska movie is a movie with its size and duration; a JPEG is an image; a text file is refused")
  func kinds() throws {
    try inFolder { folder in
      let movie = folder.appendingPathComponent("movie.mkv")
      try launch([
        "videotestsrc", "num-buffers=30", "!", "video/x-raw,width=160,height=120,framerate=30/1", "!",
        "jpegenc", "!", "matroskamux", "!", "filesink", "location=\(movie.path)",
      ])
      let found = try MediaDiscoverer.discover(movie)
      #expect(found.isMovie && !found.isImage && found.width == 160 && found.height == 120, "\(found)")
      #expect(abs((found.duration ?? 0) - 1) < 0.05, "\(found)")

      let image = folder.appendingPathComponent("image.jpg")
      try launch(["videotestsrc", "num-buffers=1", "!", "jpegenc", "!", "filesink", "location=\(image.path)"])
      let still = try MediaDiscoverer.discover(image)
      #expect(still.isImage && !still.isMovie, "\(still)")

      let text = folder.appendingPathComponent("text.mp4")
      try Data("not a movie\n".utf8).write(to: text)
      #expect(throws: GStreamerError.self) { try MediaDiscoverer.discover(text) }
      #expect(throws: GStreamerError.self) { try MediaDiscoverer.discover(folder.appendingPathComponent("none.mp4")) }
    }
  }
}
