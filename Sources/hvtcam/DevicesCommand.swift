import Foundation
import HVTCamera

/// `hvtcam devices`: lists the cameras `GstDeviceMonitor` finds — in a Flatpak sandbox or with
/// `HVT_CAMERA_PORTAL=1`, those of the Camera portal — (and the simulated camera when enabled) with their
/// name, device node, API, position, flash and capture modes, as text or as JSON.
enum DevicesCommand {
  static let parser = CommandLineParser(
    command: "devices",
    summary: """
      Lists the cameras, with their positions, flash and capture modes, then the microphones (PulseAudio's \
      and ALSA's Audio/Source devices, which record --microphone takes by name). Cameras come from GStreamer's \
      device monitor (class Video/Source: V4L2, libcamera and PipeWire devices); for each it prints the \
      name, position (rear, front, or none), API, device node, source element, flash, and the capture \
      modes grouped per format and size. The simulated camera is listed too with --simulated or \
      HVT_CAMERA_SOURCE=simulated. Positions are per source: the simulated camera has its own rear and \
      front; of the real cameras the first two device nodes are rear and front, the others are reached \
      with --device /dev/videoN. With no camera it says so and exits 0.

      In a Flatpak sandbox (/.flatpak-info exists), or with HVT_CAMERA_PORTAL=1, the real cameras are \
      those of the Camera portal (org.freedesktop.portal.Camera: AccessCamera, then OpenPipeWireRemote), \
      opened with pipewiresrc fd=N target-object=SERIAL (N is this process's connection, so that line \
      does not work pasted into a shell); HVT_CAMERA_PORTAL=0 never uses the portal. When the portal \
      refuses (access denied, no camera present, no portal) it says why and exits 1.

      --json prints one JSON document (keys sorted; absent values are null):
        {"version": 1, "cameras": [{"name": "…", "id": "v4l2:usb-0000:00:14.0-6", "position": "rear"|"front"|null, "api": "v4l2"|"libcamera"|
          "pipewire"|"simulated"|…, "path": "/dev/video0"|null, "source": "v4l2src device=/dev/video0",
          "flash": true|false, "available": true|false, "error": "…"|null, "caps": "…",
          "modes": [{"format": "MJPEG", "width": {"min": 1920, "max": 1920}, "height": {"min": 1080,
            "max": 1080}, "frameRates": ["30/1", "15/1"], "frameRateRange": null|{"min": "1/1", "max":
            "30/1"}, "text": "MJPEG 1920x1080 @ 30, 15 fps"}]}],
         "microphones": [{"name": "…", "api": "pulse"|"alsa"|…, "source": "pulsesrc device=…"}]}
      frameRates lists discrete rates fastest first (empty when the mode has a range or does not say);
      frameRateRange is set for a range of rates.
      """,
    options: [
      .init(names: ["--json"], valueName: nil, help: "Print the JSON document described above."),
      .init(
        names: ["--simulated"], valueName: nil,
        help: "Also list the simulated camera (as HVT_CAMERA_SOURCE=simulated does)."),
    ])

  /// The version of the JSON document's shape; raised when a key changes meaning or disappears.
  static let jsonVersion = 1

  static func run(_ arguments: ParsedArguments) throws {
    let cameras = try HVTCameraDeviceInfo.availableCameras(includingSimulated: arguments.flag("--simulated"))
    let microphones = HVTCameraController.availableMicrophones()
    if arguments.flag("--json") {
      let listed = microphones.map { ["name": $0.name, "api": $0.api, "source": $0.source.launchText] }
      let data = try JSONSerialization.data(
        withJSONObject: ["version": jsonVersion, "cameras": cameras.map(json), "microphones": listed] as [String: Any],
        options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      Console.out(String(decoding: data, as: UTF8.self))
      return
    }
    if cameras.isEmpty {
      Console.out(
        "No cameras found: GStreamer's device monitor lists no Video/Source device. "
          + "Use --simulated or HVT_CAMERA_SOURCE=simulated to list the simulated camera.")
    } else {
      Console.out(cameras.map(text).joined(separator: "\n"))
    }
    for microphone in microphones {
      Console.out("microphone: \(microphone.name)\n  api: \(microphone.api)\n  source: \(microphone.source.launchText)")
    }
  }

  /// One camera as readable text: a heading with its position and name, then one line per fact and one
  /// line per capture mode (formats padded to one width, so sizes line up).
  static func text(_ camera: HVTCameraDeviceInfo) -> String {
    var lines = ["\(camera.assignedPosition?.rawValue ?? "camera"): \(camera.name)"]
    lines.append("  id: \(camera.uniqueID)")
    lines.append("  api: \(camera.api)")
    lines.append("  path: \(camera.path ?? "none")")
    lines.append("  source: \(camera.sourceLaunchText)")
    if camera.assignedPosition == nil, let path = camera.path { lines.append("  use: --device \(path)") }
    lines.append("  flash: \(camera.hasFlash ? "yes" : "no")")
    if let reason = camera.unavailableReason { lines.append("  status: unavailable: \(reason)") }
    let modes = camera.modes
    if modes.isEmpty {
      lines.append("  modes: none listed (caps: \(camera.caps))")
    } else {
      lines.append("  modes:")
      let width = modes.map(\.format.count).max() ?? 0
      for mode in modes {
        let format = mode.format.padding(toLength: width, withPad: " ", startingAt: 0)
        lines.append("    \(format) \(mode.sizeText) @ \(mode.frameRatesText)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// One camera as a JSON object (see the help for its shape).
  static func json(_ camera: HVTCameraDeviceInfo) -> [String: Any] {
    [
      "name": camera.name,
      "id": camera.uniqueID,
      "position": camera.assignedPosition?.rawValue ?? NSNull(),
      "api": camera.api,
      "path": camera.path ?? NSNull(),
      "source": camera.sourceLaunchText,
      "flash": camera.hasFlash,
      "available": camera.unavailableReason == nil,
      "error": camera.unavailableReason ?? NSNull(),
      "caps": camera.caps,
      "modes": camera.modes.map(json),
    ]
  }

  /// One capture mode as a JSON object.
  static func json(_ mode: HVTCaptureMode) -> [String: Any] {
    let (rates, range): ([String], Any) =
      switch mode.frameRates {
      case .discrete(let rates): (rates.map(\.description), NSNull())
      case .range(let min, let max): ([], ["min": min.description, "max": max.description])
      }
    return [
      "format": mode.format,
      "width": ["min": mode.width.lowerBound, "max": mode.width.upperBound],
      "height": ["min": mode.height.lowerBound, "max": mode.height.upperBound],
      "frameRates": rates,
      "frameRateRange": range,
      "text": mode.description,
    ]
  }
}
