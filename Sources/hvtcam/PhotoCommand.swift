import Foundation
import HVTCamera

/// `hvtcam photo`: takes one or more JPEG photos and prints the path of each as it lands.
enum PhotoCommand {
  static let parser = CommandLineParser(
    command: "photo",
    summary: """
      Takes photos (the frame of the moment, JPEG) and prints the path of each as it is written. \
      With -o FILE and --count N > 1 the photos are FILE-1.jpg … FILE-N.jpg. An existing file is never \
      replaced unless --overwrite is given.
      """,
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.photoSize, CameraOptions.preset, CameraOptions.preview,
      CameraOptions.windowID,
      CameraOptions.flash,
      .init(names: ["--count"], valueName: "N", help: "How many photos to take, 1 to \(maximumCount) (default 1)."),
      CameraOptions.output, CameraOptions.overwrite, CameraOptions.startTimeout, CameraOptions.verbose,
    ] + CameraOptions.tagging)

  /// The most photos one command takes.
  static let maximumCount = 10_000

  /// How long one photo may take, from the call to the written file.
  static let photoTimeout = 15.0

  static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let flash = try CameraOptions.flashMode(arguments)
    let count = try arguments.integer("--count", in: 1...maximumCount, default: 1) ?? 1
    let output = OutputPath(arguments["--output"])
    let overwrite = arguments.flag("--overwrite")
    let controller = try options.makeController(mode: .photo)
    controller.cameraFlashMode = flash
    controller.outputDirectory = output.directory
    try await options.withPresented(controller) {
      for index in 1...count {
        if let signal = StopSignals.shared.received {
          throw Interrupted(signal: signal, when: "after \(index - 1) of \(count) photos")
        }
        let url = output.url(index: index, count: count)
        let photo = try await bounded(photoTimeout, "photo \(index) of \(count)") {
          try await controller.capturePhoto(to: url, replacingExisting: overwrite)
        }
        Console.out(photo.url.path)
      }
    }
  }
}
