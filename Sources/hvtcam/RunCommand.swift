import Foundation
import HVTCamera

/// `hvtcam run`: the camera as a person uses it — a preview window with the default controls and the
/// review screen — printing the path of each capture the user keeps, until Cancel (Escape).
enum RunCommand {
  static let parser = CommandLineParser(
    command: "run",
    summary: """
      Opens the camera in a window (or in the X11 window --window-id names) with the default controls: \
      click the buttons or press space (shutter, or start/stop recording), f (flash), c (camera), m (mode), \
      Escape (Cancel). A photo or movie is shown for review: Enter or Use Photo / Use Video keeps it, r or \
      Retake discards it; with --allows-editing, the arrow keys, + and - (or a drag and the wheel) place a \
      photo's square crop. On a movie's review Left and Right move the playhead by a second, comma and \
      period by a frame, Home and End to the ends (or click the timeline); with --allows-editing, [ and ] \
      put the trim's start and end at the playhead (or drag the handles), and the movie kept is cut to \
      them, at most --max-duration long. Prints the path of each photo or movie kept (and of the edited \
      image), and exits 0 on Cancel, SIGINT or SIGTERM.
      """,
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.photoSize, CameraOptions.microphone,
      CameraOptions.preRoll, CameraOptions.preset, CameraOptions.maxDuration, CameraOptions.keepEveryFrame,
      .init(names: ["--mode"], valueName: "MODE", help: "photo or video (default photo)."),
      .init(
        names: ["--no-controls"], valueName: nil,
        help: "No default controls: space and Escape are handled by hvtcam itself, as an app's own controls."),
      .init(names: ["--zoom"], valueName: "Z", help: "Zoom the preview (not the captures), 1 to 8 (default 1)."),
      .init(names: ["--overlay"], valueName: "FILE", help: "An image (PNG with alpha) drawn on the preview."),
      .init(
        names: ["--text"], valueName: "TEXT",
        help: "Text drawn on the preview at the right, below the top bar: one overlay per line."),
      .init(
        names: ["--allows-editing"], valueName: nil,
        help: "Photos get a square crop, movies a trim, placed on the review screen."),
      CameraOptions.windowID,
      .init(
        names: ["-o", "--output"], valueName: "DIR", help: "Where captures are written (default: the current folder)."),
      CameraOptions.startTimeout, CameraOptions.stallTimeout, CameraOptions.verbose,
    ] + CameraOptions.tagging)

  /// On the main actor, where the camera session (the delegate) lives.
  @MainActor static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let mode = try arguments.choice("--mode", from: ["photo", "video"], default: "photo")
    let zoom = try arguments.number("--zoom", in: 1...8) ?? 1
    let limit = try arguments.seconds("--max-duration", in: HVTCaptureLimits.recordingDuration)
    let controller = try options.makeController(mode: mode == "video" ? .video : .photo)
    if mode == "photo" { try controller.setMediaTypes([.image, .movie]) }
    if options.preview == nil { controller.previewOutput = .window(title: "hvtcam run") }
    controller.showsCameraControls = !arguments.flag("--no-controls")
    controller.allowsEditing = arguments.flag("--allows-editing")
    if let limit { controller.videoMaximumDuration = limit }
    try controller.setCameraViewTransform(HVTAffineTransform(scaleX: zoom, y: zoom))
    let image = arguments["--overlay"].map {
      HVTCameraOverlay(.image(URL(fileURLWithPath: $0)), x: 0.02, y: CameraSession.overlayTop)
    }
    let lines = (arguments["--text"] ?? "").split(separator: "\n").enumerated().map { index, line in
      HVTCameraOverlay(
        .text(String(line)), x: 0.98, y: CameraSession.overlayTop + CameraSession.lineSpacing * Double(index))
    }
    if image != nil || !lines.isEmpty { try controller.setCameraOverlays((image.map { [$0] } ?? []) + lines) }
    controller.outputDirectory = URL(
      fileURLWithPath: arguments["--output"] ?? FileManager.default.currentDirectoryPath, isDirectory: true)
    let session = CameraSession(controller: controller)
    let stop = StopSignals.shared.onStop { _ in session.finish() }
    defer { StopSignals.shared.remove(stop) }
    try await options.withPresented(controller) {
      if StopSignals.shared.received != nil { return }
      try await session.untilFinished()
    }
  }
}

/// The person's session with `hvtcam run`'s camera: prints what is kept, and ends on Cancel, a stop
/// signal, or an error that stops the camera.
@MainActor final class CameraSession: HVTCameraControllerDelegate {
  /// Where `--overlay` and the first line of `--text` are drawn: below the top bar of the controls.
  nonisolated static let overlayTop = 0.16
  /// How far apart the lines of `--text` are, in fractions of the picture's height.
  nonisolated static let lineSpacing = 0.08

  private let controller: HVTCameraController
  private let ending = Outcome<Void>()
  /// What the review screen shows: `photo` or `movie`.
  private var reviewing = "photo"
  init(controller: HVTCameraController) {
    self.controller = controller
    controller.cameraDelegate = self
  }

  /// Returns when the user cancelled or a signal came; throws when the camera stopped with an error.
  nonisolated func untilFinished() async throws { try await ending.wait() }

  /// Ends the session (a stop signal).
  nonisolated func finish() { end(.success(())) }

  private nonisolated func end(_ result: Result<Void, any Error>) { ending.finish(result) }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    guard let url = (info[.imageURL] ?? info[.mediaURL]) as? URL else { return }
    Console.out(url.path)
    Console.error("kept \(url.lastPathComponent)")
    guard let edited = info[.editedImage] as? HVTImage, let crop = info[.cropRect] as? HVTRect else { return }
    let editedURL = url.deletingPathExtension().appendingPathExtension("edited.jpg")
    do {
      try FileWriting.write(edited.jpegData, to: editedURL.path, replacing: false)
      Console.out(editedURL.path)
      Console.error("crop \(crop) of \(url.lastPathComponent)")
    } catch {
      Console.error("hvtcam run: \(error)")
    }
  }

  func cameraControllerDidCancel(_ controller: HVTCameraController) { end(.success(())) }

  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) {
    // The camera goes on after a failed capture; it stops after its own failure.
    Console.error("hvtcam run: \(error)")
    if !controller.isPresented { end(.failure(error)) }
  }

  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) {
    switch event {
    case .readyForCapture(true):
      Console.error("ready")
    case .reviewStarted(let url):
      // Nothing switches the mode during a review: a movie is reviewed in video mode.
      reviewing = controller.cameraCaptureMode == .video ? "movie" : "photo"
      Console.error("reviewing \(url.lastPathComponent)")
    case .reviewEnded(let used):
      Console.error("\(reviewing) \(used ? "used" : "discarded")")
    case .preRollFilled(let fill):
      Console.error(String(format: "pre-roll holds %.1f s", fill.seconds))
    case .recordingStarted:
      Console.error("recording")
    case .recordingPaused(let elapsed):
      Console.error(String(format: "paused at %.2f s", elapsed))
    case .recordingResumed(let elapsed, let pausedFor):
      Console.error(String(format: "resumed at %.2f s after %.2f s", elapsed, pausedFor))
    case .navigation(let navigation):
      // The app's own controls, without the default ones: space is the shutter, Escape cancels.
      guard case .keyPress(let key) = navigation else { return }
      Console.error("key \(key)")
      if key == "Escape" { controller.cancel() }
      if key == "space" {
        if controller.cameraCaptureMode == .photo {
          controller.takePicture()
        } else if controller.isRecording {
          controller.stopVideoCapture()
        } else {
          _ = controller.startVideoCapture()
        }
      }
    default:
      break
    }
  }
}
