import Foundation
import HVTCamera

/// `hvtcam photo`: takes one or more JPEG photos and prints their paths.
enum PhotoCommand {
  static let parser = CommandLineParser(
    command: "photo",
    summary: "Takes photos (the frame of the moment, JPEG) and prints the path of each.",
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.preset,
      .init(names: ["--flash"], valueName: "MODE", help: "auto, on or off (default auto)."),
      .init(names: ["--count"], valueName: "N", help: "How many photos to take (default 1)."),
      CameraOptions.output, CameraOptions.verbose,
    ])

  static func run(_ arguments: ParsedArguments) throws {
    let options = try CameraOptions(arguments)
    let flash = try arguments.choice("--flash", from: ["auto", "on", "off"], default: "auto")
    let count = try arguments.positiveInteger("--count", default: 1)
    let output = OutputPath(arguments["--output"])
    let controller = try options.makeController(mode: .photo)
    controller.cameraFlashMode = HVTCameraController.CameraFlashMode(rawValue: flash) ?? .auto
    controller.outputDirectory = output.directory
    let waiter = CaptureWaiter()
    waiter.attach(to: controller)
    options.relayBusMessages(of: controller)
    // Dismissed even when it does not start, so that the bus messages of the failed start are handled
    // (relayed by --verbose, dumped to GST_DEBUG_DUMP_DOT_DIR) while the controller is still there.
    defer { controller.dismiss() }
    try controller.present()
    for index in 1...count {
      controller.takePicture()
      let info = try waiter.nextCapture()
      guard let url = info[.imageURL] as? URL else { continue }
      print(try output.place(url, index: index, count: count).path)
    }
  }
}
