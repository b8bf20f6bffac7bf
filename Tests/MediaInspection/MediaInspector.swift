import Foundation

/// Reads media files with GStreamer's own command-line tools, each in a separate process: the tests'
/// independent check of what the engine wrote (never the engine's own code).
public enum MediaInspector {
  /// What `gst-discoverer-1.0` says about a file.
  public struct Discovery: Sendable, CustomStringConvertible {
    /// `Duration:` in seconds.
    public var duration: Double?
    /// `Width:` of the first video stream.
    public var width: Int?
    /// `Height:` of the first video stream.
    public var height: Int?
    /// The first video stream's description, e.g. `H.264 (High Profile)` or `JPEG`.
    public var codec: String?
    /// Whether the discoverer failed or reported an error.
    public var failed: Bool
    /// The discoverer's whole output.
    public var output: String

    /// Whether the video stream is H.264.
    public var isH264: Bool { codec?.hasPrefix("H.264") ?? false }
    /// Whether the file is a JPEG image.
    public var isJPEG: Bool { codec == "JPEG" }
    /// `WIDTHxHEIGHT`, with `?` for what is missing.
    public var size: String { "\(width.map(String.init) ?? "?")x\(height.map(String.init) ?? "?")" }
    /// The discoverer's output.
    public var description: String { output }
  }

  /// Runs `gst-discoverer-1.0 PATH` and parses Duration, Width, Height and the video stream's codec.
  public static func discover(_ path: String) async throws -> Discovery {
    let result = try await run("gst-discoverer-1.0", [path])
    var discovery = Discovery(
      failed: result.status != 0 || result.output.contains("An error was encountered"), output: result.output)
    let videoStream = #/video(?:\(image\))? #\d+: (.+)/#
    for line in result.output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if discovery.duration == nil, line.hasPrefix("Duration: ") {
        discovery.duration = seconds(String(line.dropFirst("Duration: ".count)))
      } else if discovery.width == nil, line.hasPrefix("Width: ") {
        discovery.width = Int(line.dropFirst("Width: ".count))
      } else if discovery.height == nil, line.hasPrefix("Height: ") {
        discovery.height = Int(line.dropFirst("Height: ".count))
      } else if discovery.codec == nil, let match = line.wholeMatch(of: videoStream) {
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
  public struct FrameCount: Sendable {
    /// Buffers (H.264 access units, one per frame) that reached the sink.
    public var frames: Int
    /// Whether `gst-launch-1.0` ended without an error (a truncated file may end with one).
    public var clean: Bool
    /// The tool's output.
    public var output: String
  }

  /// Counts the frames of an H.264 MP4: `gst-launch-1.0 -v filesrc location=… ! qtdemux ! h264parse !
  /// fakesink silent=false`, one `chain` message per buffer. The file is reached through a symbolic link
  /// with a plain name, so that any path fits in the `location=` word.
  public static func frameCount(_ path: String) async throws -> FrameCount {
    try await withPlainLink(to: path, named: "movie.mp4") { link in
      let result = try await run(
        "gst-launch-1.0",
        ["-v", "filesrc", "location=\(link)", "!", "qtdemux", "!", "h264parse", "!", "fakesink", "silent=false"])
      let frames = result.output.split(separator: "\n").filter { $0.contains("last-message = chain") }.count
      return FrameCount(frames: frames, clean: result.status == 0, output: result.output)
    }
  }

  /// The mean luma (0…1) of a JPEG, decoded by `jpegdec` to 8-bit grey.
  public static func meanLuma(ofJPEG path: String) async throws -> Double {
    try await withPlainLink(to: path, named: "photo.jpg") { link in
      let raw = URL(fileURLWithPath: link).deletingLastPathComponent().appendingPathComponent("photo.gray")
      let result = try await run(
        "gst-launch-1.0",
        [
          "-q", "filesrc", "location=\(link)", "!", "jpegdec", "!", "videoconvert", "!", "video/x-raw,format=GRAY8",
          "!", "filesink", "location=\(raw.path)",
        ])
      return try meanLuma(ofGrey: raw, written: result)
    }
  }

  /// The mean luma (0…1) of a movie's frame at `seconds`, decoded by FFmpeg to 8-bit grey.
  public static func meanLuma(ofMovie path: String, at seconds: Double) async throws -> Double {
    try await withPlainLink(to: path, named: "movie.\(URL(fileURLWithPath: path).pathExtension)") { link in
      let raw = URL(fileURLWithPath: link).deletingLastPathComponent().appendingPathComponent("frame.gray")
      let result = try await run(
        "ffmpeg",
        [
          "-v", "error", "-y", "-ss", String(seconds), "-i", link, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt",
          "gray", raw.path,
        ])
      return try meanLuma(ofGrey: raw, written: result)
    }
  }

  /// The mean (0…1) of the 8-bit grey pixels a tool wrote to `raw`; the tool's output when it wrote none.
  private static func meanLuma(ofGrey raw: URL, written result: (status: Int32, output: String)) throws -> Double {
    let bytes = try Data(contentsOf: raw)
    guard result.status == 0, !bytes.isEmpty else { throw InspectionError(result.output) }
    return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count * 255)
  }

  /// Runs a tool found on `PATH` and returns its exit status and its standard output and error together.
  /// The wait happens on a thread of its own (``onDispatchThread(_:)``).
  public static func run(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await onDispatchThread {
      let (status, output, _) = try runToEnd(tool, arguments, separating: false)
      return (status, output)
    }
  }

  /// Runs a tool found on `PATH` whose standard output is data (FFmpeg's `framemd5`, say) and returns that
  /// output alone; throws, with its standard error, when it fails. What the tool logs meanwhile stays out of
  /// the data: FFmpeg 7.1 logs `non-existing PPS 0 referenced` from its H.264 parser while it writes the
  /// digests of the frames it decodes whole.
  public static func standardOutput(of tool: String, _ arguments: [String]) async throws -> String {
    let (status, output, errors) = try await onDispatchThread { try runToEnd(tool, arguments, separating: true) }
    guard status == 0 else { throw InspectionError("\(tool) exited \(status): \(errors)") }
    return output
  }

  /// Runs `tool` to its end, blocking the calling thread: its standard output, and its standard error either
  /// apart (`separating`: written to a temporary file, read once the tool ended) or merged into the output.
  private static func runToEnd(_ tool: String, _ arguments: [String], separating: Bool) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString).err")
    defer { try? FileManager.default.removeItem(at: errors) }
    var errorFile: FileHandle?
    if separating {
      guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
        throw InspectionError("cannot create \(errors.path) for \(tool)'s standard error")
      }
      errorFile = try FileHandle(forWritingTo: errors)
    }
    let child = try SpawnedChild(
      "/usr/bin/env", [tool] + arguments, environment: ProcessInfo.processInfo.environment, output: .pipe,
      error: errorFile.map { .descriptor($0.fileDescriptor) } ?? .output)
    try? errorFile?.close()
    let data = child.standardOutput?.readDataToEndOfFile() ?? Data()
    let (status, _) = child.waitForExit()
    let errorText = separating ? (try? String(contentsOf: errors, encoding: .utf8)) ?? "" : ""
    return (status, String(decoding: data, as: UTF8.self), errorText)
  }

  /// Calls `body` with a plain-named symbolic link to `path` in a fresh directory, removed afterwards.
  static func withPlainLink<T>(to path: String, named name: String, _ body: (String) async throws -> T) async throws
    -> T
  {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let link = directory.appendingPathComponent(name).path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    return try await body(link)
  }
}

/// A tool failed to read a file.
public struct InspectionError: Error, CustomStringConvertible {
  /// The tool's output.
  public let description: String
  init(_ description: String) { self.description = description }
}
