import Foundation

/// How a movie's picture and sound line up, as ffprobe reads its packets (`ffprobe -show_entries
/// packet=codec_type,pts_time,duration_time`): the earliest packet and the latest packet end of each
/// stream, in seconds.
struct AVSync {
  /// |first video packet − first sound packet|, in milliseconds.
  let startOffset: Double
  /// |end of the last video packet − end of the last sound packet|, in milliseconds: how far the sound
  /// drifted from the picture over the movie (an AAC frame is 21 ms, a video frame 33 ms).
  let endDifference: Double

  /// Reads `file`'s packets; throws when ffprobe fails or the file lacks a video or a sound stream.
  static func measure(_ file: URL) throws -> AVSync {
    guard let tool = ChildProcess.which("ffprobe") else { throw BenchError.failed("ffprobe not found") }
    let child = try ChildProcess(
      tool,
      [
        "-v", "error", "-show_entries", "packet=codec_type,pts_time,duration_time", "-of", "csv=p=0", file.path,
      ], quiet: true)
    let ending = child.wait(timeout: 60)
    var spans: [String: (start: Double, end: Double)] = [:]
    for line in ending.output {
      let fields = line.split(separator: ",").map(String.init)
      guard fields.count >= 3, let pts = Double(fields[1]) else { continue }
      let end = pts + (Double(fields[2]) ?? 0)
      let span = spans[fields[0]] ?? (pts, end)
      spans[fields[0]] = (min(span.start, pts), max(span.end, end))
    }
    guard ending.status == 0, let video = spans["video"], let audio = spans["audio"] else {
      throw BenchError.failed("ffprobe found no video and sound packets in \(file.path): \(ending.output.suffix(3))")
    }
    return AVSync(
      startOffset: abs(video.start - audio.start) * 1000, endDifference: abs(video.end - audio.end) * 1000)
  }
}
