import Foundation
import MediaInspection
import Testing

@Suite("glibc's mmap threshold")
struct AllocatorPolicyTests {
  /// Runs `hvtcam photo` with the engine's decisions logged, and returns the log lines about the threshold.
  static func thresholdLines(setting: [String: String]) async throws -> [String] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let result = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["-o", path],
      environment: HVTCam.environment(
        configHome: directory.url,
        setting: setting.merging(["GST_DEBUG": "hvtcamera:4", "GST_DEBUG_NO_COLOR": "1"]) { $1 }))
    #expect(result.succeeded, "\(result)")
    try await expectJPEG(at: path)
    return result.errorLines.filter { $0.contains(" hvtcamera ") && $0.contains("mmap threshold") }
  }

  @Test("the first controller pins the threshold at glibc's default", .timeLimit(.minutes(1)))
  func pinned() async throws {
    let lines = try await Self.thresholdLines(setting: [:])
    #expect(lines.count == 1 && lines[0].hasSuffix("glibc mmap threshold pinned at 131072 bytes"), "\(lines)")
  }

  @Test("MALLOC_MMAP_THRESHOLD_ in the environment wins: the engine leaves it alone", .timeLimit(.minutes(1)))
  func environmentWins() async throws {
    let lines = try await Self.thresholdLines(setting: ["MALLOC_MMAP_THRESHOLD_": "262144"])
    #expect(lines.isEmpty, "\(lines)")
  }
}
