import Foundation
import HVTGStreamer
import HVTSupport

/// Built-in presets already read, by name.
private let builtInCache = Locked<[String: HVTPreset]>([:])

extension HVTPreset {
  /// Where a preset was found.
  public enum Origin: String, Sendable, Hashable {
    /// Shipped with the library (a package resource).
    case builtIn = "built-in"
    /// In the user's preset folder, `$XDG_CONFIG_HOME/hvtcam/pipelines`.
    case user
    /// Named by path.
    case file
  }

  /// One entry of ``available()``.
  public struct Listing: Sendable, Hashable {
    /// The preset's name.
    public var name: String
    /// Its one-line description (or why it cannot be read).
    public var summary: String
    /// Where it comes from.
    public var origin: Origin
    /// Its file.
    public var url: URL
  }

  /// The folder of presets shipped with the library (the package's `pipelines/` resources).
  public static var builtInDirectory: URL? {
    Bundle.module.url(forResource: "pipelines", withExtension: nil)
  }

  /// The user's preset folder: `$XDG_CONFIG_HOME/hvtcam/pipelines`, by default `~/.config/hvtcam/pipelines`.
  public static var userDirectory: URL {
    let environment = ProcessInfo.processInfo.environment
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
      ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
    return config.appendingPathComponent("hvtcam/pipelines", isDirectory: true)
  }

  /// The built-in `default` preset: 1920x1080 at 30 fps, `jpegenc`, H.264 (`x264enc`, else `openh264enc`)
  /// in fragmented MP4. Always the built-in, also when the user's folder has a `default.json` (which
  /// ``named(_:)`` finds first), so that a broken file there cannot keep a controller from being made.
  public static var `default`: HVTPreset {
    get throws {
      guard let preset = try builtIn(named: "default") else {
        throw HVTPresetError(issues: [
          HVTPresetIssue(file: "default", keyPath: "", message: "the built-in presets are missing from the library")
        ])
      }
      return preset
    }
  }

  /// Finds a preset by name or path: an explicit path (with a `/` or ending in `.json`), then the user's
  /// folder, then the built-ins. Throws with the names available when there is none.
  public static func named(_ nameOrPath: String) throws -> HVTPreset {
    if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
      return try load(contentsOf: URL(fileURLWithPath: nameOrPath))
    }
    let user = userDirectory.appendingPathComponent("\(nameOrPath).json")
    if FileManager.default.fileExists(atPath: user.path) { return try load(contentsOf: user) }
    if let preset = try builtIn(named: nameOrPath) { return preset }
    let names = available().map(\.name)
    let hint = NameSuggestion.nearest(to: nameOrPath, among: names).map { "; did you mean '\($0)'?" } ?? ""
    throw HVTPresetError(issues: [
      HVTPresetIssue(
        file: nameOrPath, keyPath: "",
        message: "no preset named '\(nameOrPath)'\(hint) (available: \(names.joined(separator: ", ")))")
    ])
  }

  /// The built-in preset of this name, if there is one. Built-ins ship with the library and do not change:
  /// each is read and checked once per process.
  private static func builtIn(named name: String) throws -> HVTPreset? {
    guard let url = builtInDirectory?.appendingPathComponent("\(name).json"),
      FileManager.default.fileExists(atPath: url.path)
    else { return nil }
    if let cached = builtInCache.withLock({ $0[name] }) { return cached }
    let preset = try load(contentsOf: url)
    builtInCache.withLock { $0[name] = preset }
    return preset
  }

  /// Reads, validates and returns the preset in a file. Throws every issue found: the file's own problems
  /// (unreadable, with the system's reason and `errno`; larger than 1 MiB; not UTF-8), syntax (with line
  /// and column), nesting deeper than 32, unknown or missing keys, unknown elements, properties or values,
  /// bad caps, branches that do not link. The file's name (without `.json`) must match the preset's `name`.
  public static func load(contentsOf url: URL) throws -> HVTPreset {
    let text = try PresetFile.text(of: url, file: url.relativePath)
    return try parse(
      text, file: url.relativePath, expectedName: url.deletingPathExtension().lastPathComponent, url: url)
  }

  /// The text of a preset file, read with the limits and errors of ``load(contentsOf:)`` but not checked
  /// as a preset.
  public static func text(contentsOf url: URL) throws -> String {
    try PresetFile.text(of: url, file: url.relativePath)
  }

  /// Checks that the preset schema (`pipelines/schema.json`) is well-formed JSON, reporting syntax errors
  /// with their line and column.
  public static func validateSchemaDocument(contentsOf url: URL) throws {
    let text = try PresetFile.text(of: url, file: url.relativePath)
    var diagnostics = PresetDiagnostics(file: url.relativePath)
    do {
      _ = try JSONReader.parse(text)
    } catch {
      diagnostics.report(error.diagnostic, at: "", error.position)
    }
    try diagnostics.check()
  }

  /// Reads and validates a preset from JSON text; `file` names it in errors.
  public static func parse(_ text: String, file: String = "<preset>") throws -> HVTPreset {
    try parse(text, file: file, expectedName: nil, url: nil)
  }

  private static func parse(_ text: String, file: String, expectedName: String?, url: URL?) throws -> HVTPreset {
    var (preset, positions) = try decode(text, file: file, expectedName: expectedName)
    try preset.check(file: file, positions: positions)
    preset.url = url
    debugLog.log(.debug, "preset \(preset.name) read from \(file)")
    return preset
  }

  /// Every preset that can be found: the user's first, then built-ins they do not shadow, sorted by name
  /// within each. A file that does not read gives its first error as its summary.
  public static func available() -> [Listing] {
    var listings: [Listing] = []
    for (directory, origin) in [(userDirectory, Origin.user), (builtInDirectory, .builtIn)] {
      guard let directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
        continue
      }
      for file in files.sorted() where file.hasSuffix(".json") && file != "schema.json" {
        let url = directory.appendingPathComponent(file)
        let name = url.deletingPathExtension().lastPathComponent
        guard !listings.contains(where: { $0.name == name }) else { continue }
        let summary: String
        do throws(HVTPresetError) {
          summary = try decode(PresetFile.text(of: url, file: url.path), file: url.path, expectedName: name).preset
            .summary
        } catch {
          summary = "unreadable: \(error.issues[0])"
        }
        listings.append(Listing(name: name, summary: summary, origin: origin, url: url))
      }
    }
    return listings
  }
}
