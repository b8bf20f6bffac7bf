import Foundation
import HVTCamera
import MediaInspection
import Testing

/// ``HVTCameraController/startStreaming(to:)`` on the simulated camera, read by FFmpeg on 127.0.0.1.
@Suite(
  "Streaming", .serialized, .timeLimit(.minutes(2)), .enabled(if: MediaInspector.hasFFprobe, "ffprobe is not installed")
)
struct StreamingTests {
  /// The first video stream of `url` as ffprobe reads it over RTSP/TCP within 20 s: `h264,640,480`.
  static func probe(_ url: String, _ options: [String] = []) async throws -> String {
    let result = try await MediaInspector.run(
      "timeout",
      ["20", "ffprobe", "-v", "error", "-rtsp_transport", "tcp"] + options + [
        "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url,
      ])
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test("an RTSP server on a free port: its URL, streamStarted, activeStreams; stopStreaming ends it")
  func rtspServerLife() async throws {
    let camera = try TestCamera(mode: .video)
    let target = HVTStreamTarget.rtspServer(port: 0, path: "/live", address: "127.0.0.1")
    let url = try await camera.controller.startStreaming(to: target)
    #expect(url.hasPrefix("rtsp://127.0.0.1:") && url.hasSuffix("/live") && !url.contains(":0/"), "\(url)")
    let started = try await camera.delegate.nextEvent { event -> String? in
      if case .streamStarted(target, let url) = event { url } else { nil }
    }
    #expect(started == url)
    #expect(camera.controller.activeStreams == [target])
    #expect(try await Self.probe(url) == "h264,640,480")
    await #expect(throws: HVTCameraError.self) { try await camera.controller.startStreaming(to: target) }

    camera.controller.stopStreaming(target)
    _ = try await camera.delegate.nextEvent { event -> Bool? in
      if case .streamStopped(target) = event { true } else { nil }
    }
    #expect(camera.controller.activeStreams.isEmpty)
    let refused = try await MediaInspector.run("timeout", ["10", "ffprobe", "-v", "error", url])
    #expect(refused.status != 0 && refused.output.contains("refused"), "\(refused.output)")
  }

  @Test("with credentials, a client without them is refused and one with them reads the stream")
  func rtspCredentials() async throws {
    let camera = try TestCamera(mode: .video)
    let url = try await camera.controller.startStreaming(
      to: .rtspServer(
        port: 0, path: "/cam", address: "127.0.0.1", credentials: HVTStreamCredentials(user: "ann", password: "s3cret"))
    )
    let anonymous = try await MediaInspector.run("timeout", ["20", "ffprobe", "-v", "error", url])
    #expect(anonymous.status != 0 && anonymous.output.contains("401"), "\(anonymous.output)")
    let authorized = url.replacingOccurrences(of: "rtsp://", with: "rtsp://ann:s3cret@")
    #expect(try await Self.probe(authorized) == "h264,640,480")
  }

  @Test(
    "a recording while streaming shares one encoder with the stream: the pre-roll's, or the streams' own",
    arguments: [0.0, 1.0])
  func encoders(preRoll: Double) async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preRollDuration = preRoll
    let messages = camera.controller.busMessages
    let encoders = Task {
      var changes: [HVTBusMessage] = []
      for await message in messages where message.element.contains("GstX264Enc") && message.type == "state-changed" {
        changes.append(message)
      }
      return changes
    }
    try await camera.controller.presentAndWait()
    let url = try await camera.controller.startStreaming(to: .rtspServer(port: 0, address: "127.0.0.1"))
    let streaming = Date()
    let movie = try await camera.controller.recordMovie(maximumDuration: 1)
    #expect(try await Self.probe(url) == "h264,640,480")
    await camera.controller.dismissAndWait()
    encoders.cancel()
    // The encoders running while the stream ran: the movies' own, armed when the camera started in video
    // mode, was stopped when the stream's encoder came (`READY -> NULL` before startStreaming returned).
    let changes = await encoders.value
    let stopped = Set(changes.filter { $0.details.hasPrefix("READY -> NULL") && $0.date < streaming }.map(\.element))
    let seen = Set(changes.filter { $0.details.hasPrefix("PAUSED -> PLAYING") }.map(\.element)).subtracting(stopped)
    #expect(seen.count == 1, "the encoders that ran: \(seen)")
    let count = try await MediaInspector.frameCount(movie.url.path)
    #expect(count.frames >= 30, "\(count.frames) frames\n\(count.output)")
  }

  @Test(
    "streams of another size and bit rate share an encoder of their own; the movie made meanwhile keeps its size and encoder"
  )
  func secondEncoder() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    let messages = camera.controller.busMessages
    let encoders = Task {
      var playing = Set<String>()
      for await message in messages where message.element.contains("GstX264Enc") && message.details.contains("PLAYING")
      {
        playing.insert(String(message.element.split(separator: ":").last ?? ""))
      }
      return playing
    }
    try await camera.controller.presentAndWait()
    let small = HVTStreamEncoding(size: HVTFrameSize(width: 320, height: 240), bitRate: 300_000)
    let url = try await camera.controller.startStreaming(
      to: .rtspServer(port: 0, address: "127.0.0.1"), encoding: small)
    let second = try await camera.controller.startStreaming(
      to: .rtspServer(port: 0, path: "/second", address: "127.0.0.1"), encoding: small)
    let movie = try await camera.controller.recordMovie(maximumDuration: 1)
    #expect(try await Self.probe(url) == "h264,320,240")
    #expect(try await Self.probe(second) == "h264,320,240")
    await camera.controller.dismissAndWait()
    encoders.cancel()
    #expect(
      await encoders.value == ["stream-320x240-300000bps-encoder", "movie-encoder"], "the encoders that ran")
    let discovery = try await MediaInspector.discover(movie.url.path)
    #expect(discovery.isH264 && discovery.size == "640x480", "\(discovery)")

    let error = await #expect(throws: HVTCameraError.self) {
      try await camera.controller.startStreaming(to: .rtspServer(port: 0), encoding: HVTStreamEncoding(bitRate: 5))
    }
    #expect(error?.description.contains("bit rate") == true, "\(String(describing: error))")
  }

  @Test("a target it cannot stream to is refused at once, with the reason")
  func invalidTargets() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    for (target, reason) in [
      (HVTStreamTarget.rtspServer(port: 70_000), "not between 0 and 65535"),
      (.rtspServer(path: "cam"), "must start with /"), (.srt(uri: "udp://x"), "srt://"),
      (.rtspPush(url: "http://x/cam"), "rtspt://"), (.rtspPush(url: "rtsp:///cam"), "names no server"),
      (.rtmp(url: "http://x"), "rtmp://"),
      (.hls(directory: camera.directory, segmentDuration: 0), "not between 1 and 3600 seconds"),
      (.rtspServer(port: 0, address: "0.0.0.0"), "the RTSP server on 0.0.0.0 would let anyone on the network watch"),
      (.srt(uri: "srt://[::]:9000?mode=listener"), "the SRT listener on :: would let anyone on the network watch"),
      (.srt(uri: "srt://:9000?mode=listener&passphrase=123456789"), "passphrase has 9 characters"),
    ] {
      let error = await #expect(throws: HVTCameraError.self) { try await camera.controller.startStreaming(to: target) }
      #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }
    #expect(camera.controller.activeStreams.isEmpty)
  }

  @Test("an RTSP server on every interface runs with credentials, or anonymous when allowed explicitly")
  func networkServer() async throws {
    let camera = try TestCamera(mode: .video)
    let protected = try await camera.controller.startStreaming(
      to: .rtspServer(port: 0, address: "0.0.0.0", credentials: HVTStreamCredentials(user: "ann", password: "s3cret")))
    let anonymous = try await camera.controller.startStreaming(
      HVTStream(target: .rtspServer(port: 0, path: "/open", address: "::"), allowsAnonymous: true))
    #expect(
      protected.hasPrefix("rtsp://127.0.0.1:") && anonymous.hasPrefix("rtsp://[::1]:"), "\(protected) \(anonymous)")
    #expect(try await Self.probe(anonymous) == "h264,640,480")
  }
}
