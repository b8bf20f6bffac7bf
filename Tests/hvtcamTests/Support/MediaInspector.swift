import Foundation

/// Reads media files with GStreamer's own command-line tools, in separate processes: an independent check
/// of what `hvtcam` wrote.
enum MediaInspector {
  /// What `gst-discoverer-1.0` says about a file.
  struct Discovery: Sendable, CustomStringConvertible {
    /// `Duration:` in seconds.
    var duration: Double?
    /// `Width:` of the first video stream.
    var width: Int?
    /// `Height:` of the first video stream.
    var height: Int?
    /// The first video stream's description, e.g. `H.264 (High Profile)` or `JPEG`.
    var codec: String?
    /// Whether the discoverer reported an error.
    var failed: Bool
    /// The discoverer's whole output.
    var output: String

    var isH264: Bool { codec?.hasPrefix("H.264") ?? false }
    var isJPEG: Bool { codec == "JPEG" }
    var size: String { "\(width.map(String.init) ?? "?")x\(height.map(String.init) ?? "?")" }
    var description: String { output }
  }

  /// Runs `gst-discoverer-1.0 PATH` and parses Duration, Width, Height and the video stream's codec.
  static func discover(_ path: String) async throws -> Discovery {
    let result = try await Subprocess.run(tool: "gst-discoverer-1.0", [path])
    let output = result.standardOutput + result.standardError
    var discovery = Discovery(
      failed: !result.succeeded || output.contains("An error was encountered"), output: output)
    for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if discovery.duration == nil, line.hasPrefix("Duration: ") {
        discovery.duration = seconds(String(line.dropFirst("Duration: ".count)))
      } else if discovery.width == nil, line.hasPrefix("Width: ") {
        discovery.width = Int(line.dropFirst("Width: ".count))
      } else if discovery.height == nil, line.hasPrefix("Height: ") {
        discovery.height = Int(line.dropFirst("Height: ".count))
      } else if discovery.codec == nil, let match = line.wholeMatch(of: #/video(?:\(image\))? #\d+: (.+)/#) {
        discovery.codec = String(match.1)
      }
    }
    return discovery
  }

  /// `H:MM:SS.nnnnnnnnn` in seconds.
  static func seconds(_ clock: String) -> Double? {
    let parts = clock.split(separator: ":").compactMap { Double($0) }
    guard parts.count == 3 else { return nil }
    return parts[0] * 3600 + parts[1] * 60 + parts[2]
  }

  /// What `qtdemux` reads from an MP4.
  struct FrameCount: Sendable {
    /// Buffers (H.264 access units, one per frame) that reached the sink.
    var frames: Int
    /// Whether `gst-launch-1.0` ended without an error (a truncated file may end with one).
    var clean: Bool
    /// The tool's output.
    var output: String
  }

  /// Counts the frames of an H.264 MP4: `gst-launch-1.0 -v filesrc location=… ! qtdemux ! h264parse !
  /// fakesink silent=false`, one `chain` line per buffer. The file is reached through a symbolic link with
  /// a plain name, so that any path works in the `location=` word.
  static func frameCount(_ path: String) async throws -> FrameCount {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let link = directory.path("movie.mp4")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let result = try await Subprocess.run(
      tool: "gst-launch-1.0",
      ["-v", "filesrc", "location=\(link)", "!", "qtdemux", "!", "h264parse", "!", "fakesink", "silent=false"])
    let frames = result.outputLines.filter { $0.contains("last-message = chain") }.count
    return FrameCount(frames: frames, clean: result.succeeded, output: result.description)
  }
}
