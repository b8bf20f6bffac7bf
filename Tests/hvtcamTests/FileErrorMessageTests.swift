import Foundation
import MediaInspection
import Testing

/// File errors of `presets validate`, `graph` and `stream --hls`: the path and the system's reason with its errno, never
/// Foundation's own text.
@Suite("hvtcam file errors", .timeLimit(.minutes(2)))
struct FileErrorMessageTests {
  /// Foundation's wording for errors it wraps, which must never reach the user.
  static let foundationWords = ["The operation could not be completed", "NSCocoaErrorDomain", "couldn’t be opened"]

  @Test(
    "presets validate of a folder, or of a missing schema.json: cannot read the file, the reason, its errno",
    arguments: ["folder.json", "missing/schema.json"])
  func presetsValidate(_ name: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
    let path = directory.path(name)
    let result = try await HVTCam.run(
      ["presets", "validate", path], environment: HVTCam.environment(configHome: directory.url))
    #expect(!result.signalled && result.status == 1, "\(result)")
    let reason = name == "folder.json" ? "Is a directory (errno 21)" : "No such file or directory (errno 2)"
    #expect(result.errorLines == ["hvtcam presets: \(path): cannot read the file: \(reason)"], "\(result)")
  }

  @Test(
    "graph -o into a missing folder or onto a folder: could not write, the reason, its errno; nothing written",
    arguments: ["missing/g.dot", "missing/g.svg", "folder.dot"])
  func graph(_ name: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("folder.dot"), withIntermediateDirectories: false)
    let path = directory.path(name)
    let result = try await HVTCam.run(
      ["graph"] + HVTCam.simulated + ["-o", path], environment: HVTCam.environment(configHome: directory.url))
    #expect(!result.signalled && result.status == 1, "\(result)")
    let reason = name == "folder.dot" ? "Is a directory (errno 21)" : "No such file or directory (errno 2)"
    #expect(result.errorLines == ["hvtcam graph: could not write \(path): \(reason)"], "\(result)")
    #expect(result.standardOutput.isEmpty, "\(result)")
    #expect(try directory.contents() == ["folder.dot"])
    for words in Self.foundationWords { #expect(!result.standardError.contains(words), "\(result)") }
  }

  @Test("stream --hls into a path under a file: the folder that cannot be made and why, in words")
  func hlsFolder() async throws {
    let result = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--hls", "/dev/null/sub", "--duration", "1"])
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.standardError.contains("it cannot be made: could not write /dev/null: not a folder"), "\(result)")
    for words in Self.foundationWords { #expect(!result.standardError.contains(words), "\(result)") }
  }
}
