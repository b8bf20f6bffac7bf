import Foundation
import MediaInspection
import Testing

/// HVTCamera as an app sees it: a new Swift 6 package outside this one, depending on it by path, built
/// with SwiftPM and run. Its executables are the app of `Fixtures/AppPackage/Shooter.swift` and every
/// `swift` code block of the README and of the DocC catalog's articles, each as a whole `main.swift`: a
/// documentation example that stops compiling fails here. The package lives in `.build/app-package`, so
/// that a second run builds only what changed.
@Suite("An app's package", .serialized, .timeLimit(.minutes(10)))
struct AppPackageTests {
  @Test("a Swift 6 package depending on HVTCamera, with every documentation example, builds without a warning")
  func builds() async throws {
    let app = try await AppPackage.built.value
    #expect(app.examples.count >= 2, "the README's examples at least: \(app.examples.map(\.target))")
    let warnings = app.buildOutput.split(separator: "\n").filter { $0.contains("warning:") }
    #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
  }

  @Test(
    "the app: a @MainActor delegate gets its photo on the main actor, and dismissAndWait() finalizes the movie still recording"
  )
  func appView() async throws {
    let app = try await AppPackage.built.value
    let output = try TemporaryDirectory()
    defer { output.remove() }
    let result = try await app.run("Shooter", [output.url.path])
    #expect(result.succeeded, "\(result)")
    let lines = result.outputLines
    #expect(lines.first == "ready for capture: true", "\(result)")
    #expect(lines.last == "failures: 0 []", "\(result)")
    let photo = try #require(lines.first { $0.hasPrefix("photo: ") }.map { String($0.dropFirst(7)) })
    #expect(try await MediaInspector.discover(photo).isJPEG)
    let movie = try #require(lines.first { $0.hasPrefix("movie: ") }.map { String($0.dropFirst(7)) })
    #expect(movie.hasSuffix(".mp4") && !movie.contains(".partial"), "\(movie)")
    let probe = try await MediaInspector.probe(movie)
    let duration = try #require(probe.duration)
    #expect(duration >= 1, "\(probe)")
    #expect(probe.decodedFrames == Int((duration * 30).rounded()), "\(probe)")
    let left = try output.contents()
    #expect(left.allSatisfy { !$0.contains(".partial") }, "\(left)")
  }

  @Test("the README's first example, pasted into main.swift, runs and leaves a complete photo behind")
  func readmeExample() async throws {
    let app = try await AppPackage.built.value
    let first = try #require(app.examples.first { $0.source == "README.md" })
    let result = try await app.run(first.target, [])
    #expect(result.succeeded, "\(result)")
    let saved = try #require(result.outputLines.first { $0.hasPrefix("saved ") }.map { String($0.dropFirst(6)) })
    defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: saved).deletingLastPathComponent().path) }
    let photo = try await MediaInspector.discover(saved)
    #expect(photo.isJPEG && !photo.failed, "\(photo)")
  }
}

/// The app package: generated, built once per test run, its executables run with the simulated camera.
struct AppPackage: Sendable {
  /// One documentation example: where it is written and the executable target it became.
  struct Example: Sendable {
    /// The Markdown file, relative to the package root.
    let source: String
    /// The executable target.
    let target: String
  }

  /// The package's folder.
  let directory: URL
  /// The documentation examples, in order: the README's first.
  let examples: [Example]
  /// What `swift build` printed.
  let buildOutput: String

  /// The package, built by the first test that needs it.
  static let built = Task { try await AppPackage.build() }

  /// Writes the package (the app and the examples as executable targets) and builds it, with
  /// `PKG_CONFIG_PATH` at the flag-free copies of GLib's `.pc` files `./dev` makes (else SwiftPM warns
  /// about their `-pthread` for every target that uses GStreamer).
  static func build() async throws -> AppPackage {
    let root = PackageFiles.root
    let directory = root.appendingPathComponent(".build/app-package", isDirectory: true)
    let sources = directory.appendingPathComponent("Sources", isDirectory: true)
    try? FileManager.default.removeItem(at: sources)
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    var targets = ["Shooter"]
    try write(
      String(
        contentsOf: Bundle.module.url(forResource: "AppPackage/Shooter", withExtension: "swift")!, encoding: .utf8),
      to: sources, target: "Shooter")
    var examples: [Example] = []
    for file in try documentationFiles(in: root) {
      for (index, code) in swiftBlocks(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
        .enumerated()
      {
        let target = "Example_" + file.split(separator: "/").last!.split(separator: ".").first! + "_\(index + 1)"
        try write(code, to: sources, target: target)
        examples.append(Example(source: file, target: target))
        targets.append(target)
      }
    }
    let dependency = root.lastPathComponent.lowercased()
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "AppPackage",
        dependencies: [.package(path: \(literal(root.path)))],
        targets: [
      \(targets.map { "    .executableTarget(name: \"\($0)\", dependencies: [.product(name: \"HVTCamera\", package: \(literal(dependency)))])," }.joined(separator: "\n"))
        ],
        swiftLanguageModes: [.v6]
      )

      """
    try manifest.write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let pkgConfig = root.appendingPathComponent(".build/pkgconfig").path
    guard FileManager.default.fileExists(atPath: pkgConfig) else {
      throw TestFailure("no \(pkgConfig): run the tests through ./dev test, which makes it")
    }
    var environment = ProcessInfo.processInfo.environment
    environment["PKG_CONFIG_PATH"] = pkgConfig + (environment["PKG_CONFIG_PATH"].map { ":\($0)" } ?? "")
    let result = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build"], environment: environment, directory: directory,
      hangLimit: 900)
    guard result.succeeded else { throw TestFailure("the app package does not build:\n\(result)") }
    return AppPackage(
      directory: directory, examples: examples, buildOutput: result.standardOutput + result.standardError)
  }

  /// Runs one of the package's executables with the simulated camera and no display, in a folder of its
  /// own.
  func run(_ target: String, _ arguments: [String]) async throws -> ProcessResult {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let executable = directory.appendingPathComponent(".build/debug/\(target)")
    return try await Subprocess.run(
      executable, arguments,
      environment: HVTCam.environment(
        setting: ["HVT_CAMERA_SOURCE": "simulated"], removing: ["DISPLAY", "WAYLAND_DISPLAY"]),
      directory: folder.url)
  }

  /// The README and the catalog's articles, relative to the root: the README first.
  static func documentationFiles(in root: URL) throws -> [String] {
    let catalog = "Sources/HVTCamera/HVTCamera.docc"
    let articles =
      (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
    return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
  }

  /// The bodies of the fenced code blocks tagged `swift`, in order.
  static func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if let lines = current {
        if trimmed == "```" {
          blocks.append(lines.joined(separator: "\n") + "\n")
          current = nil
        } else {
          current = lines + [line]
        }
      } else if trimmed == "```swift" {
        current = []
      }
    }
    return blocks
  }

  /// Writes `code` as the `main.swift` of `target`.
  private static func write(_ code: String, to sources: URL, target: String) throws {
    let folder = sources.appendingPathComponent(target, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try code.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
  }

  /// `text` as a Swift string literal.
  private static func literal(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}
