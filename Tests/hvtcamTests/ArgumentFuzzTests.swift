import Foundation
import MediaInspection
import Testing

/// Seeded random command lines, built from every command's real options and from hostile values: none
/// may crash or hang `hvtcam`, and every refusal says why.
@Suite("hvtcam under fuzzed arguments", .timeLimit(.minutes(3)))
struct ArgumentFuzzTests {
  static let commands = [
    "photo", "record", "describe", "demo", "presets", "graph", "devices", "repair", "nonsense", "",
  ]
  static let options = [
    "--device", "--quality", "--preset", "--flash", "--count", "--max-duration", "--seconds", "--frames",
    "--mode", "--preview", "-o", "--output", "--overwrite", "-v", "--json", "--simulated", "--recording", "-h",
    "--", "-", "show", "validate",
  ]
  static let values = [
    "simulated", "rear", "front", "/dev/null", "/dev/video99", "640x480", "high", "bogus", "default", "webm-vp8",
    "/nonexistent/p.json", "on", "off", "auto", "photo", "video", "window", "none", "0", "-1", "1", "3", "1e308",
    "nan", "inf", "2e10", "99999999999999999999", "0.05", "", " ", "'", "\"", "!", "=", "ü", "\u{0}",
    String(repeating: "x", count: 5000), "/proc/forbidden/x.jpg",
  ]

  /// One random command line for `seed`.
  static func arguments(seed: UInt64) -> [String] {
    var generator = SplitMix64(seed: seed)
    var words = [commands.randomElement(using: &generator)!]
    for _ in 0..<Int.random(in: 0...6, using: &generator) {
      words.append(
        Bool.random(using: &generator)
          ? options.randomElement(using: &generator)! : values.randomElement(using: &generator)!)
    }
    // Keep runs on the simulated camera, short, and out of the way.
    if ["photo", "record", "demo", "graph"].contains(words[0]), !words.contains("--device") {
      words += ["--device", "simulated"]
    }
    return words.filter { !$0.contains("\u{0}") }
  }

  @Test("60 seeded command lines: no crash, no hang; exit 0, 1 or 64, and a message whenever not 0")
  func fuzz() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let environment = HVTCam.environment(
      setting: ["HVT_CAMERA_SOURCE": "simulated", "XDG_CONFIG_HOME": directory.path("config")],
      removing: ["DISPLAY", "WAYLAND_DISPLAY"])
    for seed in UInt64(1)...60 {
      var arguments = Self.arguments(seed: seed)
      // A recording must end by itself: a short limit unless the fuzz chose one.
      if arguments.first == "record", !arguments.contains("--max-duration") { arguments += ["--max-duration", "0.5"] }
      if arguments.first == "demo", !arguments.contains("--seconds") { arguments += ["--seconds", "0.3"] }
      let process = try Subprocess(
        try HVTCam.executable(), arguments, environment: environment, directory: directory.url)
      let result = try await bounded(seconds: 60, seed: seed, arguments, process)
      #expect(!result.signalled, "seed \(seed): \(arguments) died by a signal: \(result)")
      #expect([0, 1, 64].contains(result.status), "seed \(seed): \(arguments): \(result)")
      if result.status != 0 {
        #expect(!result.standardError.isEmpty, "seed \(seed): \(arguments) failed silently")
        #expect(!result.standardError.contains("Fatal error"), "seed \(seed): \(arguments): \(result)")
      }
    }
  }

  /// The process's result, or a failure naming the seed when it runs longer than `seconds`.
  func bounded(seconds: Double, seed: UInt64, _ arguments: [String], _ process: Subprocess) async throws
    -> ProcessResult
  {
    let watchdog = Task {
      try await Task.sleep(for: .seconds(seconds))
      process.send(SIGKILL)
    }
    let result = await process.result()
    watchdog.cancel()
    if result.signalled && result.status == SIGKILL {
      throw TestFailure("seed \(seed): \(arguments) hung for \(seconds) s: \(result)")
    }
    return result
  }
}
