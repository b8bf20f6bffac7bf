import Foundation
import MediaInspection
import Testing

/// Players people use, beside FFmpeg: GStreamer's own `gst-play-1.0` (`rtspsrc`) reads the RTSP server,
/// VLC's `cvlc` (its HLS demuxer, as a user: VLC refuses root) reads the HLS stream from a web server.
/// (Debian's VLC has no live555 module and opens no `rtsp://` URL.)
@Suite(
  "hvtcam stream: real players", .serialized, .timeLimit(.minutes(2)),
  .enabled(if: MediaInspector.hasFFprobe, "ffprobe is not installed"))
struct RealClientTests {
  @Test(
    "gst-play-1.0 decodes 60 frames of 640x480 from the RTSP server with its credentials; without them it is refused")
  func gstPlay() async throws {
    let (stream, urls) = try await StreamCommandTests.startStreaming(
      ["--rtsp", ":0/cam", "--rtsp-credentials", "ann:s3cretpw", "--duration", "60"])
    defer { stream.send(SIGKILL) }
    let url = try #require(urls.first)
    let play = ["20", "gst-play-1.0", "--no-interactive", "-v", "--videosink", "fakesink num-buffers=60 silent=false"]
    let login = url.replacingOccurrences(of: "rtsp://", with: "rtsp://ann:s3cretpw@")
    let played = try await Subprocess.run(tool: "timeout", play + [login])
    // The video sink of playbin takes decoded frames: fakesink says so of each.
    let frames = played.outputLines.filter { $0.contains("last-message = chain") }.count
    #expect(played.succeeded && frames == 60, "\(frames) frames\n\(played.standardOutput.suffix(2000))")
    #expect(
      played.standardOutput.contains("video/x-raw") && played.standardOutput.contains("width=(int)640, height=(int)480")
    )
    let refused = try await Subprocess.run(tool: "timeout", play + [url])
    #expect((refused.standardOutput + refused.standardError).contains("Unauthorized (401)"), "\(refused)")
    stream.send(SIGINT)
    #expect(await stream.result().succeeded)
  }

  @Test(
    "cvlc, as a user, reads the live HLS playlist from a web server: what it received is H.264 of 640x480, seconds of it",
    .enabled(if: VLC.installed, "cvlc (vlc-bin) is not installed"))
  func vlc() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.path("hls")
    let preset = try HLSFolderTests.preset(into: folder, in: directory)
    // -v: hlssink2's segments closing (splitmuxsink-fragment-closed), each once the playlist lists it.
    let stream = try HVTCam.start(["stream", "-v"] + HVTCam.simulated + ["--preset", preset, "--duration", "60"])
    defer { stream.send(SIGKILL) }
    for segment in 1...2 {
      _ = try await stream.requireStandardErrorLine("segment \(segment) written") {
        $0.contains("splitmuxsink-fragment-closed")
      }
    }
    let server = try await FolderServer(folder)
    defer { server.process.send(SIGKILL) }
    let received = try VLC.writableFolder(in: directory) + "/received.ts"
    let command = try await VLC.command([
      "-I", "dummy", "--play-and-exit", "--run-time=5", "--sout", "#std{access=file,mux=ts,dst=\(received)}",
      "http://127.0.0.1:\(server.port)/playlist.m3u8",
    ])
    let played = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/timeout"), ["40"] + command)
    #expect(played.succeeded, "\(played)")
    #expect(played.standardError.contains("adaptive demux"), "VLC's HLS demuxer read it: \(played)")
    #expect(try await StreamCommandTests.probe(received) == "h264,640,480")
    let frames = try await MediaInspector.probe(received).decodedFrames ?? 0
    #expect(frames >= 60, "\(frames) frames decoded")
    stream.send(SIGINT)
    #expect(await stream.result().succeeded)
  }
}
