import Foundation
import MediaInspection
import Testing

/// FFmpeg as the server a push stream reaches on 127.0.0.1: an RTMP server (`-listen 1 -i rtmp://…`) or an
/// SRT listener (`-i 'srt://…?mode=listener'`), copying what it receives into an MPEG-TS file and
/// reporting its progress (`-progress pipe:2`: `frame=N` lines on stderr).
struct FFmpegServer {
  let process: Subprocess
  let url: String
  let output: String

  /// Starts FFmpeg serving `url` (`rtmp://127.0.0.1:PORT/APP/NAME` or `srt://127.0.0.1:PORT`), writing to
  /// `output`, and waits until it is about to listen (its `[tcp @` or `[srt @` line, printed just before).
  init(_ url: String, output: String) async throws {
    let rtmp = url.hasPrefix("rtmp://")
    let input = rtmp ? ["-listen", "1", "-i", url] : ["-i", url + "?mode=listener"]
    process = try Subprocess(
      URL(fileURLWithPath: "/usr/bin/ffmpeg"),
      ["-nostdin", "-nostats", "-v", "debug", "-progress", "pipe:2", "-stats_period", "0.5"] + input + [
        "-c", "copy", "-f", "mpegts", output,
      ],
      environment: ProcessInfo.processInfo.environment)
    let protocolLine = rtmp ? "[tcp @" : "[srt @"
    _ = try await process.requireStandardErrorLine("FFmpeg opening its socket") { $0.hasPrefix(protocolLine) }
    self.url = url
    self.output = output
  }

  /// Waits until FFmpeg has received `frames` frames.
  func waitForFrames(_ frames: Int) async throws {
    _ = try await process.requireStandardErrorLine("\(frames) frames received from the stream to \(url)") { line in
      line.hasPrefix("frame=") && (Int(line.dropFirst("frame=".count)) ?? 0) >= frames
    }
  }

  /// How far into the stream FFmpeg has written, in seconds (its newest `out_time_us=N` line; 0 before
  /// the first).
  var timeSoFar: Double { process.standardErrorSoFar.lazy.compactMap(Self.writtenTime).last ?? 0 }

  /// Waits until FFmpeg has written `seconds` of the stream.
  func waitForTime(_ seconds: Double) async throws {
    _ = try await process.requireStandardErrorLine("\(seconds) s of the stream to \(url) written") { line in
      (Self.writtenTime(line) ?? 0) >= seconds
    }
  }

  /// The seconds of the stream written that a progress line `out_time_us=N` gives; `nil` for another line.
  private static func writtenTime(_ line: String) -> Double? {
    guard line.hasPrefix("out_time_us=") else { return nil }
    return Double(line.dropFirst("out_time_us=".count)).map { $0 / 1e6 }
  }

  /// Kills FFmpeg (SIGKILL, as a server that crashes) and waits for its end.
  func kill() async {
    process.send(SIGKILL)
    _ = await process.result()
  }
}
