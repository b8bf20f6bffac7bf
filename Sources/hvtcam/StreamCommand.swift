import Foundation
import HVTCamera

/// `hvtcam stream`: streams the camera to RTSP clients, an SRT peer, an RTMP ingest or an HLS folder,
/// and records a movie meanwhile if asked, until the time is up or a stop signal.
enum StreamCommand {
  static let parser = CommandLineParser(
    command: "stream",
    summary: """
      Streams the camera, with one encoder for every target, until --duration, Ctrl-C, SIGTERM, SIGHUP or \
      SIGQUIT: --rtsp serves RTSP clients itself (TCP and UDP), --rtsp-push records into an RTSP server's \
      mount, --srt sends MPEG-TS over SRT, --rtmp pushes FLV to an ingest, --hls writes a playlist and \
      segments any web server can serve; any together, and the --preset's own streams. Says "streaming to URL" (on stderr) for each once it runs. With --record, also records a movie \
      (its path printed at the end); a stream that fails never touches it. A push target that loses its \
      server is tried again until it is back ("stream to URL lost: …; trying again in S s (try N)", then \
      "back after N tries" once data reaches the server), after 1 s doubling up to 30 s, with jitter. A \
      start that fails, or that nothing reaches within 15 s, is an error (exit 1).
      """,
    options: [CameraOptions.device, CameraOptions.quality, CameraOptions.preset, CameraOptions.preview]
      + targetOptions + [
        .init(names: ["--record"], valueName: "FILE", help: "Record a movie to FILE meanwhile (never replacing one)."),
        .init(
          names: ["--duration"], valueName: "SECONDS",
          help: "Stop after this long, \(HVTCaptureLimits.recordingDuration)."),
        CameraOptions.bitRate,
        CameraOptions.verbose,
      ])

  /// The options that name stream targets (``targets(_:)``), which `describe` takes too.
  static let targetOptions: [CommandLineParser.Option] = [
    .init(
      names: ["--rtsp"], valueName: "[ADDRESS]:PORT/PATH",
      help: "Serve rtsp://ADDRESS:PORT/PATH (ADDRESS 0.0.0.0, every interface, when left out; PORT 0: a free one)."),
    .init(names: ["--rtsp-credentials"], valueName: "USER:PASSWORD", help: "Clients of --rtsp must give these."),
    .init(
      names: ["--rtsp-push"], valueName: "URL",
      help: "Push to an RTSP server (ANNOUNCE/RECORD): rtspt:// over TCP, rtspu:// over UDP, rtsp:// either."),
    .init(
      names: ["--srt"], valueName: "URI",
      help: "srt://HOST:PORT calls a listener; srt://:PORT?mode=listener waits for a caller (latency, passphrase)."),
    .init(names: ["--rtmp"], valueName: "URL", help: "Push to an RTMP ingest, e.g. rtmp://HOST/APP/KEY."),
    .init(names: ["--hls"], valueName: "DIR", help: "Write DIR/playlist.m3u8 and its segments (2 s, the newest 5)."),
    .init(
      names: ["--stream-size"], valueName: "WIDTHxHEIGHT",
      help: "Stream at this size (cropped to its shape and scaled) with an encoder of their own, not the movies'."),
    .init(
      names: ["--stream-bitrate"], valueName: "BITS",
      help: "Stream at this bit rate, \(HVTCaptureLimits.videoBitRate.lowerBound) to "
        + "\(HVTCaptureLimits.videoBitRate.upperBound), with an encoder of their own (default: the movies', or "
        + "about 0.1 bit per pixel of --stream-size)."),
    .init(
      names: ["--stream-keyframe-interval"], valueName: "SECONDS",
      help:
        "Stream with a key frame at least this often, \(HVTCaptureLimits.keyFrameInterval), with an encoder of their own."
    ),
  ]

  static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let duration = try arguments.seconds("--duration", in: HVTCaptureLimits.recordingDuration)
    let requested = try Self.streams(arguments)
    let controller = try options.makeController(mode: .video)
    let streams = controller.preset.streams + requested
    guard !streams.isEmpty else {
      throw UsageError(
        "hvtcam stream: give at least one of --rtsp, --rtsp-push, --srt, --rtmp, --hls, or a --preset with streams")
    }
    controller.videoBitRate = try arguments.integer("--bitrate", in: HVTCaptureLimits.videoBitRate)
    if let duration { controller.videoMaximumDuration = duration }
    let events = showEvents(of: controller)
    defer { events.cancel() }
    let movie = try await options.withPresented(controller) { () async throws -> HVTCapture? in
      // A stop signal ends whatever runs when it comes: a stream's start (which then throws), the
      // recording (finalized), the wait.
      let stop = StopSignals.shared.onStop { _ in
        controller.stopStreaming()
        controller.stopVideoCapture()
      }
      defer { StopSignals.shared.remove(stop) }
      do {
        for stream in streams {
          if let signal = StopSignals.shared.received {
            throw Interrupted(signal: signal, when: "before the streams started")
          }
          Console.error("streaming to \(try await controller.startStreaming(stream))")
        }
      } catch let error as HVTCameraError {
        guard let signal = StopSignals.shared.received else { throw error }
        throw Interrupted(signal: signal, when: "before the streams started")
      }
      if let file = arguments["--record"] {
        return try await controller.recordMovie(to: URL(fileURLWithPath: file))
      }
      try await waitForStop(after: duration)
      return nil
    }
    if let movie {
      Console.out(movie.url.path)
      if let interruption = movie.interruption { throw interruption }
    }
  }

  /// The streams the target options ask for (after the preset's own, ``HVTPreset/streams``), encoded as
  /// the encoding options say; a bad one is a usage error of `hvtcam command`.
  static func streams(_ arguments: ParsedArguments, command: String = "stream") throws -> [HVTStream] {
    let encoding = try Self.encoding(arguments, command: command)
    return try targets(arguments, command: command).map { HVTStream(target: $0, encoding: encoding) }
  }

  /// The targets the options name, in the order of the help; a bad one is a usage error of `hvtcam
  /// command`.
  private static func targets(_ arguments: ParsedArguments, command: String) throws -> [HVTStreamTarget] {
    var targets: [HVTStreamTarget] = []
    if let spec = arguments["--rtsp"] {
      targets.append(try rtspTarget(spec, credentials: arguments["--rtsp-credentials"], command: command))
    }
    if let url = arguments["--rtsp-push"] { targets.append(.rtspPush(url: url)) }
    if let uri = arguments["--srt"] { targets.append(.srt(uri: uri)) }
    if let url = arguments["--rtmp"] { targets.append(.rtmp(url: url)) }
    if let directory = arguments["--hls"] { targets.append(.hls(directory: URL(fileURLWithPath: directory))) }
    for target in targets {
      if let reason = target.invalidReason { throw UsageError("hvtcam \(command): \(reason)") }
    }
    return targets
  }

  /// The streams' encoding the options ask for: the movies' unless `--stream-size`, `--stream-bitrate` or
  /// `--stream-keyframe-interval` says otherwise.
  private static func encoding(_ arguments: ParsedArguments, command: String) throws -> HVTStreamEncoding {
    let size = try arguments["--stream-size"].map { text -> HVTFrameSize in
      guard case .size(let size) = HVTCaptureSize(commandLineName: text) else {
        throw UsageError("hvtcam \(command): --stream-size takes WIDTHxHEIGHT from 16x16 to 7680x4320, not '\(text)'")
      }
      return size
    }
    return HVTStreamEncoding(
      size: size, bitRate: try arguments.integer("--stream-bitrate", in: HVTCaptureLimits.videoBitRate),
      keyFrameInterval: try arguments.seconds("--stream-keyframe-interval", in: HVTCaptureLimits.keyFrameInterval))
  }

  /// `[ADDRESS]:PORT/PATH` as an RTSP server target.
  static func rtspTarget(_ spec: String, credentials: String?, command: String) throws -> HVTStreamTarget {
    let login = try credentials.map { text -> HVTStreamCredentials in
      guard let login = HVTStreamCredentials(userAndPassword: text) else {
        throw UsageError("hvtcam \(command): --rtsp-credentials takes USER:PASSWORD")
      }
      return login
    }
    guard let target = HVTStreamTarget.rtspServer(spec: spec, credentials: login) else {
      throw UsageError("hvtcam \(command): --rtsp takes [ADDRESS]:PORT/PATH, e.g. :8554/cam, not \"\(spec)\"")
    }
    return target
  }

  /// Returns after `seconds` (never without), or at the first stop signal.
  static func waitForStop(after seconds: Double?) async throws {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = Once(continuation)
      let token = StopSignals.shared.onStop { _ in once.resume() }
      if let seconds {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
          StopSignals.shared.remove(token)
          once.resume()
        }
      }
    }
  }

  /// Resumes a continuation the first time only.
  private final class Once: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private let lock = NSLock()
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    func resume() {
      lock.withLock { () -> CheckedContinuation<Void, Never>? in
        defer { continuation = nil }; return continuation
      }?.resume()
    }
  }

  /// Prints what the streams and the recording do, on stderr.
  static func showEvents(of controller: HVTCameraController) -> Task<Void, Never> {
    let events = controller.events
    return Task.detached {
      for await event in events {
        switch event {
        case .streamDisconnected(let target, let reason, let retry):
          let next = retry.map { "; trying again in \(String(format: "%.1f", $0.delay)) s (try \($0.attempt))" }
          Console.progress("stream to \(target) lost: \(reason)\(next ?? "")\n")
        case .streamReconnected(let target, let attempts):
          Console.progress("stream to \(target) back after \(attempts) tries\n")
        case .recordingStarted(let url):
          Console.error("recording to \(url.path)")
          // A stop signal that came while the recording was being started stops it now.
          if StopSignals.shared.received != nil { controller.stopVideoCapture() }
        case .recordingStopped(let elapsed, let reason):
          Console.progress("stopped after \(RecordCommand.clock(elapsed)) (\(reason.rawValue))\n")
        default:
          break
        }
      }
    }
  }
}
