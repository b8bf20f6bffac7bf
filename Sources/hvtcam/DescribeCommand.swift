import Foundation
import HVTCamera

/// `hvtcam describe`: prints the `gst-launch-1.0` command equivalent to the controller's pipeline.
enum DescribeCommand {
  static let parser = CommandLineParser(
    command: "describe",
    summary: """
      Prints the gst-launch-1.0 command equivalent to the camera pipeline for these settings, rendered \
      from the same model the live pipeline is built from and quoted for a POSIX shell. In photo mode it \
      writes one JPEG, in video mode a movie; with --frames N it stops by itself after N frames. The \
      stream options and the preset's streams add the branches `hvtcam stream` would (the streams' \
      encoders and each target's; an RTSP server of its own, which has no launch syntax, only with --engine).
      """,
    options: [
      .init(names: ["--mode"], valueName: "MODE", help: "photo or video (default photo)."),
      CameraOptions.device, CameraOptions.quality, CameraOptions.photoSize, CameraOptions.preRoll, CameraOptions.preset,
      CameraOptions.keepEveryFrame,
      .init(names: ["--frames"], valueName: "N", help: "Stop after N frames (num-buffers)."),
      .init(
        names: ["--engine"], valueName: nil,
        help: "Print the pipelines as the engine runs them instead: camera, photo (appsrc ! … ! appsink) and recording."
      ),
      CameraOptions.output,
    ] + StreamOptions.options)

  static func run(_ arguments: ParsedArguments) throws {
    let options = try CameraOptions(arguments)
    let mode = try arguments.choice("--mode", from: ["photo", "video"], default: "photo")
    // num-buffers is a gint.
    let frames = try arguments.integer("--frames", in: 1...Int(Int32.max))
    let captureMode = HVTCameraController.CameraCaptureMode(rawValue: mode) ?? .photo
    let preset = try options.loadPreset()
    let streams = try StreamOptions.streams(arguments, preset: preset)
    let controller = try options.makeController(mode: captureMode, preset: preset)
    let model = try controller.pipelineModel()
    let defaultName =
      captureMode == .photo ? "hvtcam-photo.\(model.photoExtension)" : "hvtcam-movie.\(model.movieExtension)"
    let output = arguments["--output"] ?? defaultName
    if streams.contains(where: { !$0.target.secrets.isEmpty }) {
      Console.error("hvtcam describe: the streams' secrets are written as ***: put them back to run the line")
    }
    if arguments.flag("--engine") {
      Console.out(
        model.engineDescription(
          movie: captureMode == .video ? output : "hvtcam-movie.\(model.movieExtension)", streams: streams,
          slowEncoderPolicy: controller.slowEncoderPolicy))
    } else {
      Console.out(
        model.launchCommand(mode: captureMode, output: output, frames: frames, streams: streams))
    }
  }
}
