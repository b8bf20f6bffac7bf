import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The bounds every preset file is read within: size, nesting, encoding, and the system's own errors.
@Suite("Preset limits", .timeLimit(.minutes(1)))
struct PresetLimitsTests {
  /// A valid preset (the built-in `default`, renamed) as text.
  static func validPreset(named name: String) throws -> String {
    let url = try #require(HVTPreset.builtInDirectory).appendingPathComponent("default.json")
    return try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
      of: #""name": "default""#, with: #""name": "\#(name)""#)
  }

  /// Loads a preset file on a Dispatch thread (a mebibyte takes a while); returns what came of it and the
  /// CPU time it took. Any error but a preset error is thrown.
  static func load(_ url: URL) async throws -> (result: Result<HVTPreset, HVTPresetError>, cpuTime: Duration) {
    try await onDispatchThread {
      let start = threadCPUTime()
      do {
        let preset = try HVTPreset.load(contentsOf: url)
        return (.success(preset), threadCPUTime() - start)
      } catch let error as HVTPresetError {
        return (.failure(error), threadCPUTime() - start)
      }
    }
  }

  /// The preset error of loading `url`, and the CPU time it took.
  static func loadError(_ url: URL) async throws -> (error: HVTPresetError, cpuTime: Duration) {
    let loaded = try await load(url)
    guard case .failure(let error) = loaded.result else { throw TestFailure("\(url.path) loaded") }
    return (error, loaded.cpuTime)
  }

  /// Writes `bytes` as `NAME.json` in a fresh folder and loads it; returns the error, the file's path and
  /// the CPU time it took.
  static func loadError(_ bytes: [UInt8], name: String = "limit") async throws -> (
    error: HVTPresetError, file: String, cpuTime: Duration
  ) {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("\(name).json")
    try Data(bytes).write(to: url)
    let (error, cpuTime) = try await loadError(url)
    return (error, url.relativePath, cpuTime)
  }

  @Test(
    "a preset nested 50 000 deep is refused at its 33rd level, arrays or objects",
    arguments: [("[", "]"), (#"{"a":"#, "}")])
  func deepNesting(open: String, close: String) async throws {
    let text = String(repeating: open, count: 50_000) + "1" + String(repeating: close, count: 50_000)
    let (error, file, _) = try await Self.loadError(Array(text.utf8))
    let column = 32 * open.count + 1
    #expect(error.description == "\(file):1:\(column): nesting deeper than 32")
  }

  @Test("the reader takes 32 levels and refuses 33, at the bracket that opens the 33rd")
  func nestingBoundary() throws {
    let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    _ = try JSONReader.parse(deepest)
    let error = try #require(throws: JSONSyntaxError.self) { try JSONReader.parse("\n [" + deepest + "]") }
    #expect(error.diagnostic == "nesting deeper than 32")
    #expect(error.position == TextPosition(line: 2, column: 34))
  }

  @Test("a preset of 1 MiB loads; one byte more is refused, by file and by text, without reading on")
  func sizeLimit() async throws {
    let preset = try Self.validPreset(named: "padded")
    let padding = PresetLimits.maxBytes - preset.utf8.count
    let atLimit = preset + String(repeating: " ", count: padding)
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("padded.json")
    try Data(atLimit.utf8).write(to: url)
    #expect(try await Self.load(url).result.get().name == "padded")

    let (error, file, _) = try await Self.loadError(Array((atLimit + " ").utf8), name: "padded")
    #expect(error.description == "\(file): larger than 1048576 bytes")
    let parsed = try #require(throws: HVTPresetError.self) { try HVTPreset.parse(atLimit + " ", file: "text") }
    #expect(parsed.description == "text: larger than 1048576 bytes")
    // An endless file (a link to /dev/zero) is read only up to the limit.
    let zero = directory.appendingPathComponent("zero.json")
    try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
    #expect(try await Self.loadError(zero).error.description == "\(zero.relativePath): larger than 1048576 bytes")
  }

  @Test("a file that cannot be read says the system's reason and errno; a FIFO reads as empty at once")
  func unreadable() throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("missing.json")
    let folder = directory.appendingPathComponent("folder.json")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    for (url, reason) in [(missing, "No such file or directory (errno 2)"), (folder, "Is a directory (errno 21)")] {
      let error = try #require(throws: HVTPresetError.self) { try HVTPreset.load(contentsOf: url) }
      #expect(error.description == "\(url.relativePath): cannot read the file: \(reason)")
    }
    let fifo = directory.appendingPathComponent("fifo.json")
    try #require(mkfifo(fifo.path, 0o600) == 0)
    let error = try #require(throws: HVTPresetError.self) { try HVTPreset.load(contentsOf: fifo) }
    #expect(error.description == "\(fifo.relativePath):1:1: syntax error: unexpected end of the file: expected a value")
  }

  @Test(
    "a key, element, property or number of 256 KiB is read and refused in under 5 s of CPU (no quadratic step)",
    arguments: [#""frameRate""#, "jpegenc", "quality=90", "30"])
  func hugeValue(_ original: String) async throws {
    let length = PresetLimits.maxBytes / 4
    let huge =
      original.hasPrefix("\"")
      ? "\"\(String(repeating: "x", count: length))\""
      : original == "30"
        ? String(repeating: "1", count: length)
        : original == "jpegenc"
          ? String(repeating: "x", count: length)
          : String(repeating: "x", count: length) + "=1"
    let preset = try Self.validPreset(named: "huge").replacingOccurrences(of: original, with: huge)
    let (error, _, cpuTime) = try await Self.loadError(Array(preset.utf8), name: "huge")
    #expect(cpuTime < .seconds(5), "\(cpuTime)")
    #expect(error.issues.count == 1)
    #expect(error.issues.first?.line != nil)
  }
}
