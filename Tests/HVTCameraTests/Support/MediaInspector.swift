import Foundation
import Testing

/// Reads media files with GStreamer's own command-line tools, in a separate process: an independent
/// check of what the engine wrote.
enum MediaInspector {
  /// What `gst-discoverer-1.0 -v` says about a file.
  struct Report {
    var duration: Double
    var width: Int?
    var height: Int?
    var caps: String
    var text: String

    var isH264: Bool { caps.contains("video/x-h264") }
    var isJPEG: Bool { caps.contains("image/jpeg") || text.contains("JPEG") }
  }

  /// Runs `gst-discoverer-1.0 -v` on a file.
  static func discover(_ url: URL) throws -> Report {
    let output = try run("/usr/bin/gst-discoverer-1.0", ["-v", url.path])
    #expect(!output.contains("An error was encountered"), "discoverer failed on \(url.path):\n\(output)")
    func number(after label: String) -> Int? {
      output.components(separatedBy: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
        .flatMap { Int($0.components(separatedBy: ":").last!.trimmingCharacters(in: .whitespaces)) }
    }
    var duration = 0.0
    if let line = output.components(separatedBy: "\n").first(where: { $0.contains("Duration:") }) {
      let parts = line.components(separatedBy: "Duration:")[1].trimmingCharacters(in: .whitespaces)
        .components(separatedBy: ":").compactMap(Double.init)
      if parts.count == 3 { duration = parts[0] * 3600 + parts[1] * 60 + parts[2] }
    }
    let caps = output.components(separatedBy: "\n").filter { $0.contains("video/") || $0.contains("image/") }
      .joined(separator: "\n")
    return Report(
      duration: duration, width: number(after: "Width:"), height: number(after: "Height:"), caps: caps, text: output)
  }

  /// The number of H.264 frames in an MP4, counted by `qtdemux` (each access unit is one buffer).
  static func frameCount(_ url: URL) throws -> Int {
    let output = try run(
      "/usr/bin/gst-launch-1.0",
      ["-v", "filesrc", "location=\(url.path)", "!", "qtdemux", "!", "h264parse", "!", "fakesink", "silent=false"])
    return output.components(separatedBy: "\n").filter { $0.contains("chain") }.count
  }

  /// The mean luma (0…1) of a JPEG, decoded by `jpegdec` to 8-bit grey in a separate process.
  static func meanLuma(ofJPEG url: URL) throws -> Double {
    let raw = url.deletingPathExtension().appendingPathExtension("gray")
    defer { try? FileManager.default.removeItem(at: raw) }
    _ = try run(
      "/usr/bin/gst-launch-1.0",
      [
        "-q", "filesrc", "location=\(url.path)", "!", "jpegdec", "!", "videoconvert", "!", "video/x-raw,format=GRAY8",
        "!", "filesink", "location=\(raw.path)",
      ])
    let bytes = try Data(contentsOf: raw)
    try #require(!bytes.isEmpty)
    return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count * 255)
  }

  /// Runs a tool and returns its standard output and error together.
  static func run(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

/// A fresh temporary directory for one test.
func makeTemporaryDirectory(_ name: String = #function) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("hvtcamera-tests-\(UUID().uuidString.prefix(8))", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
