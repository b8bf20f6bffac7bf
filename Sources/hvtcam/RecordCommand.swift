import Foundation
import HVTCamera

/// `hvtcam record`: records a movie until the time limit or a stop signal, then prints its path.
enum RecordCommand {
  static let parser = CommandLineParser(
    command: "record",
    summary: """
      Records an H.264 movie (fragmented MP4) until --max-duration, Ctrl-C, SIGTERM, SIGHUP or SIGQUIT; \
      each of these finalizes the file. SIGUSR1 pauses the recording and, sent again, resumes it: one \
      movie with no gap. Shows elapsed / limit while recording (one line per second when \
      stderr is not a terminal), and cameras connected or disconnected meanwhile, and prints the movie's path \
      (and on stderr how many frames the camera lost, counted from gaps in its frames' sequence numbers, when \
      it lost any). While recording, the movie is \
      NAME.partial.mp4; hvtcam repair finishes one left by a crash. An existing file is never replaced \
      unless --overwrite is given. With --pre-roll, the camera runs keeping its last SECONDS of video \
      until SIGUSR1 (a trigger), which starts a movie that begins that long before it (a second SIGUSR1 \
      then pauses it); it says when the pre-roll is full.
      """,
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.photoSize, CameraOptions.microphone,
      CameraOptions.preset, CameraOptions.preview,
      CameraOptions.windowID,
      CameraOptions.maxDuration,
      CameraOptions.bitRate,
      .init(
        names: ["--keyframe-interval"], valueName: "SECONDS",
        help:
          "The longest time from one key frame to the next, \(HVTCaptureLimits.keyFrameInterval) (default: the preset's, else 1)."
      ),
      CameraOptions.flash, CameraOptions.preRoll, CameraOptions.keepEveryFrame,
      CameraOptions.output, CameraOptions.overwrite, CameraOptions.startTimeout, CameraOptions.stallTimeout,
      CameraOptions.verbose,
    ] + CameraOptions.tagging)

  static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let limit = try arguments.seconds("--max-duration", in: HVTCaptureLimits.recordingDuration)
    let bitRate = try arguments.integer("--bitrate", in: HVTCaptureLimits.videoBitRate)
    let keyFrameInterval = try arguments.seconds("--keyframe-interval", in: HVTCaptureLimits.keyFrameInterval)
    let flash = try CameraOptions.flashMode(arguments)
    let output = OutputPath(arguments["--output"])
    let overwrite = arguments.flag("--overwrite")
    let controller = try options.makeController(mode: .video)
    if let limit { controller.videoMaximumDuration = limit }
    controller.cameraFlashMode = flash
    controller.videoBitRate = bitRate
    controller.videoKeyFrameInterval = keyFrameInterval
    controller.outputDirectory = output.directory
    let progress = showProgress(of: controller)
    defer { progress.cancel() }
    let movie = try await options.withPresented(controller) {
      if let signal = StopSignals.shared.received {
        throw Interrupted(signal: signal, when: "before the recording started")
      }
      if options.preRoll ?? 0 > 0 { try await PauseSignal.shared.trigger() }
      let stop = StopSignals.shared.onStop { _ in controller.stopVideoCapture() }
      defer { StopSignals.shared.remove(stop) }
      return try await PauseSignal.shared.whileSet({
        _ = controller.isVideoCapturePaused ? controller.resumeVideoCapture() : controller.pauseVideoCapture()
      }) {
        try await controller.recordMovie(to: output.url(index: 1, count: 1), replacingExisting: overwrite)
      }
    }
    Console.out(movie.url.path)
    if let lost = movie.metadata.framesLostByDriver, lost > 0 {
      Console.error("frames the camera lost while recording: \(lost)")
    }
    if let dropped = movie.metadata.framesDroppedForEncoder, dropped > 0 {
      Console.error("frames left out because the encoder could not keep up: \(dropped)")
    }
    if let interruption = movie.interruption { throw interruption }
  }

  /// Prints the recording's progress, and cameras coming and going, on stderr; a stop signal that came before the recording started
  /// stops it as soon as it does.
  static func showProgress(of controller: HVTCameraController) -> Task<Void, Never> {
    let events = controller.events
    let terminal = isatty(STDERR_FILENO) != 0
    return Task.detached {
      for await event in events {
        switch event {
        case .preRollFilled(let fill):
          Console.progress(
            "\(terminal ? "\r" : "")pre-roll holds \(String(format: "%.1f", fill.seconds)) s; SIGUSR1 starts the recording\n"
          )
        case .audioUnavailable(let reason):
          Console.progress("\(terminal ? "\n" : "")no sound: \(reason)\n")
        case .recordingStarted(let url):
          Console.error("recording to \(url.path)")
          if StopSignals.shared.received != nil { controller.stopVideoCapture() }
        case .recordingProgress(let elapsed, let limit):
          Console.progress(
            terminal ? "\r\(clock(elapsed)) / \(clock(limit))" : "elapsed \(Int(elapsed)) / \(Int(limit)) s\n")
        case .recordingPaused(let elapsed):
          Console.progress("\(terminal ? "\r" : "")paused at \(clock(elapsed))\n")
        case .recordingResumed(let elapsed, let pausedFor):
          Console.progress("\(terminal ? "\r" : "")resumed at \(clock(elapsed)) after \(clock(pausedFor))\n")
        case .recordingFramesDropped(let total, let elapsed):
          Console.progress(
            "\(terminal ? "\r" : "")the encoder cannot keep up: \(total) frames left out so far, at \(clock(elapsed))\n"
          )
        case .recordingStopped(let elapsed, let reason):
          Console.progress("\(terminal ? "\r" : "")stopped after \(clock(elapsed)) (\(reason.rawValue))\n")
        case .cameraConnected(let name, let path):
          Console.progress("\(terminal ? "\n" : "")camera connected: \(name)\(path.map { " (\($0))" } ?? "")\n")
        case .cameraDisconnected(let name, let path):
          Console.progress("\(terminal ? "\n" : "")camera disconnected: \(name)\(path.map { " (\($0))" } ?? "")\n")
        default:
          break
        }
      }
    }
  }

  /// `mm:ss.t`.
  static func clock(_ seconds: Double) -> String {
    String(format: "%02d:%04.1f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
  }
}
