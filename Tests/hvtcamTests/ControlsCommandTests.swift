import Foundation
import MediaInspection
import Testing

/// `hvtcam controls` on the simulated camera: listing, setting values that the next capture takes on,
/// refusals and `--reset`. A V4L2 camera's controls are tested on vivid (the real-camera tier).
@Suite("hvtcam controls", .timeLimit(.minutes(2)))
struct ControlsCommandTests {
  @Test("--json lists the four controls; values set are kept and the next hvtcam photo shows them; --reset")
  func setKeepReset() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let environment = HVTCam.environment(setting: ["XDG_CONFIG_HOME": directory.path("config")])
    let listed = try await HVTCam.run(["controls", "--device", "simulated", "--json"], environment: environment)
    #expect(listed.succeeded, "\(listed)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
    let camera = try #require(document["camera"] as? [String: Any])
    #expect(camera["id"] as? String == "simulated:rear" && camera["path"] is NSNull, "\(camera)")
    let controls = try #require(document["controls"] as? [[String: Any]])
    #expect(controls.compactMap { $0["name"] as? String } == ["brightness", "contrast", "saturation", "zoom_absolute"])
    #expect((document["kept"] as? [String: Any])?.isEmpty == true)

    let set = try await HVTCam.run(
      ["controls", "--device", "simulated", "zoom_absolute=300"], environment: environment)
    #expect(set.succeeded && set.outputLines.contains("  zoom_absolute = 300 (100…400, default 100)"), "\(set)")
    let photo = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["-o", directory.path("zoomed.jpg")], environment: environment)
    #expect(photo.succeeded, "\(photo)")
    // Three times the zoom shows x 213…427 of the bars: cyan at the left edge, magenta at the right.
    let image = try await RGBImage.decode(directory.path("zoomed.jpg"), width: 640, height: 480)
    #expect([image.colourName(20, 160), image.colourName(620, 160)] == ["cyan", "magenta"])

    let reset = try await HVTCam.run(["controls", "--device", "simulated", "--reset"], environment: environment)
    #expect(reset.succeeded && reset.outputLines.contains("  zoom_absolute = 100 (100…400, default 100)"), "\(reset)")
    let kept = try String(contentsOfFile: directory.path("config/hvtcam/controls.json"), encoding: .utf8)
    #expect(!kept.contains("simulated:rear"), "\(kept)")
  }

  @Test("a value the control does not take: exit 1, the camera, the control and the range in the message")
  func refused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let environment = HVTCam.environment(setting: ["XDG_CONFIG_HOME": directory.path("config")])
    let result = try await HVTCam.run(
      ["controls", "--device", "simulated", "zoom_absolute=50"], environment: environment)
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(
      result.standardError.contains("simulated:rear does not take zoom_absolute=50: it takes 100…400"), "\(result)")
  }

  @Test("12 writers at once, 20 rounds: every value each kept is there, and another camera's values too")
  func concurrentWriters() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let environment = HVTCam.environment(setting: ["XDG_CONFIG_HOME": directory.path("config")])
    let file = directory.path("config/hvtcam/controls.json")
    try FileManager.default.createDirectory(atPath: directory.path("config/hvtcam"), withIntermediateDirectories: true)
    let controls = ["brightness", "contrast", "saturation", "zoom_absolute"]
    for round in 1...20 {
      // Values kept for another camera before the round: no writer may lose them.
      try #"{"version": 1, "cameras": {"v4l2:usb-other": {"brightness": 7}}}"#.write(
        toFile: file, atomically: true, encoding: .utf8)
      // Twelve writers, three for each control of the simulated rear camera, each with a value of its own.
      let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
        for writer in 0..<12 {
          let name = controls[writer % 4]
          let value = 100 + writer
          group.addTask {
            try await HVTCam.run(["controls", "--device", "simulated", "\(name)=\(value)"], environment: environment)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for result in results { #expect(result.succeeded, "round \(round): \(result)") }
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
      let cameras = try #require(document["cameras"] as? [String: [String: Int]], "round \(round): \(document)")
      #expect(cameras["v4l2:usb-other"] == ["brightness": 7], "round \(round): \(cameras)")
      let kept = cameras["simulated:rear"] ?? [:]
      #expect(Set(kept.keys) == Set(controls), "round \(round): a writer's value was lost: \(kept)")
      for (index, name) in controls.enumerated() {
        let written = Set([index, index + 4, index + 8].map { 100 + $0 })
        #expect(kept[name].map(written.contains) == true, "round \(round): \(name) = \(String(describing: kept[name]))")
      }
    }
  }

  @Test("a controls file that is a folder, or not its JSON: exit 1 naming the path and why, and nothing replaced")
  func unusableFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let environment = HVTCam.environment(setting: ["XDG_CONFIG_HOME": directory.path("config")])
    let file = directory.path("config/hvtcam/controls.json")
    try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
    let folder = try await HVTCam.run(
      ["controls", "--device", "simulated", "zoom_absolute=300"], environment: environment)
    #expect(!folder.signalled && folder.status == 1, "\(folder)")
    #expect(folder.standardError.contains("could not read \(file): not a file"), "\(folder)")
    #expect(!folder.standardError.contains("NSCocoaErrorDomain"), "\(folder)")

    try FileManager.default.removeItem(atPath: file)
    let mine = "my notes, not JSON\n"
    try mine.write(toFile: file, atomically: true, encoding: .utf8)
    let garbled = try await HVTCam.run(
      ["controls", "--device", "simulated", "zoom_absolute=300"], environment: environment)
    #expect(!garbled.signalled && garbled.status == 1, "\(garbled)")
    #expect(
      garbled.standardError.contains("could not read \(file): not a controls file HVTCamera can read"), "\(garbled)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == mine, "the file is left as it was")
  }
}
