import Foundation
import MediaInspection
import PipeWireHarness
import Testing

/// `hvtcam` on a virtual microphone published into a private PipeWire and served by its PulseAudio
/// server (`pipewire-pulse`), as a desktop's microphones are: listed by `devices`. (Recording from it
/// here gives no sound: the private graph has no audio device to drive it; recording from a chosen
/// microphone is tested in `AudioRecordingTests`.)
@Suite(
  "hvtcam on a PipeWire microphone", .timeLimit(.minutes(2)),
  .enabled(
    if: PrivatePipeWire.unavailableReason == nil && PrivatePipeWire.pulseUnavailableReason == nil,
    "\(PrivatePipeWire.unavailableReason ?? PrivatePipeWire.pulseUnavailableReason ?? "")"))
struct MicrophoneCommandTests {
  @Test("devices lists the microphone PipeWire serves through pipewire-pulse; --microphone takes only a listed name")
  func listMicrophone() async throws {
    let pipewire = try await PrivatePipeWire.start()
    defer { pipewire.stop() }
    try await pipewire.startPulse()
    try await pipewire.publishMicrophone(named: "HVTMicrophone", frequency: 880)
    let listing = try await HVTCam.run(["devices", "--json"], environment: pipewire.environment)
    let document = try JSONSerialization.jsonObject(with: Data(listing.standardOutput.utf8)) as? [String: Any]
    let microphones = try #require(document?["microphones"] as? [[String: String]], "\(listing)")
    let listed = try #require(microphones.first { $0["name"] == "HVTMicrophone" }, "\(listing)")
    #expect(listed["api"] == "pulse" && listed["source"]?.hasPrefix("pulsesrc device=") == true, "\(listed)")
    let text = try await HVTCam.run(["devices"], environment: pipewire.environment)
    #expect(
      text.outputLines.contains("microphone: HVTMicrophone") && text.outputLines.contains("  api: pulse"), "\(text)")

    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let unknown = try await HVTCam.run(
      ["record"] + HVTCam.simulated + ["--microphone", "Nobody", "-o", directory.path("never.mp4")],
      environment: pipewire.environment)
    #expect(unknown.status == 64 && unknown.standardError.contains("HVTMicrophone"), "\(unknown)")
    #expect(try directory.contents().isEmpty)
  }
}
