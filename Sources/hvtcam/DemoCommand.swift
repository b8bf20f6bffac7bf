import Foundation
import HVTCamera

/// `hvtcam demo`: a tour of the engine — a photo, then two short movies (a photo taken while the first
/// records) — on the attached camera, else on the simulated camera.
enum DemoCommand {
  static let parser = CommandLineParser(
    command: "demo",
    summary: """
      Takes a photo, records two short movies (taking a photo during the first) and prints what was \
      written. Uses the attached camera, or the simulated camera when there is none. -o names the folder \
      to write into (created when missing).
      """,
    options: [
      CameraOptions.quality, CameraOptions.preset,
      .init(
        names: ["--seconds"], valueName: "SECONDS",
        help: "Length of each movie, \(HVTCaptureLimits.recordingDuration) (default 2)."),
      CameraOptions.output, CameraOptions.startTimeout, CameraOptions.stallTimeout, CameraOptions.verbose,
    ])

  static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let seconds = try arguments.seconds("--seconds", in: HVTCaptureLimits.recordingDuration) ?? 2
    let output = OutputPath(arguments["--output"], directoryOnly: true)
    let hasCamera = HVTCameraController.isSourceTypeAvailable(.camera)
    let controller = try HVTCameraController(source: hasCamera ? .automatic : .simulated)
    controller.preset = try HVTPreset.named(options.preset ?? "default")
    if let quality = options.quality { controller.videoQuality = quality }
    controller.videoMaximumDuration = seconds
    controller.outputDirectory = output.directory
    try controller.setMediaTypes([.image, .movie])
    try await options.withPresented(controller) {
      if let configuration = controller.configuration {
        let kind = configuration.devicePath == nil ? "simulated (no camera attached)" : "attached camera"
        Console.out("camera: \(configuration.deviceName), \(kind)")
        Console.out("running: \(configuration)")
      }
      report(try await bounded(PhotoCommand.photoTimeout, "photo") { try await controller.capturePhoto() })
      controller.cameraCaptureMode = .video
      for take in 1...2 {
        if let signal = StopSignals.shared.received { throw Interrupted(signal: signal, when: "before movie \(take)") }
        let stop = StopSignals.shared.onStop { _ in controller.stopVideoCapture() }
        defer { StopSignals.shared.remove(stop) }
        let movie = Task { try await controller.recordMovie() }
        if take == 1 {
          report(try await bounded(PhotoCommand.photoTimeout, "photo") { try await controller.capturePhoto() })
        }
        report(try await movie.value)  // stopped by videoMaximumDuration
      }
    }
  }

  /// Prints one capture: kind, path, size and what the metadata says.
  static func report(_ capture: HVTCapture) {
    let metadata = capture.metadata
    if let image = capture.image {
      let age = metadata.frameAge.map { String(format: "%.1f ms", $0 * 1000) } ?? "?"
      Console.out(
        "photo: \(capture.url.path) (\(image.width)x\(image.height) JPEG, \(metadata.fileSize) bytes, frame age \(age))"
      )
    } else {
      Console.out(
        "movie: \(capture.url.path) (\(metadata.configuration.size) via \(metadata.encoder), "
          + String(format: "%.2f s, ", metadata.duration ?? 0) + "\(metadata.frameCount ?? 0) frames, "
          + "\(metadata.fileSize) bytes)")
    }
  }
}
