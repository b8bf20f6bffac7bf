import Foundation
import MediaInspection
import Testing

/// `hvtcam stream --rtsp-push` into a real RTSP server's RECORD mount, read back by FFmpeg.
@Suite(
  "hvtcam stream --rtsp-push", .serialized, .timeLimit(.minutes(2)),
  .enabled(
    if: MediaInspector.hasFFprobe && RTSPRecordServer.unavailableReason == nil,
    "\(RTSPRecordServer.unavailableReason ?? "ffprobe is missing")"))
struct RTSPPushCommandTests {
  @Test(
    "--rtsp-push ANNOUNCEs and RECORDs into a gst-rtsp-server mount: the server's file is H.264 of the camera's size")
  func push() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await RTSPRecordServer(output: directory.path("received"))
    let (stream, urls) = try await StreamCommandTests.startStreaming(["--rtsp-push", server.url(), "--duration", "4"])
    #expect(urls == [server.url()])
    try await server.waitForFrames(from: 1, pushedBy: stream)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    await server.stop()
    #expect(try await StreamCommandTests.probe(server.file(1)) == "h264,640,480")
    // Four seconds at 30 fps from the key frame the stream started on; a loaded machine drops some at the
    // stream's leaky queue (a CI run beside the other targets' tests received 57), so a quarter, a
    // second's worth, is counted on: the stream flowed for more than its start.
    let received = try await MediaInspector.probe(server.file(1))
    #expect((received.decodedFrames ?? 0) >= 30, "frames received: \(received)")
  }

  @Test("no server on the port, a URL of another scheme: each a clear error, at once")
  func refused() async throws {
    let url = "rtspt://127.0.0.1:\(try FreePort.tcp())/live"
    let refused = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--rtsp-push", url, "--duration", "10"])
    #expect(refused.status == 1 && refused.standardError.contains("the stream to \(url) failed"), "\(refused)")
    let wrong = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--rtsp-push", "http://127.0.0.1/live"])
    #expect(wrong.status == 64 && wrong.standardError.contains("must start with rtsp://"), "\(wrong)")
  }

  @Test(
    "an RTSP server that goes away and comes back on its port: the push says so, RECORDs again, and the recording keeps every frame"
  )
  func reconnects() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = try await RTSPRecordServer(output: directory.path("first"))
    let movie = directory.path("movie.mp4")
    // Stopped by SIGINT once the second server has frames, not by a duration the reconnection might
    // outlast on a loaded machine.
    let (stream, _) = try await StreamCommandTests.startStreaming(
      ["--rtsp-push", first.url("rtspt"), "--record", movie, "--duration", "120"])
    try await first.waitForFrames(from: 1, pushedBy: stream)
    await first.stop()
    let lost = try await stream.requireStandardErrorLine("the stream lost") { $0.hasPrefix("stream to rtspt://") }
    #expect(lost.contains("lost") && lost.contains("trying again in"), "\(lost)")
    let second = try await RTSPRecordServer(port: first.port, output: directory.path("second"))
    try await second.waitForFrames(from: 1, pushedBy: stream)
    let back = try await stream.requireStandardErrorLine("the stream back") { $0.contains(" back after ") }
    #expect(back.hasPrefix("stream to \(first.url("rtspt")) back after"), "\(back)")
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded && result.outputLines == [movie], "\(result)")
    await second.stop()
    // Every frame of however long it recorded: 30 a second of the file's duration.
    let count = try await MediaInspector.frameCount(movie)
    let duration = try #require(try await MediaInspector.discover(movie).duration)
    #expect(
      abs(Double(count.frames) - duration * 30) <= 1 && duration > 1,
      "the recording has every frame: \(count.frames) in \(duration) s\n\(count.output)")
    // The first server was killed a second into the stream, with frames still in its muxer; the second
    // one took the stream from its return to the stop, from the key frame it joined on.
    for file in [first.file(1), second.file(1)] {
      #expect(try await StreamCommandTests.probe(file) == "h264,640,480", "\(file)")
      let received = try await MediaInspector.probe(file)
      if (received.decodedFrames ?? 0) < 1 {
        // What came instead (each packet's times, flags and size), and what the pushing hvtcam said.
        let packets = try await MediaInspector.packets(file)
        Issue.record("no frame decodes in \(file): \(received)\npackets:\n\(packets.output)\nhvtcam: \(result)")
      }
    }
  }
}

/// `hvtcam describe` with stream targets: the line it prints runs as `hvtcam stream` would, the movie
/// and the streams on one encoder.
@Suite(
  "hvtcam describe with streams", .timeLimit(.minutes(2)),
  .enabled(
    if: MediaInspector.hasFFprobe && RTSPRecordServer.unavailableReason == nil,
    "\(RTSPRecordServer.unavailableReason ?? "ffprobe is missing")"))
struct DescribeStreamsTests {
  @Test(
    "--rtsp-push and --hls: the printed line, run by /bin/sh, records 90 frames, pushes them into the RTSP server and writes a playlist"
  )
  func launchLine() async throws {
    let directory = try TemporaryDirectory(awkwardDirectory)
    defer { directory.remove() }
    let server = try await RTSPRecordServer(output: directory.path("received"))
    let movie = directory.path("movie.mp4")
    // The engine makes the HLS folder; a launch line cannot.
    try FileManager.default.createDirectory(atPath: directory.path("hls"), withIntermediateDirectories: false)
    let described = try await HVTCam.run(
      ["describe"] + HVTCam.simulated + [
        "--mode", "video", "--frames", "90", "-o", movie, "--rtsp-push", server.url("rtspt"), "--hls",
        directory.path("hls"),
      ])
    let line = try #require(described.outputLines.first, "\(described)")
    #expect(described.succeeded && described.outputLines.count == 1, "\(described)")
    // One encoder, the streams'; its tee feeds the movie and both targets.
    #expect(line.components(separatedBy: "x264enc").count == 2, "\(line)")
    #expect(line.components(separatedBy: " streams. ! ").count == 4, "\(line)")
    let run = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", "/bin/sh", "-c", line])
    // Once in CI the line never ended after "Starting recording": the server's lines say whether it received.
    #expect(
      run.succeeded, "\(run)\n--- the RTSP server ---\n\(server.process.standardErrorSoFar.joined(separator: "\n"))")
    await server.stop()
    #expect(try await MediaInspector.frameCount(movie).frames == 90)
    #expect(try await StreamCommandTests.probe(server.file(1)) == "h264,640,480")
    #expect(try await StreamCommandTests.probe(directory.path("hls/playlist.m3u8")) == "h264,640,480")
  }

  @Test(
    "--stream-size and --stream-bitrate: a second encoder; the line, run by /bin/sh, writes the movie and a smaller HLS stream"
  )
  func secondEncoderLine() async throws {
    let directory = try TemporaryDirectory(awkwardDirectory)
    defer { directory.remove() }
    let movie = directory.path("movie.mp4")
    try FileManager.default.createDirectory(atPath: directory.path("hls"), withIntermediateDirectories: false)
    let described = try await HVTCam.run(
      ["describe"] + HVTCam.simulated + [
        "--mode", "video", "--frames", "90", "-o", movie, "--hls", directory.path("hls"), "--stream-size", "320x240",
        "--stream-bitrate", "300000",
      ])
    let line = try #require(described.outputLines.first, "\(described)")
    #expect(described.succeeded, "\(described)")
    #expect(line.components(separatedBy: "x264enc").count == 3, "the movie's encoder and the stream's: \(line)")
    #expect(line.contains(" bitrate=300 "), "\(line)")
    let run = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", "/bin/sh", "-c", line])
    #expect(run.succeeded, "\(run)")
    #expect(try await MediaInspector.discover(movie).size == "640x480")
    #expect(try await MediaInspector.frameCount(movie).frames == 90)
    let playlist = try await MediaInspector.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
        directory.path("hls/playlist.m3u8"),
      ])
    // A line per program ffprobe finds in the playlist.
    let sizes = Set(playlist.output.split(separator: "\n").map(String.init))
    #expect(sizes == ["320,240"], "\(playlist.output)")
  }

  @Test("--engine lists the streams' encoder and each target's branch, an RTSP server's ending in its appsink")
  func engine() async throws {
    let described = try await HVTCam.run(
      ["describe", "--engine"] + HVTCam.simulated + ["--rtsp", "127.0.0.1:8554/cam", "--srt", "srt://127.0.0.1:9000"])
    #expect(described.succeeded, "\(described)")
    let streams = described.outputLines.filter { $0.hasPrefix("stream") }
    #expect(streams.count == 3, "\(described)")
    #expect(
      streams.first?.hasPrefix("streams: t. ! queue name=stream-encoding-queue max-size-buffers=0") == true,
      "\(streams)")
    #expect(
      streams.dropFirst().first?.hasPrefix("stream rtsp://127.0.0.1:8554/cam: streams. ! queue name=stream1-queue")
        == true && streams.dropFirst().first?.hasSuffix("drop=true") == true, "\(streams)")
    #expect(streams.last?.contains("! srtsink name=stream2-sink uri=srt://127.0.0.1:9000 ") == true, "\(streams)")
  }
}
