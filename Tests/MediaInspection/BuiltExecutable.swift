import Foundation

/// The executables this package builds (`hvtcam`, `hvtcam-bench`), found the way a test bundle that
/// depends on them sees them, to be run as child processes.
public enum BuiltExecutable {
  /// Where the executable `name` is: the path in the environment variable `variable`, when set; else
  /// next to the test bundle (`.build/<triple>/<config>/`, where `swift build --build-tests` links it
  /// when the test target depends on it); else `.build/debug/<name>` in the package.
  public static func find(_ name: String, overriddenBy variable: String) throws -> URL {
    var candidates: [URL] = []
    if let override = ProcessInfo.processInfo.environment[variable] {
      candidates.append(URL(fileURLWithPath: override))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
    candidates.append(
      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent(name))
    let package = URL(fileURLWithPath: #filePath)  // Tests/MediaInspection/BuiltExecutable.swift
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(package.appendingPathComponent(".build/debug/\(name)"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw TestFailure("no \(name) executable; looked at \(candidates.map(\.path)); run `swift build --build-tests`")
    }
    return found
  }
}
