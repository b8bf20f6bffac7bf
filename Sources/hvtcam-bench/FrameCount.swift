import Foundation

/// Counts the frames an MP4 holds, the way a player would find them: `gst-launch-1.0 -v filesrc ! qtdemux
/// ! h264parse ! fakesink silent=false`, one `chain` line per frame, in a process of its own. A file
/// without an index (a non-fragmented MP4 cut short) has none.
enum FrameCount {
  static func frames(in file: URL) throws -> Int {
    guard let tool = ChildProcess.which("gst-launch-1.0") else { throw BenchError.failed("gst-launch-1.0 not found") }
    let directory = file.deletingLastPathComponent().appendingPathComponent("count-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // A plain name, so that any path fits in the location= word.
    let link = directory.appendingPathComponent("movie.mp4")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: file.path)
    let child = try ChildProcess(
      tool,
      ["-v", "filesrc", "location=\(link.path)", "!", "qtdemux", "!", "h264parse", "!", "fakesink", "silent=false"],
      quiet: true)
    // gst-launch-1.0 can hang after qtdemux's error on a file without an index; the frames it had
    // printed by then are the answer (none).
    return child.wait(timeout: 60).output.filter { $0.contains("last-message = chain") }.count
  }
}
