import Foundation
import HVTCamera

/// The `--verbose` relays still printing; the stream of each ends when its controller is released, after
/// the command returns, and `main` waits for them before exiting so that no message is lost.
let busRelays = DispatchGroup()

/// The options every capture command shares: which camera, which quality, and how to make, present and
/// dismiss a controller from them.
struct CameraOptions {
  static let device = CommandLineParser.Option(
    names: ["--device"], valueName: "DEVICE",
    help: "rear, front, simulated or a device node such as /dev/video0 (default: rear).")
  static let quality = CommandLineParser.Option(
    names: ["--quality"], valueName: "Q",
    help:
      "640x480 1280x720 1920x1080 3840x2160 high medium low iframe960x540 iframe1280x720, or any WIDTHxHEIGHT "
      + "such as 1600x1200 (default: the preset's).")
  static let photoSize = CommandLineParser.Option(
    names: ["--photo-size"], valueName: "SIZE",
    help:
      "Photos at this size, WIDTHxHEIGHT or largest (the camera's full size), while movies keep --quality's: "
      + "the camera runs at it, and movies are cropped to their aspect ratio and scaled (default: the movie size).")
  static let bitRate = CommandLineParser.Option(
    names: ["--bitrate"], valueName: "BITS",
    help:
      "The encoder's bit rate in bits per second, \(HVTCaptureLimits.videoBitRate.lowerBound) to "
      + "\(HVTCaptureLimits.videoBitRate.upperBound) (default: the preset's, else about 0.1 bit per pixel).")
  static let preRoll = CommandLineParser.Option(
    names: ["--pre-roll"], valueName: "SECONDS",
    help:
      "Keep the last SECONDS of video, \(HVTCaptureLimits.preRollDuration): each movie, with its sound, begins "
      + "that long (up to a key-frame interval more) before it is started.")
  static let microphone = CommandLineParser.Option(
    names: ["--microphone"], valueName: "NAME",
    help: "Record sound from this microphone, by its name in hvtcam devices (default: the default microphone).")
  static let preset = CommandLineParser.Option(
    names: ["--preset"], valueName: "NAME|FILE", help: "A pipeline preset by name or path (default: default).")
  static let verbose = CommandLineParser.Option(
    names: ["-v", "--verbose"], valueName: nil,
    help: "Print every bus message as it arrives, with element paths (like gst-launch-1.0 -m), on stderr.")
  static let preview = CommandLineParser.Option(
    names: ["--preview"], valueName: "WHERE",
    help:
      "preset (the preset's sink, default), none, or window (a window of its own on the display; "
      + "HVT_PREVIEW_SINK=NAME picks its sink, as for --window-id).")
  static let maxDuration = CommandLineParser.Option(
    names: ["--max-duration"], valueName: "SECONDS",
    help: "Stop recording after this long, \(HVTCaptureLimits.recordingDuration) (default 600).")
  static let startTimeout = CommandLineParser.Option(
    names: ["--start-timeout"], valueName: "SECONDS",
    help:
      "Give up when the camera has not started after this long, \(HVTCaptureLimits.stallTimeout) (default 10; "
      + "HVTCameraController.startTimeout).")
  static let stallTimeout = CommandLineParser.Option(
    names: ["--stall-timeout"], valueName: "SECONDS",
    help:
      "Give up a running camera that has delivered no frame for this long, \(HVTCaptureLimits.stallTimeout) "
      + "(default 3; HVTCameraController.cameraStallTimeout): a recording is finalized, the camera reopened once.")
  static let keepEveryFrame = CommandLineParser.Option(
    names: ["--keep-every-frame"], valueName: nil,
    help:
      "When an encoder cannot keep up (the movie's, the pre-roll's, the streams'), make the camera wait for "
      + "it rather than leave frames out: every frame is kept, and the preview slows "
      + "(HVTSlowEncoderPolicy.keepEveryFrame). For movies read back frame by frame.")
  static let windowID = CommandLineParser.Option(
    names: ["--window-id"], valueName: "XID",
    help: "Show the preview inside this X11 window (decimal or 0x hex, as xwininfo prints it).")
  static let output = CommandLineParser.Option(names: ["-o", "--output"], valueName: "PATH", help: "Where to write.")
  static let flash = CommandLineParser.Option(
    names: ["--flash"], valueName: "MODE",
    help: "auto, on or off (default auto): the flash for a photo, the torch while recording (cameras with one).")

  /// `--flash`'s mode (``flash``).
  static func flashMode(_ arguments: ParsedArguments) throws -> HVTCameraController.CameraFlashMode {
    let name = try arguments.choice("--flash", from: ["auto", "on", "off"], default: "auto")
    return HVTCameraController.CameraFlashMode(rawValue: name) ?? .auto
  }

  static let overwrite = CommandLineParser.Option(
    names: ["--overwrite"], valueName: nil,
    help: "Replace an existing regular file at the -o name (never a link, folder or device).")

  static let location = CommandLineParser.Option(
    names: ["--location"], valueName: "LAT,LON[,ALT[,DIR]]",
    help: "Write this place into the captures: degrees north and east (negative south and west), then metres "
      + "above sea level and the direction faced in degrees from true north, e.g. 48.8583,2.2945,35.")
  static let title = CommandLineParser.Option(
    names: ["--title"], valueName: "TEXT", help: "Write this title into the captures (EXIF, XMP, MP4).")
  static let comment = CommandLineParser.Option(
    names: ["--comment"], valueName: "TEXT", help: "Write this comment into the captures.")
  static let artist = CommandLineParser.Option(
    names: ["--artist"], valueName: "TEXT", help: "Write this artist (who made them) into the captures.")
  static let copyright = CommandLineParser.Option(
    names: ["--copyright"], valueName: "TEXT", help: "Write this copyright notice into the captures.")
  /// The options that say what is written into the files besides the picture.
  static let tagging = [location, title, comment, artist, copyright]

  let source: HVTCameraSource
  let device: HVTCameraController.CameraDevice
  let quality: HVTCameraController.QualityType?
  /// `--quality WIDTHxHEIGHT`: a size off the qualities' list.
  let videoSize: HVTCaptureSize?
  let photoSize: HVTCaptureSize?
  /// `--pre-roll`'s seconds, or `nil`.
  let preRoll: Double?
  /// `--microphone`'s name, or `nil`.
  let microphone: String?
  let preset: String?
  let preview: HVTPreviewOutput?
  let verbose: Bool
  /// `--keep-every-frame`: recordings keep every frame, the camera waiting for a slow encoder.
  let keepsEveryFrame: Bool
  /// `--start-timeout`'s seconds, or `nil`.
  let startTimeout: Double?
  /// `--stall-timeout`'s seconds, or `nil`.
  let stallTimeout: Double?
  let location: HVTLocation?
  let tags: HVTMediaTags

  init(_ arguments: ParsedArguments) throws {
    switch arguments["--device"] ?? "rear" {
    case "rear": (source, device) = (.automatic, .rear)
    case "front": (source, device) = (.automatic, .front)
    case "simulated": (source, device) = (.simulated, .rear)
    case let path where path.hasPrefix("/"): (source, device) = (.device(path), .rear)
    case let other:
      throw UsageError(
        "hvtcam \(arguments.command): --device must be rear, front, simulated or a device path, not '\(other)'")
    }
    preset = arguments["--preset"]
    location = try arguments["--location"].map { try Self.location($0, command: arguments.command) }
    tags = HVTMediaTags(
      title: arguments["--title"], comment: arguments["--comment"], artist: arguments["--artist"],
      copyright: arguments["--copyright"])
    verbose = arguments.flag("--verbose")
    keepsEveryFrame = arguments.flag("--keep-every-frame")
    startTimeout = try arguments.seconds("--start-timeout", in: HVTCaptureLimits.stallTimeout)
    stallTimeout = try arguments.seconds("--stall-timeout", in: HVTCaptureLimits.stallTimeout)
    preRoll = try arguments.seconds("--pre-roll", in: HVTCaptureLimits.preRollDuration)
    microphone = arguments["--microphone"]
    preview = try Self.previewOutput(arguments)
    let name = arguments["--quality"]
    quality = name.flatMap(HVTCameraController.QualityType.init(commandLineName:))
    videoSize = quality == nil ? name.flatMap(HVTCaptureSize.init(commandLineName:)) : nil
    if let name, quality == nil, videoSize?.description != name {
      let names = HVTCameraController.QualityType.allCases.map(\.commandLineName).joined(separator: " ")
      throw UsageError(
        "hvtcam \(arguments.command): unknown quality '\(name)' (one of: \(names), or WIDTHxHEIGHT from "
          + "\(HVTCaptureSize.widths.lowerBound)x\(HVTCaptureSize.heights.lowerBound) to "
          + "\(HVTCaptureSize.widths.upperBound)x\(HVTCaptureSize.heights.upperBound))")
    }
    photoSize = try arguments["--photo-size"].map { text in
      guard let size = HVTCaptureSize(commandLineName: text) else {
        throw UsageError(
          "hvtcam \(arguments.command): --photo-size must be WIDTHxHEIGHT (16x16 to 7680x4320) or largest, not '\(text)'"
        )
      }
      return size
    }
  }

  /// The listed microphone `name` names; a usage error that lists them when none does.
  private static func microphone(named name: String) throws -> HVTMicrophone {
    let microphones = HVTCameraController.availableMicrophones()
    guard let microphone = microphones.first(where: { $0.name == name }) else {
      let listed = microphones.isEmpty ? "none is listed" : "listed: " + microphones.map(\.name).joined(separator: ", ")
      throw UsageError("hvtcam: no microphone named '\(name)' (\(listed))")
    }
    return microphone
  }

  /// `--location`'s value: latitude, longitude, then optionally altitude and direction, comma-separated.
  private static func location(_ text: String, command: String) throws -> HVTLocation {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    let problem = "hvtcam \(command): --location must be LAT,LON[,ALT[,DIR]] in degrees and metres"
    guard (2...4).contains(numbers.count), numbers.allSatisfy({ $0 != nil }) else {
      throw UsageError("\(problem), e.g. 48.8583,2.2945,35, not '\(text)'")
    }
    let values = numbers.compactMap { $0 }
    let location = HVTLocation(
      latitude: values[0], longitude: values[1], altitude: values.count > 2 ? values[2] : nil,
      direction: values.count > 3 ? values[3] : nil)
    guard location.isValid else {
      throw UsageError(
        "\(problem): latitude −90…90, longitude −180…180, direction 0 up to 360; '\(text)' is out of range")
    }
    return location
  }

  /// The preview `--preview` and `--window-id` ask for; `nil` for the controller's default.
  private static func previewOutput(_ arguments: ParsedArguments) throws -> HVTPreviewOutput? {
    let command = "hvtcam \(arguments.command)"
    if let text = arguments["--window-id"] {
      guard arguments["--preview"] == nil else {
        throw UsageError("\(command): --window-id and --preview cannot be used together")
      }
      let digits = text.lowercased().hasPrefix("0x") ? (String(text.dropFirst(2)), 16) : (text, 10)
      guard let handle = UInt(digits.0, radix: digits.1), handle != 0 else {
        throw UsageError("\(command): --window-id must be an X11 window id such as 0x1e00003, not '\(text)'")
      }
      return .embedded(windowHandle: handle)
    }
    return try arguments["--preview"].map { name in
      switch name {
      case "preset": .preset
      case "none": HVTPreviewOutput.none
      case "window": .window(title: "hvtcam \(arguments.command)")
      default: throw UsageError("\(command): --preview must be one of preset, none, window, not '\(name)'")
      }
    }
  }

  /// With `--verbose`, prints each bus message of the controller's pipeline on stderr as it arrives:
  /// seconds since the command started, type, element path, details.
  func relayBusMessages(of controller: HVTCameraController) {
    guard verbose else { return }
    let messages = controller.busMessages
    let start = Date()
    busRelays.enter()
    Task.detached {
      for await message in messages {
        let time = String(format: "%8.3f", message.date.timeIntervalSince(start))
        Console.error("\(time) \(message)")
      }
      busRelays.leave()
    }
  }

  /// The preset `--preset` names, by name so that the user's default.json, if any, replaces the built-in
  /// a controller starts with.
  func loadPreset() throws -> HVTPreset { try HVTPreset.named(preset ?? "default") }

  /// A controller configured with these options, with `preset` when already loaded (``loadPreset()``).
  func makeController(mode: HVTCameraController.CameraCaptureMode, preset: HVTPreset? = nil) throws
    -> HVTCameraController
  {
    let controller = try HVTCameraController(source: source)
    controller.preset = try preset ?? loadPreset()
    controller.cameraDevice = device
    if let quality { controller.videoQuality = quality }
    controller.videoSize = videoSize
    controller.photoSize = photoSize
    if let preRoll { controller.preRollDuration = preRoll }
    if let microphone { controller.microphone = try Self.microphone(named: microphone) }
    // The command line shows no window unless asked (hvtcam run asks): the preset's sink by default.
    controller.previewOutput = preview ?? .preset
    controller.location = location
    controller.mediaTags = tags
    if keepsEveryFrame { controller.slowEncoderPolicy = .keepEveryFrame }
    if let startTimeout { controller.startTimeout = startTimeout }
    if let stallTimeout { controller.cameraStallTimeout = stallTimeout }
    // photo and record take no input: a window shows the camera only (hvtcam run turns the controls on).
    controller.showsCameraControls = false
    if mode == .video { try controller.setMediaTypes([.image, .movie]) }
    controller.cameraCaptureMode = mode
    return controller
  }

  /// Presents the controller (waiting for its first frames, within its ``HVTCameraController/startTimeout``),
  /// runs `body`, and dismisses it — also when `body` throws — waiting until the camera has stopped, so
  /// that the bus messages of a failed start are handled (relayed by --verbose, dumped to
  /// GST_DEBUG_DUMP_DOT_DIR) while the controller is still there.
  func withPresented<Value>(
    _ controller: HVTCameraController, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Value
  ) async throws -> Value {
    relayBusMessages(of: controller)
    do {
      try await controller.presentAndWait()
      let value = try await body()
      await controller.dismissAndWait()
      return value
    } catch {
      await controller.dismissAndWait()
      throw error
    }
  }
}
