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
}
