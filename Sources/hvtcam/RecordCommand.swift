import Dispatch
import Foundation
import HVTCamera
import Synchronization

/// `hvtcam record`: records a movie until the time limit, Ctrl-C or SIGTERM, then prints its path.
enum RecordCommand {
  static let parser = CommandLineParser(
    command: "record",
    summary: """
      Records an H.264 movie (fragmented MP4) until --max-duration, Ctrl-C or SIGTERM; each of these \
      finalizes the file. Shows elapsed / limit while recording (one line per second when stderr is \
      not a terminal) and prints the movie's path.
      """,
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.preset,
      .init(names: ["--max-duration"], valueName: "SECONDS", help: "Stop after this long (default 600)."),
      CameraOptions.output, CameraOptions.verbose,
    ])

  static func run(_ arguments: ParsedArguments) throws {
    let options = try CameraOptions(arguments)
    let limit = try arguments.seconds("--max-duration")
    let output = OutputPath(arguments["--output"])
    let controller = try options.makeController(mode: .video)
    if let limit { controller.videoMaximumDuration = limit }
    controller.outputDirectory = output.directory
    let terminal = isatty(STDERR_FILENO) != 0
    let waiter = CaptureWaiter { event in
      switch event {
      case .recordingStarted(let url):
        FileHandle.standardError.write("recording to \(url.path)\n")
      case .recordingProgress(let elapsed, let limit):
        FileHandle.standardError.write(
          terminal
            ? "\r\(clock(elapsed)) / \(clock(limit))" : "elapsed \(Int(elapsed)) / \(Int(limit)) s\n")
      case .recordingStopped(let elapsed, let reason):
        FileHandle.standardError.write("\(terminal ? "\r" : "")stopped after \(clock(elapsed)) (\(reason.rawValue))\n")
      default:
        break
      }
    }
    waiter.attach(to: controller)
    options.relayBusMessages(of: controller)
    // Ctrl-C or SIGTERM at any point ends the recording cleanly; before it starts, it ends the command.
    let stopRequested = Atomic(false)
    let stopOnSignal = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      // Weakly: a cancelled source releases its handler later, on its queue; holding the controller there
      // would keep the pipeline alive past the command, while GStreamer shuts down in `main`.
      source.setEventHandler { [weak controller] in
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        controller?.stopVideoCapture()
      }
      source.resume()
      return source
    }
    defer { stopOnSignal.forEach { $0.cancel() } }
    // Dismissed even when it does not start, so that the bus messages of the failed start are handled
    // (relayed by --verbose, dumped to GST_DEBUG_DUMP_DOT_DIR) while the controller is still there.
    defer { controller.dismiss() }
    try controller.present()
    guard !stopRequested.load(ordering: .sequentiallyConsistent) else { return }
    guard controller.startVideoCapture() else {
      throw HVTCameraError.pipelineSetupFailed("the recording did not start")
    }
    if stopRequested.load(ordering: .sequentiallyConsistent) { controller.stopVideoCapture() }
    do {
      let info = try waiter.nextCapture()
      if let url = info[.mediaURL] as? URL { print(try output.place(url, index: 1, count: 1).path) }
    } catch let failure as CaptureFailure {
      if let url = failure.salvaged?[.mediaURL] as? URL { print(try output.place(url, index: 1, count: 1).path) }
      throw failure
    }
  }

  /// `mm:ss.t`.
  static func clock(_ seconds: Double) -> String {
    String(format: "%02d:%04.1f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
  }
}

extension FileHandle {
  /// Writes text as UTF-8.
  func write(_ text: String) {
    write(Data(text.utf8))
  }
}
