import Foundation
import MediaInspection
import Testing

/// A wrong command line and a word its one-line message must contain.
struct UsageCase: Sendable, CustomTestStringConvertible {
  let arguments: [String]
  let mentions: String
  var testDescription: String { "hvtcam " + arguments.joined(separator: " ") }
}

@Suite("hvtcam usage")
struct UsageTests {
  static let usageErrors = [
    UsageCase(arguments: ["photo", "--bogus"], mentions: "--bogus"),
    UsageCase(arguments: ["record", "--frames", "3"], mentions: "--frames"),
    UsageCase(arguments: ["photo", "--quality", "huge"], mentions: "huge"),
    UsageCase(arguments: ["record", "--quality", "720p"], mentions: "720p"),
    UsageCase(arguments: ["photo", "--count", "0"], mentions: "--count"),
    UsageCase(arguments: ["photo", "--count", "three"], mentions: "three"),
    UsageCase(arguments: ["photo", "--count"], mentions: "--count"),
    UsageCase(arguments: ["record", "--max-duration", "0"], mentions: "--max-duration"),
    UsageCase(arguments: ["record", "--max-duration", "-5"], mentions: "-5"),
    UsageCase(arguments: ["record", "--max-duration", "soon"], mentions: "soon"),
    UsageCase(arguments: ["frobnicate"], mentions: "frobnicate"),
    UsageCase(arguments: ["photo", "--device", "bogus"], mentions: "bogus"),
    UsageCase(arguments: ["record", "--device", "bogus"], mentions: "bogus"),
    UsageCase(arguments: ["describe", "--device", "bogus"], mentions: "bogus"),
    UsageCase(arguments: ["describe", "--mode", "panorama"], mentions: "panorama"),
  ]

  @Test("a wrong command line exits 64 with one line on stderr", .timeLimit(.minutes(2)), arguments: usageErrors)
  func usageError(_ usage: UsageCase) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // `-o DIR/out` right after the command, so that a wrongly accepted command line leaves a file to notice.
    let arguments = usage.arguments.prefix(1) + ["-o", directory.path("out")] + usage.arguments.dropFirst()
    let result = try await HVTCam.run(Array(arguments))
    #expect(!result.signalled && result.status == 64, "\(result)")
    #expect(result.errorLines.count == 1, "\(result)")
    #expect(result.standardError.hasSuffix("\n"), "\(result)")
    #expect(result.standardError.contains(usage.mentions), "\(result)")
    #expect(result.standardOutput.isEmpty, "\(result)")
    #expect(try directory.contents().isEmpty, "a usage error wrote something")
  }

  @Test(
    "COMMAND --help exits 0 and prints the command's usage", .timeLimit(.minutes(2)),
    arguments: ["photo", "record", "describe", "demo"])
  func commandHelp(_ command: String) async throws {
    for flag in ["--help", "-h"] {
      let result = try await HVTCam.run([command, flag])
      #expect(result.succeeded, "\(result)")
      #expect(result.standardOutput.hasPrefix("usage: hvtcam \(command) "), "\(result)")
      #expect(result.standardOutput.contains("-o, --output PATH"), "\(result)")
      #expect(result.standardError.isEmpty, "\(result)")
    }
  }

  @Test("hvtcam --help exits 0 and lists the commands", .timeLimit(.minutes(2)))
  func overview() async throws {
    let result = try await HVTCam.run(["--help"])
    #expect(result.succeeded, "\(result)")
    #expect(result.standardOutput.hasPrefix("usage: hvtcam COMMAND"), "\(result)")
    for command in ["photo", "record", "describe", "demo", "presets", "graph", "devices", "repair"] {
      #expect(result.outputLines.contains { $0.hasPrefix("  \(command) ") }, "\(command) missing:\n\(result)")
    }
    #expect(result.standardError.isEmpty, "\(result)")
  }

  @Test(
    "hvtcam --help shows the first sentence of each command's summary in full", .timeLimit(.minutes(2)),
    arguments: ["photo", "record", "describe", "demo", "presets", "graph", "devices", "repair"])
  func overviewSummary(_ command: String) async throws {
    let help = try await HVTCam.run([command, "--help"])
    let paragraphs = help.standardOutput.components(separatedBy: "\n\n")
    try #require(paragraphs.count >= 3, "\(help)")
    // The summary's first sentence ends at a period followed by a space, or at the end of the summary
    // ("H.264" and "gst-launch-1.0" do not end it).
    let summary = paragraphs[1].replacingOccurrences(of: "\n", with: " ")
    let sentence = summary.range(of: ". ").map { String(summary[..<$0.lowerBound]) + "." } ?? summary
    let overview = try await HVTCam.run(["--help"])
    let line = try #require(overview.outputLines.first { $0.hasPrefix("  \(command) ") }, "\(overview)")
    let shown = line.dropFirst(2 + command.count).trimmingCharacters(in: .whitespaces)
    #expect(shown == sentence)
  }

  @Test("the hvtcam under test is the one built next to this test bundle")
  func executableIsBuiltWithTheTests() throws {
    let executable = try HVTCam.executable()
    #expect(executable.deletingLastPathComponent().standardizedFileURL == Bundle.main.bundleURL.standardizedFileURL)
  }
}
