import Foundation
import MediaInspection
import Testing

/// How `hvtcam stream` ends when its targets misbehave on 127.0.0.1: every start ends by itself, in
/// `streaming to` or an error naming the target, whatever order GStreamer reports in; every stop
/// signal ends the process.
@Suite("hvtcam stream: faults", .serialized, .timeLimit(.minutes(4)))
struct StreamFaultTests {
  @Test("a refused RTMP server, 20 runs in a row: each ends by itself with an error naming the target")
  func refusedRTMP() async throws {
    // An RTMP URL's last segment is its stream key, shown as ***.
    let app = "rtmp://127.0.0.1:\(try FreePort.tcp())/live/"
    for run in 1...20 {
      let result = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--rtmp", app + "cam", "--duration", "30"])
      try #require(
        result.status == 1 && !result.signalled && result.standardError.contains("the stream to \(app)*** failed")
          && result.standardError.contains("Connection refused"), "run \(run): \(result)")
    }
  }

  @Test(
    "a stop signal while a stream starts (an RTSP server that accepts and never answers) ends the process: SIGINT, SIGTERM, SIGHUP, SIGQUIT",
    arguments: ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"])
  func signalDuringStart(signal: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let peer = try await SilentPeer("tcp")
    defer { peer.process.send(SIGKILL) }
    let stream = try HVTCam.start(
      ["stream"] + HVTCam.simulated + [
        "--rtsp-push", "rtspt://127.0.0.1:\(peer.port)/live", "--record", directory.path("movie.mp4"), "--duration",
        "60",
      ])
    try await peer.waitUntilReached()
    stream.send(["SIGINT": SIGINT, "SIGTERM": SIGTERM, "SIGHUP": SIGHUP, "SIGQUIT": SIGQUIT][signal] ?? SIGKILL)
    let result = await stream.result()
    #expect(
      result.status == 1 && !result.signalled
        && result.standardError.contains("interrupted by \(signal) before the streams started"), "\(result)")
    #expect(try directory.contents().isEmpty, "the recording never started: nothing is left")
  }

  @Test(
    "push targets that accept and never answer (RTMP, RTSP push over TCP, SRT over UDP): each start ends by itself in an error naming the target",
    arguments: ["rtmp", "rtsp-push", "srt"])
  func silentServer(kind: String) async throws {
    let peer = try await SilentPeer(kind == "srt" ? "udp" : "tcp")
    defer { peer.process.send(SIGKILL) }
    let url = [
      "rtmp": "rtmp://127.0.0.1:\(peer.port)/live/cam", "rtsp-push": "rtspt://127.0.0.1:\(peer.port)/live",
      "srt": "srt://127.0.0.1:\(peer.port)",
    ][kind]!
    let result = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--\(kind)", url, "--duration", "60"])
    let shown = kind == "rtmp" ? url.replacingOccurrences(of: "/live/cam", with: "/live/***") : url
    #expect(
      result.status == 1 && !result.signalled && result.standardError.contains("the stream to \(shown) failed"),
      "\(result)")
    #expect(!result.standardError.contains("streaming to"), "\(result)")
  }

  @Test(
    "a stop signal while a push stream is being tried again ends the process, the recording finalized: SIGTERM, SIGHUP, SIGQUIT",
    arguments: ["SIGTERM", "SIGHUP", "SIGQUIT"])
  func signalWhileRetrying(signal: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = "rtmp://127.0.0.1:\(try FreePort.tcp())/live/cam"
    let server = try await FFmpegServer(url, output: directory.path("received.ts"))
    let movie = directory.path("movie.mp4")
    let (stream, _) = try await StreamCommandTests.startStreaming(
      ["--rtmp", url, "--record", movie, "--duration", "120"])
    defer { stream.send(SIGKILL) }
    _ = try await stream.requireStandardErrorLine("the recording started") { $0.hasPrefix("recording to ") }
    try await server.waitForFrames(60)
    await server.kill()
    _ = try await stream.requireStandardErrorLine("the stream lost") { $0.contains(" lost: ") }
    stream.send(["SIGTERM": SIGTERM, "SIGHUP": SIGHUP, "SIGQUIT": SIGQUIT][signal] ?? SIGKILL)
    let result = await stream.result()
    #expect(result.succeeded && result.outputLines == [movie], "\(result)")
    let video = try #require(try await MediaInspector.streams(movie).first { $0.type == "video" })
    #expect(
      video.packets >= 30 && abs(Double(video.packets) - video.duration * 30) <= 1 && video.largestGap < 0.01,
      "the movie is finalized and whole: \(video), gap \(video.largestGap) s")
  }
}
