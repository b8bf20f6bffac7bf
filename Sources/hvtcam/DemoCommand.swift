import Foundation
import HVTCamera

/// `hvtcam demo`: a tour of the engine — photos, then two short movies (one with a photo taken while
/// recording) — on the real camera when one is attached, else on the simulated camera.
enum DemoCommand {
  static let parser = CommandLineParser(
    command: "demo",
    summary: """
      Takes a photo, records two short movies (taking a photo during the first) and prints what was \
      written. Uses the attached camera, or the simulated camera when there is none.
      """,
    options: [
      CameraOptions.quality, CameraOptions.preset,
      .init(names: ["--seconds"], valueName: "SECONDS", help: "Length of each movie (default 2)."),
      CameraOptions.output, CameraOptions.verbose,
    ])

  static func run(_ arguments: ParsedArguments) throws {
    let options = try CameraOptions(arguments)
    let seconds = try arguments.seconds("--seconds") ?? 2
    let output = OutputPath(arguments["--output"])
    let hasCamera = HVTCameraController.isSourceTypeAvailable(.camera)
    let controller = try HVTCameraController(source: hasCamera ? .automatic : .simulated)
    print("camera: \(hasCamera ? "attached camera" : "simulated (no camera attached)")")
    if let preset = options.preset { controller.preset = try HVTPreset.named(preset) }
    if let quality = options.quality { controller.videoQuality = quality }
    controller.videoMaximumDuration = seconds
    controller.outputDirectory = output.directory
    try controller.setMediaTypes([.image, .movie])
    let waiter = CaptureWaiter()
    waiter.attach(to: controller)
    options.relayBusMessages(of: controller)
    // Dismissed even when it does not start, so that the bus messages of the failed start are handled
    // (relayed by --verbose, dumped to GST_DEBUG_DUMP_DOT_DIR) while the controller is still there.
    defer { controller.dismiss() }
    try controller.present()
    if let configuration = controller.configuration { print("running: \(configuration)") }

    controller.takePicture()
    report(try waiter.nextCapture())
    controller.cameraCaptureMode = .video
    for take in 1...2 {
      guard controller.startVideoCapture() else { throw HVTCameraError.pipelineSetupFailed("recording did not start") }
      if take == 1 {
        controller.takePicture()
        report(try waiter.nextCapture())
      }
      report(try waiter.nextCapture())  // the movie, stopped by videoMaximumDuration
    }
  }

  /// Prints one capture: kind, path, size and what the metadata says.
  static func report(_ info: [HVTCameraController.InfoKey: any Sendable]) {
    guard let metadata = info[.mediaMetadata] as? HVTMediaMetadata else { return }
    if let image = info[.originalImage] as? HVTImage, let url = info[.imageURL] as? URL {
      let age = metadata.frameAge.map { String(format: "%.1f ms", $0 * 1000) } ?? "?"
      print("photo: \(url.path) (\(image.width)x\(image.height) JPEG, \(metadata.fileSize) bytes, frame age \(age))")
    } else if let url = info[.mediaURL] as? URL {
      print(
        "movie: \(url.path) (\(metadata.configuration.size) H.264 via \(metadata.encoder), "
          + String(format: "%.2f s, ", metadata.duration ?? 0) + "\(metadata.frameCount ?? 0) frames, "
          + "\(metadata.fileSize) bytes)")
    }
  }
}
