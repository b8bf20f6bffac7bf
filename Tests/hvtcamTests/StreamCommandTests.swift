import Foundation
import HVTSupport
import MediaInspection
import Testing

/// Whether `srt-live-transmit` (Debian's srt-tools, which `./dev test` installs) is there.
private let srtToolsInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/srt-live-transmit")

/// `hvtcam stream` against real clients and servers on 127.0.0.1: FFmpeg's RTSP and SRT readers,
/// `srt-live-transmit` as the SRT server a caller pushes to, ffprobe on the HLS playlist. Every client
/// runs under `timeout`, and the streams under `--duration`: nothing waits unbounded.
@Suite(
  "hvtcam stream", .serialized, .timeLimit(.minutes(3)),
  .enabled(if: MediaInspector.hasFFprobe && srtToolsInstalled, "ffprobe or srt-live-transmit is missing"))
struct StreamCommandTests {
  /// Starts `hvtcam stream` with `arguments`, every frame kept (``HVTCam/recording``: the tests read
  /// streams and movies back frame by frame), and waits for its `streaming to` lines, one per target;
  /// returns the process and the URLs.
  static func startStreaming(
    _ arguments: [String], targets: Int = 1, environment: [String: String] = HVTCam.environment()
  ) async throws -> (Subprocess, [String]) {
    let stream = try HVTCam.start(["stream"] + HVTCam.recording + arguments, environment: environment)
    var urls: [String] = []
    for _ in 0..<targets {
      let seen = urls
      let line = try await stream.requireStandardErrorLine("a 'streaming to' line") {
        $0.hasPrefix("streaming to ") && !seen.contains(String($0.dropFirst("streaming to ".count)))
      }
      urls.append(String(line.dropFirst("streaming to ".count)))
    }
    return (stream, urls)
  }

  /// `ffprobe` of `url` (with `options` before it), bounded to 20 s: the first stream's codec and size.
  static func probe(_ url: String, _ options: [String] = []) async throws -> String {
    let result = try await MediaInspector.run(
      "timeout",
      ["20", "ffprobe", "-v", "error"] + options + [
        "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url,
      ])
    return result.output.split(separator: "\n").first { $0.hasPrefix("h264") }.map(String.init) ?? result.output
  }

  @Test("--rtsp serves H.264 of the camera's size over TCP and UDP, and four clients at once each decode frames")
  func rtspServer() async throws {
    let (stream, urls) = try await Self.startStreaming(["--rtsp", "127.0.0.1:0/cam", "--duration", "60"])
    let url = try #require(urls.first)
    #expect(url.hasPrefix("rtsp://127.0.0.1:") && url.hasSuffix("/cam") && !url.contains(":0/"), "\(url)")
    #expect(try await Self.probe(url, ["-rtsp_transport", "tcp"]) == "h264,640,480")
    #expect(try await Self.probe(url, ["-rtsp_transport", "udp"]) == "h264,640,480")
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          let read = try await MediaInspector.run(
            "timeout",
            ["20", "ffmpeg", "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-t", "2", "-f", "framemd5", "-"])
          return Self.framemd5Lines(read.output)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    // Two seconds at 30 fps (60 frames), each client from the key frame it joined on; a loaded machine's
    // encoder may fall behind, so only half are counted on.
    #expect(counts.count == 4 && counts.allSatisfy { $0 >= 30 }, "frames decoded by each client: \(counts)")
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
  }

  /// Packets `ffmpeg` reads from `url` over RTSP/TCP in `seconds` (copied, not decoded), bounded to 30 s.
  static func packetsRead(from url: String, seconds: Int) async throws -> Int {
    let read = try await MediaInspector.run(
      "timeout",
      [
        "30", "ffmpeg", "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-t", String(seconds), "-c", "copy", "-f",
        "framemd5", "-",
      ])
    return Self.framemd5Lines(read.output)
  }

  /// The frames (or packets) FFmpeg's `framemd5` output lists: its lines that are not comments.
  static func framemd5Lines(_ output: String) -> Int {
    output.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains(",") }.count
  }

  @Test(
    "--rtsp with --record: 1, then 16 clients at once each receive frames while a client that stopped reading holds nothing up, and the movie has every frame"
  )
  func manyClients() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let movie = directory.path("movie.mp4")
    // Stopped by SIGINT once the clients are done, not by a duration they might outlast on a loaded
    // machine (a first client that took 10 s to start met a closed port in a Debian 13 tier run).
    let (stream, urls) = try await Self.startStreaming(
      ["--rtsp", "127.0.0.1:0/cam", "--record", movie, "--duration", "120"])
    let url = try #require(urls.first)
    #expect(try await Self.packetsRead(from: url, seconds: 1) >= 15)
    // A client that reads no more: FFmpeg stopped (SIGSTOP) once it plays, its socket left unread.
    let stalled = try Subprocess(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["-s", "KILL", "60", "ffmpeg", "-rtsp_transport", "tcp", "-i", url, "-c", "copy", "-f", "null", "-"],
      environment: ProcessInfo.processInfo.environment)
    defer { stalled.send(SIGKILL) }
    _ = try await stalled.requireStandardErrorLine("FFmpeg's output") { $0.hasPrefix("Output #0") }
    stalled.send(SIGSTOP)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<16 { group.addTask { try await Self.packetsRead(from: url, seconds: 2) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    // Two seconds at 30 fps each; sixteen FFmpeg processes on a loaded machine may start late or fall
    // behind, so a third is counted on.
    #expect(counts.count == 16 && counts.allSatisfy { $0 >= 20 }, "packets read by each client: \(counts)")
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    // Every frame of however long it recorded: 30 a second of the file's duration.
    let count = try await MediaInspector.frameCount(movie)
    let duration = try #require(try await MediaInspector.discover(movie).duration)
    #expect(
      abs(Double(count.frames) - duration * 30) <= 1, "the recording has every frame: \(count.frames) in \(duration) s")
  }

  @Test("--srt as a listener is read by ffprobe; --hls writes a playlist ffprobe reads; --record's movie is whole")
  func srtListenerHLSAndRecord() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let port = try FreePort.udp()
    let movie = directory.path("movie.mp4")
    let (stream, urls) = try await Self.startStreaming(
      [
        "--srt", "srt://127.0.0.1:\(port)?mode=listener", "--hls", directory.path("hls"), "--record", movie,
        "--duration", "5",
      ], targets: 2)
    #expect(urls == ["srt://127.0.0.1:\(port)?mode=listener", "hls:\(directory.path("hls"))"])
    #expect(try await Self.probe("srt://127.0.0.1:\(port)") == "h264,640,480")
    let result = await stream.result()
    #expect(result.succeeded && result.outputLines == [movie], "\(result)")
    #expect(try await Self.probe(directory.path("hls/playlist.m3u8")) == "h264,640,480")
    let playlist = try String(contentsOfFile: directory.path("hls/playlist.m3u8"), encoding: .utf8)
    #expect(playlist.contains("#EXTINF:") && playlist.contains("segment00000.ts"), "\(playlist)")
    let count = try await MediaInspector.frameCount(movie)
    #expect(abs(count.frames - 150) <= 1, "the recording has every frame of 5 s: \(count.frames)\n\(count.output)")
  }

  @Test("--preset with streams: its SRT listener, tuned, is read by ffprobe; its HLS folder has 1 s segments")
  func presetStreams() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let port = try FreePort.udp()
    let preset = directory.path("broadcast.json")
    try """
    {
      "name": "broadcast", "description": "streams of its own", "quality": "640x480",
      "preview": "fakesink sync=false",
      "photo": { "encoder": "jpegenc", "extension": "jpg" },
      "movie": { "encoder": "x264enc speed-preset=superfast tune=zerolatency", "muxer": "mp4mux", "extension": "mp4" },
      "streams": [
        { "srt": "srt://127.0.0.1:\(port)?mode=listener", "tuning": ["srtsink latency=250"] },
        { "hls": "\(directory.path("hls"))", "segmentDuration": 1, "playlistLength": 3 }
      ]
    }
    """.write(toFile: preset, atomically: true, encoding: .utf8)
    let described = try await HVTCam.run(["describe"] + HVTCam.simulated + ["--preset", preset, "--mode", "video"])
    #expect(described.standardOutput.contains(" latency=250"), "\(described)")
    let (stream, urls) = try await Self.startStreaming(["--preset", preset, "--duration", "4"], targets: 2)
    #expect(urls == ["srt://127.0.0.1:\(port)?mode=listener", "hls:\(directory.path("hls"))"])
    #expect(try await Self.probe("srt://127.0.0.1:\(port)") == "h264,640,480")
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    let playlist = try String(contentsOfFile: directory.path("hls/playlist.m3u8"), encoding: .utf8)
    #expect(playlist.contains("#EXT-X-TARGETDURATION:1\n"), "\(playlist)")
  }

  @Test(
    "an SRT server that goes away and comes back: the stream says so, is sent again, and the recording keeps every frame"
  )
  func srtReconnects() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let port = try FreePort.udp()
    let forwarded = try FreePort.udp()
    // srt-live-transmit waiting for a caller does not end on SIGTERM: each is killed (and the second
    // one at the latest when the test ends).
    func server() throws -> Subprocess {
      try Subprocess(
        URL(fileURLWithPath: "/usr/bin/srt-live-transmit"),
        ["srt://:\(port)?mode=listener", "udp://127.0.0.1:\(forwarded)"],
        environment: ProcessInfo.processInfo.environment)
    }
    let first = try server()
    defer { first.send(SIGKILL) }
    let movie = directory.path("movie.mp4")
    let (stream, _) = try await Self.startStreaming(
      ["--srt", "srt://127.0.0.1:\(port)", "--record", movie, "--duration", "14"])
    first.send(SIGKILL)
    _ = await first.result()
    let lost = try await stream.requireStandardErrorLine("the stream lost") { $0.hasPrefix("stream to srt://") }
    #expect(lost.contains("lost") && lost.contains("trying again in"), "\(lost)")
    let second = try server()
    defer { second.send(SIGKILL) }
    let back = try await stream.requireStandardErrorLine("the stream back") { $0.contains(" back after ") }
    #expect(back.hasPrefix("stream to srt://127.0.0.1:\(port) back after"), "\(back)")
    let result = await stream.result()
    #expect(result.succeeded && result.outputLines == [movie], "\(result)")
    let count = try await MediaInspector.frameCount(movie)
    #expect(abs(count.frames - 420) <= 1, "the recording has every frame of 14 s: \(count.frames)\n\(count.output)")
  }

  @Test("--rtmp pushes FLV that an RTMP server (ffmpeg -listen 1) receives and decodes, every frame")
  func rtmp() async throws {
    let port = try FreePort.tcp()
    let server = try Subprocess(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      [
        "30", "ffmpeg", "-v", "trace", "-listen", "1", "-i", "rtmp://127.0.0.1:\(port)/live/cam", "-t", "2", "-f",
        "framemd5", "-",
      ], environment: ProcessInfo.processInfo.environment)
    // FFmpeg says this just before it listens on its TCP socket.
    _ = try await server.requireStandardErrorLine("FFmpeg opening its socket") { $0.contains("[tcp @") }
    let (stream, urls) = try await Self.startStreaming(
      ["--rtmp", "rtmp://127.0.0.1:\(port)/live/cam", "--duration", "20"])
    // Its last segment is the stream key, shown as ***.
    #expect(urls == ["rtmp://127.0.0.1:\(port)/live/***"])
    let received = await server.result()
    let frames = Self.framemd5Lines(received.standardOutput)
    #expect(received.succeeded && frames >= 58, "\(frames) frames received: \(received.standardError.suffix(2000))")
    stream.send(SIGINT)
    #expect(await stream.result().succeeded)
  }

  @Test(
    "under the leaks tracer: a preset's smaller HLS stream on an encoder of its own, an RTSP server that served a client, a movie on the streams' encoder; nothing alive at exit"
  )
  func leaksNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let preset = directory.path("small-hls.json")
    try """
    {
      "name": "small-hls", "description": "a smaller HLS stream", "quality": "640x480",
      "preview": "fakesink sync=false",
      "photo": { "encoder": "jpegenc", "extension": "jpg" },
      "movie": { "encoder": "x264enc speed-preset=superfast tune=zerolatency", "muxer": "mp4mux", "extension": "mp4" },
      "streams": [{ "hls": "\(directory.path("hls"))", "size": "320x240" }]
    }
    """.write(toFile: preset, atomically: true, encoding: .utf8)
    let movie = directory.path("movie.mp4")
    let (stream, urls) = try await Self.startStreaming(
      ["--preset", preset, "--rtsp", "127.0.0.1:0/cam", "--record", movie, "--duration", "60"], targets: 2,
      environment: LeakTests.tracing(configHome: directory.url))
    let probed = try await Self.probe(urls[1], ["-rtsp_transport", "tcp"])
    #expect(probed == "h264,640,480", "\(urls): \(probed)")
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded && result.outputLines == [movie], "\(result)")
    LeakTests.expectNoLeaks(result)
    #expect(try await MediaInspector.frameCount(movie).frames >= 15)
  }

  @Test("a port in use, no target, a malformed --rtsp: each a clear error, and nothing recorded")
  func errors() async throws {
    let (holder, urls) = try await Self.startStreaming(["--rtsp", "127.0.0.1:0/cam", "--duration", "30"])
    let taken = try #require(urls.first.flatMap { URL(string: $0)?.port })
    let busy = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--rtsp", "127.0.0.1:\(taken)/cam"])
    #expect(busy.status == 1 && busy.standardError.contains("cannot listen on 127.0.0.1:\(taken)"), "\(busy)")
    holder.send(SIGINT)
    _ = await holder.result()
    let none = try await HVTCam.run(["stream"] + HVTCam.simulated)
    #expect(none.status == 64 && none.standardError.contains("give at least one of --rtsp"), "\(none)")
    let malformed = try await HVTCam.run(["stream", "--rtsp", "8554"])
    #expect(malformed.status == 64 && malformed.standardError.contains("[ADDRESS]:PORT/PATH"), "\(malformed)")
    let scheme = try await HVTCam.run(["stream", "--srt", "udp://127.0.0.1:9"])
    #expect(scheme.status == 64 && scheme.standardError.contains("must start with srt://"), "\(scheme)")
  }
}

/// A port no one listens on now: the one the system gives a socket bound to port 0, closed again.
enum FreePort {
  /// A free UDP port (SRT's).
  static func udp() throws -> Int { try find(Int32(SOCK_DGRAM.rawValue)) }
  /// A free TCP port (RTMP's).
  static func tcp() throws -> Int { try find(Int32(SOCK_STREAM.rawValue)) }

  private static func find(_ type: Int32) throws -> Int {
    let socket = Glibc.socket(AF_INET, type, 0)
    guard socket >= 0 else { throw SystemCallError("socket") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
      }
    }
    guard bound else { throw SystemCallError("bind") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
