import Foundation
import Testing

/// The `hvtcam` executable built with this test bundle, run as a child process.
enum HVTCam {
  /// Where `hvtcam` is: next to the test bundle (`.build/<triple>/<config>/`, where `swift build
  /// --build-tests` links it because this target depends on it), else `.build/debug/hvtcam` in the package.
  /// `HVTCAM_EXECUTABLE` overrides both.
  static func executable() throws -> URL {
    var candidates: [URL] = []
    if let override = ProcessInfo.processInfo.environment["HVTCAM_EXECUTABLE"] {
      candidates.append(URL(fileURLWithPath: override))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("hvtcam"))
    candidates.append(
      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("hvtcam"))
    let package = URL(fileURLWithPath: #filePath)  // Tests/hvtcamTests/Support/HVTCam.swift
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(package.appendingPathComponent(".build/debug/hvtcam"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw TestFailure("no hvtcam executable; looked at \(candidates.map(\.path)); run `swift build --build-tests`")
    }
    return found
  }

  /// This process's environment with `setting` added and `removing` taken out.
  static func environment(setting: [String: String] = [:], removing: [String] = []) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    // A hung hvtcam is sent SIGABRT (``Subprocess/hangLimit``): every thread's stack, no prompt.
    environment["SWIFT_BACKTRACE"] = "enable=yes,threads=all,interactive=no"
    for name in removing { environment[name] = nil }
    environment.merge(setting) { _, new in new }
    return environment
  }

  /// Runs `hvtcam arguments` to the end.
  static func run(_ arguments: [String], environment: [String: String] = environment()) async throws -> ProcessResult {
    try await Subprocess.run(executable(), arguments, environment: environment)
  }

  /// Starts `hvtcam arguments` and returns while it runs.
  static func start(_ arguments: [String], environment: [String: String] = environment()) throws -> Subprocess {
    try Subprocess(executable(), arguments, environment: environment)
  }

  /// The capture options every test uses: the simulated camera at 640x480 (small, so that the whole
  /// target runs quickly on two cores).
  static let simulated = ["--device", "simulated", "--quality", "640x480"]
}

/// A fresh, empty directory for one test, removed by `remove()`.
struct TemporaryDirectory {
  /// The directory to use.
  let url: URL
  /// The directory made for this test (`url` or its parent).
  private let root: URL

  /// Creates `…/hvtcamTests-<random>/`, or `…/hvtcamTests-<random>/<subdirectory>/` when given.
  init(_ subdirectory: String? = nil) throws {
    var url = FileManager.default.temporaryDirectory
      .appendingPathComponent("hvtcamTests-\(UUID().uuidString.prefix(8))", isDirectory: true)
    root = url
    if let subdirectory { url.appendPathComponent(subdirectory, isDirectory: true) }
    self.url = url
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The path of `name` in this directory.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// The names of the files in this directory, sorted (hidden ones included).
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  /// Deletes the directory and everything in it.
  func remove() {
    try? FileManager.default.removeItem(at: root)
  }
}

/// A test precondition that did not hold.
struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A file name with every character that needs quoting somewhere: spaces, both quotes, `!`, `=` and a
/// non-ASCII letter (the launch parser, the shell and the file system each see it differently).
let awkwardName = "it's a \"test\" ! =ü"

/// A directory name with a space.
let awkwardDirectory = "with space"
