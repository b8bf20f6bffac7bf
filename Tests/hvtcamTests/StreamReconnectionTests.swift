import Foundation
import MediaInspection
import Testing

/// Push streams whose servers go away and come back during one run of `hvtcam stream`, on 127.0.0.1:
/// FFmpeg as the RTMP server and the SRT listener, gst-rtsp-server's RECORD mount for RTSP push.
@Suite(
  "hvtcam stream: reconnection", .serialized, .timeLimit(.minutes(4)),
  .enabled(
    if: MediaInspector.hasFFprobe && RTSPRecordServer.unavailableReason == nil,
    "\(RTSPRecordServer.unavailableReason ?? "ffprobe is missing")"))
struct StreamReconnectionTests {
  /// The servers of one round: each receives the stream until it is killed.
  struct Servers {
    let rtmp: FFmpegServer
    let srt: FFmpegServer
    let rtsp: RTSPRecordServer

    /// Starts the three servers on their ports, each writing to files named after `round` in `directory`.
    init(round: Int, rtmp: String, srt: String, rtspPort: Int, in directory: TemporaryDirectory) async throws {
      self.rtmp = try await FFmpegServer(rtmp, output: directory.path("rtmp-\(round).ts"))
      self.srt = try await FFmpegServer(srt, output: directory.path("srt-\(round).ts"))
      self.rtsp = try await RTSPRecordServer(port: rtspPort, output: directory.path("rtsp-\(round)"))
    }

    /// Waits until each has received a second of frames.
    func waitForFrames() async throws {
      try await rtmp.waitForFrames(30)
      try await srt.waitForFrames(30)
      try await rtsp.waitForFrames(from: 1)
    }

    /// Kills each (SIGKILL) and waits for their ends.
    func kill() async {
      await rtmp.kill()
      await srt.kill()
      await rtsp.stop()
    }
  }

  @Test(
    "each push target's server (RTMP, RTSP push, SRT) killed (-9) and started again, twice in one run: each stream is lost and back, every new server receives frames, the recording beside them has every frame"
  )
  func serversKilledTwice() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rtmp = "rtmp://127.0.0.1:\(try FreePort.tcp())/live/cam"
    let srt = "srt://127.0.0.1:\(try FreePort.udp())"
    var servers = try await Servers(round: 0, rtmp: rtmp, srt: srt, rtspPort: 0, in: directory)
    let rtsp = servers.rtsp.url("rtspt")
    let rtspPort = servers.rtsp.port
    let movie = directory.path("movie.mp4")
    let (stream, urls) = try await StreamCommandTests.startStreaming(
      ["--rtmp", rtmp, "--rtsp-push", rtsp, "--srt", srt, "--record", movie, "--duration", "180"], targets: 3)
    defer { stream.send(SIGKILL) }
    // The RTMP URL's stream key (its last segment) is shown as ***.
    let shownRTMP = rtmp.replacingOccurrences(of: "/live/cam", with: "/live/***")
    #expect(Set(urls) == [shownRTMP, rtsp, srt])
    for round in 1...2 {
      try await servers.waitForFrames()
      let seen = stream.standardErrorSoFar.count
      await servers.kill()
      for url in [shownRTMP, rtsp, srt] {
        let lost = try await stream.requireStandardErrorLine("the stream to \(url) lost", from: seen) {
          $0.hasPrefix("stream to \(url) lost: ")
        }
        #expect(lost.contains("; trying again in ") && lost.hasSuffix("(try 1)"), "\(lost)")
      }
      servers = try await Servers(round: round, rtmp: rtmp, srt: srt, rtspPort: rtspPort, in: directory)
      for url in [shownRTMP, rtsp, srt] {
        _ = try await stream.requireStandardErrorLine("the stream to \(url) back", from: seen) {
          $0.hasPrefix("stream to \(url) back after ")
        }
      }
    }
    try await servers.waitForFrames()
    stream.send(SIGINT)
    let result = await stream.result()
    await servers.kill()
    #expect(result.succeeded && result.outputLines == [movie], "\(result)")
    let video = try #require(try await MediaInspector.streams(movie).first { $0.type == "video" })
    #expect(
      video.largestGap < 0.01 && abs(Double(video.packets) - video.duration * 30) <= 1,
      "the recording has every frame: \(video), gap \(video.largestGap) s")
    for file in ["rtmp-2.ts", "srt-2.ts", "rtsp-2.1.ts"] {
      #expect(try await StreamCommandTests.probe(directory.path(file)) == "h264,640,480", "\(file)")
    }
  }

  @Test(
    "an RTMP server replaced by one that accepts and never answers: the stream is never said to be back nor to fall behind, and its tries count up"
  )
  func silentReplacement() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let port = try FreePort.tcp()
    let url = "rtmp://127.0.0.1:\(port)/live/cam"
    let shown = "rtmp://127.0.0.1:\(port)/live/***"
    let server = try await FFmpegServer(url, output: directory.path("received.ts"))
    let (stream, _) = try await StreamCommandTests.startStreaming(["--rtmp", url, "--duration", "120"])
    defer { stream.send(SIGKILL) }
    try await server.waitForFrames(30)
    await server.kill()
    let silent = try await SilentPeer("tcp", port: port)
    defer { silent.process.send(SIGKILL) }
    for attempt in 1...3 {
      _ = try await stream.requireStandardErrorLine("try \(attempt) of the stream") {
        $0.hasPrefix("stream to \(shown) lost: ") && $0.hasSuffix("(try \(attempt))")
      }
    }
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    #expect(!result.standardError.contains(" back after "), "\(result)")
    // Frames a try holds back while the server does not answer are not a network falling behind.
    #expect(!result.standardError.contains(" fell behind"), "\(result)")
    #expect(result.errorLines.filter { $0.hasPrefix("streaming to ") }.count == 1, "\(result)")
  }
}
