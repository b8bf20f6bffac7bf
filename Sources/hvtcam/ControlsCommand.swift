import Foundation
import HVTCamera

/// `hvtcam controls`: lists a camera's controls (V4L2: brightness, contrast, exposure, white balance,
/// focus, zoom…; the simulated camera's four) with their ranges, defaults and values, sets some, or resets them; values set are kept
/// per camera and applied again whenever HVTCamera opens it.
enum ControlsCommand {
  static let parser = CommandLineParser(
    command: "controls",
    summary: """
      Lists a camera's controls with their values, ranges and defaults, or sets them (NAME=VALUE, while \
      the camera runs or not). Values set are kept per camera, by its stable ID, in \
      $XDG_CONFIG_HOME/hvtcam/controls.json, and applied again each time HVTCamera opens that camera, \
      after an unplug or a restart too. --reset sets every control to its default and forgets the kept \
      values. V4L2 cameras have the driver's controls; the simulated camera models brightness, \
      contrast, saturation and zoom_absolute (its path is null).

      --json prints {"version": 1, "camera": {"id": "…", "path": "/dev/video0"}, "controls": [{"name": \
      "brightness", "title": "Brightness", "type": "integer"|"boolean"|"menu"|"button", "minimum": 0, \
      "maximum": 255, "step": 1, "menu": [{"value": 1, "name": "50 Hz"}], "default": 128, "value": \
      128|null, "readOnly": false, "inactive": false}], "kept": {"brightness": 140}}.
      """,
    options: [
      CameraOptions.device,
      .init(names: ["--json"], valueName: nil, help: "Print the JSON document described above."),
      .init(names: ["--reset"], valueName: nil, help: "Set every control to its default and forget kept values."),
    ],
    operands: "[NAME=VALUE …]")

  static func run(_ arguments: ParsedArguments) throws {
    let options = try CameraOptions(arguments)
    let camera = HVTCameraController.cameras(for: options.source).first { $0.position == options.device }
    guard let camera else {
      throw HVTCameraError.cameraDeviceUnavailable(options.device)
    }
    let controls = try HVTCameraControls(camera: camera)
    if arguments.flag("--reset") { try controls.resetToDefaults() }
    for assignment in arguments.operands {
      let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let value = Int64(parts[1]) else {
        throw UsageError("hvtcam controls: '\(assignment)' is not NAME=VALUE with a whole-number VALUE")
      }
      try controls.set(parts[0], to: value)
    }
    let all = try controls.all()
    if arguments.flag("--json") {
      let document: [String: Any] = [
        "version": 1,
        "camera": ["id": controls.cameraID, "path": controls.path.map { $0 as Any } ?? NSNull()] as [String: Any],
        "controls": all.map(json), "kept": controls.store.values(for: controls.cameraID),
      ]
      let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
      Console.out(String(decoding: data, as: UTF8.self))
    } else {
      let place = [controls.path, controls.cameraID].compactMap { $0 }.joined(separator: ", ")
      Console.out(([("\(camera.name) (\(place))")] + all.map { "  \($0)" }).joined(separator: "\n"))
    }
  }

  /// One control as a JSON object (see the help for its shape).
  static func json(_ control: HVTCameraControl) -> [String: Any] {
    var object: [String: Any] = [
      "name": control.name, "title": control.title, "default": control.defaultValue,
      "value": control.value ?? NSNull(), "readOnly": control.isReadOnly, "inactive": control.isInactive,
    ]
    switch control.kind {
    case .integer(let minimum, let maximum, let step):
      object.merge(["type": "integer", "minimum": minimum, "maximum": maximum, "step": step]) { $1 }
    case .boolean:
      object["type"] = "boolean"
    case .menu(let items):
      object["type"] = "menu"
      object["menu"] = items.map { ["value": $0.value, "name": $0.name] as [String: Any] }
    case .button:
      object["type"] = "button"
    }
    return object
  }
}
