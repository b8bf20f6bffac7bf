import Foundation
import MediaInspection
import Testing

@Suite("hvtcam devices")
struct DevicesCommandTests {
  /// The environment with the simulated camera enabled.
  static let simulated = HVTCam.environment(setting: ["HVT_CAMERA_SOURCE": "simulated"])
  /// The environment without `HVT_CAMERA_SOURCE`: only real cameras.
  static let realOnly = HVTCam.environment(removing: ["HVT_CAMERA_SOURCE"])

  /// The lines of one camera's entry in the text output, from its heading to the next heading.
  func entry(_ heading: String, in lines: [String]) -> [String] {
    guard let start = lines.firstIndex(of: heading) else { return [] }
    let rest = lines[(start + 1)...]
    return [heading] + rest.prefix { $0.hasPrefix(" ") }
  }

  @Test(
    "HVT_CAMERA_SOURCE=simulated: rear and front with their patterns, the flash on the rear, their modes",
    .timeLimit(.minutes(1)))
  func simulatedText() async throws {
    let result = try await HVTCam.run(["devices"], environment: Self.simulated)
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    let rear = entry("rear: Simulated rear camera (videotestsrc pattern=smpte)", in: result.outputLines)
    let front = entry("front: Simulated front camera (videotestsrc pattern=ball)", in: result.outputLines)
    try #require(!rear.isEmpty && !front.isEmpty, "\(result)")
    #expect(rear.contains("  api: simulated"))
    #expect(rear.contains("  id: simulated:rear") && front.contains("  id: simulated:front"), "\(rear) \(front)")
    #expect(rear.contains("  source: videotestsrc is-live=true pattern=smpte"))
    #expect(front.contains("  source: videotestsrc is-live=true pattern=ball"))
    #expect(rear.contains("  flash: yes"), "\(rear)")
    #expect(front.contains("  flash: no"), "\(front)")
    for camera in [rear, front] {
      #expect(camera.contains("  path: none"))
      #expect(camera.contains("  modes:"))
      #expect(
        camera.contains { $0.hasPrefix("    I420 ") && $0.hasSuffix(" 16x16 to 3840x2160 @ 1 to 30 fps") }, "\(camera)")
      #expect(camera.contains { $0.hasPrefix("    YUY2 ") })
    }
  }

  @Test("--simulated lists the simulated camera without the environment variable", .timeLimit(.minutes(1)))
  func simulatedFlag() async throws {
    let result = try await HVTCam.run(["devices", "--simulated"], environment: Self.realOnly)
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines.contains("rear: Simulated rear camera (videotestsrc pattern=smpte)"), "\(result)")
    #expect(result.outputLines.contains("front: Simulated front camera (videotestsrc pattern=ball)"), "\(result)")
  }

  @Test("--json: one document with the documented keys, parsed by JSONSerialization", .timeLimit(.minutes(1)))
  func json() async throws {
    let result = try await HVTCam.run(["devices", "--json"], environment: Self.simulated)
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result)")
    #expect(Set(document.keys) == ["version", "cameras", "microphones"])
    // Each microphone listed (none without a PulseAudio server or an ALSA capture node) has its three keys.
    let microphones = try #require(document["microphones"] as? [[String: String]])
    #expect(microphones.allSatisfy { Set($0.keys) == ["name", "api", "source"] }, "\(microphones)")
    #expect(document["version"] as? Int == 1)
    let cameras = try #require(document["cameras"] as? [[String: Any]])
    let cameraKeys: Set = [
      "name", "id", "position", "api", "path", "source", "flash", "available", "error", "caps", "modes",
    ]
    let modeKeys: Set = ["format", "width", "height", "frameRates", "frameRateRange", "text"]
    for camera in cameras {
      #expect(Set(camera.keys) == cameraKeys, "\(camera.keys.sorted())")
      for mode in try #require(camera["modes"] as? [[String: Any]]) {
        #expect(Set(mode.keys) == modeKeys, "\(mode.keys.sorted())")
        let width = try #require(mode["width"] as? [String: Int])
        #expect(Set(width.keys) == ["min", "max"])
      }
    }
    let simulated = cameras.filter { $0["api"] as? String == "simulated" }
    try #require(simulated.count == 2, "\(cameras)")
    #expect(simulated.map { $0["position"] as? String } == ["rear", "front"])
    #expect(simulated.map { $0["flash"] as? Bool } == [true, false])
    #expect(simulated.map { $0["id"] as? String } == ["simulated:rear", "simulated:front"])
    #expect(simulated.allSatisfy { $0["path"] is NSNull && $0["error"] is NSNull && $0["available"] as? Bool == true })
    #expect((simulated[0]["source"] as? String)?.hasSuffix("pattern=smpte") == true)
    #expect((simulated[1]["source"] as? String)?.hasSuffix("pattern=ball") == true)
    let i420 = try #require((simulated[0]["modes"] as? [[String: Any]])?.first { $0["format"] as? String == "I420" })
    #expect(i420["width"] as? [String: Int] == ["min": 16, "max": 3840])
    #expect(i420["height"] as? [String: Int] == ["min": 16, "max": 2160])
    #expect(i420["frameRates"] as? [String] == [])
    #expect(i420["frameRateRange"] as? [String: String] == ["min": "1/1", "max": "30/1"])
    #expect(i420["text"] as? String == "I420 16x16 to 3840x2160 @ 1 to 30 fps")
  }

  @Test(
    "without any camera: says so in one line and exits 0; --json gives an empty list",
    .timeLimit(.minutes(1)), .enabled(if: !hasVideoDevices))
  func noCamera() async throws {
    let result = try await HVTCam.run(["devices"], environment: Self.realOnly)
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines.count == 1, "\(result)")
    #expect(result.standardOutput.hasPrefix("No cameras found"), "\(result)")
    #expect(result.standardOutput.contains("HVT_CAMERA_SOURCE=simulated"), "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    let json = try await HVTCam.run(["devices", "--json"], environment: Self.realOnly)
    #expect(json.succeeded, "\(json)")
    let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    #expect((document?["cameras"] as? [Any])?.isEmpty == true, "\(json)")
  }

  @Test("--help documents the JSON shape; an unknown option is a usage error", .timeLimit(.minutes(1)))
  func helpAndUsage() async throws {
    let help = try await HVTCam.run(["devices", "--help"])
    #expect(help.succeeded, "\(help)")
    #expect(help.standardOutput.hasPrefix("usage: hvtcam devices [--json] [--simulated]"), "\(help)")
    for key in ["\"version\"", "\"cameras\"", "\"position\"", "\"flash\"", "\"modes\"", "\"frameRateRange\""] {
      #expect(help.standardOutput.contains(key), "\(key) missing from the help")
    }
    let wrong = try await HVTCam.run(["devices", "--bogus"])
    #expect(!wrong.signalled && wrong.status == 64, "\(wrong)")
    #expect(wrong.errorLines.count == 1 && wrong.standardError.contains("--bogus"), "\(wrong)")
    #expect(wrong.standardOutput.isEmpty, "\(wrong)")
  }
}
