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
      + StreamOptions.options + [
        .init(names: ["--record"], valueName: "FILE", help: "Record a movie to FILE meanwhile (never replacing one)."),
        .init(
          names: ["--duration"], valueName: "SECONDS",
          help: "Stop after this long, \(HVTCaptureLimits.recordingDuration)."),
        CameraOptions.bitRate,
        CameraOptions.keepEveryFrame,
        CameraOptions.startTimeout, CameraOptions.stallTimeout, CameraOptions.verbose,
      ])

  static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let duration = try arguments.seconds("--duration", in: HVTCaptureLimits.recordingDuration)
    let preset = try options.loadPreset()
    let streams = try StreamOptions.streams(arguments, preset: preset)
    let controller = try options.makeController(mode: .video, preset: preset)
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

  /// Returns after `seconds` (never without), or at the first stop signal.
  static func waitForStop(after seconds: Double?) async throws {
    let ended = Outcome<Void>()
    let token = StopSignals.shared.onStop { _ in ended.finish(.success(())) }
    if let seconds {
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        StopSignals.shared.remove(token)
        ended.finish(.success(()))
      }
    }
    try await ended.wait()
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
        case .streamFramesDropped(let encoding, let total):
          Console.progress("the encoder of \(encoding) cannot keep up: \(total) frames left out so far\n")
        case .streamFellBehind(let target, let framesLeftOut):
          Console.progress("stream to \(target) fell behind; frames left out so far: \(framesLeftOut)\n")
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
