import Foundation
import MediaInspection
import Testing

@Suite("glibc's allocator: the mmap threshold, and arenas trimmed")
struct AllocatorPolicyTests {
  /// Runs `hvtcam photo` with the engine's decisions logged, and returns the log lines about the threshold.
  static func thresholdLines(setting: [String: String]) async throws -> [String] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let lines = try await engineLines(["photo"] + HVTCam.simulated + ["-o", path], in: directory, setting: setting)
    try await expectJPEG(at: path)
    return lines.filter { $0.contains("mmap threshold") }
  }

  /// Runs hvtcam with `arguments` and the engine's debug log on; returns the engine's log lines.
  static func engineLines(
    _ arguments: [String], in directory: TemporaryDirectory, setting: [String: String] = [:]
  ) async throws -> [String] {
    let result = try await HVTCam.run(
      arguments,
      environment: HVTCam.environment(
        configHome: directory.url,
        setting: setting.merging(["GST_DEBUG": "hvtcamera:5", "GST_DEBUG_NO_COLOR": "1"]) { $1 }))
    #expect(result.succeeded, "\(result)")
    return result.errorLines.filter { $0.contains(" hvtcamera ") }
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

  @Test(
    "a finished recording, then the closed camera, give malloc's free memory back (malloc_trim), in that order",
    .timeLimit(.minutes(1)))
  func arenasTrimmed() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("clip.mp4")
    let lines = try await Self.engineLines(
      ["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path], in: directory)
    try await expectMovie(at: path, codec: "H.264")
    let trims = lines.compactMap { line in
      line.range(of: "malloc_trim after ").map { String(line[$0.upperBound...].prefix { $0 != ":" }) }
    }
    #expect(trims == ["the recording branch", "the camera pipeline"], "\(lines.suffix(20))")
  }
}
