import Foundation
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

  /// Writes `bytes` as `NAME.json` in a fresh folder and loads it; returns the error and the file's path.
  static func loadError(_ bytes: some Sequence<UInt8>, name: String = "limit") throws -> (HVTPresetError, String) {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("\(name).json")
    try Data(bytes).write(to: url)
    let error = try #require(throws: HVTPresetError.self) { try HVTPreset.load(contentsOf: url) }
    return (error, url.relativePath)
  }

  @Test(
    "a preset nested 50 000 deep is refused at its 33rd level, arrays or objects",
    arguments: [("[", "]"), (#"{"a":"#, "}")])
  func deepNesting(open: String, close: String) throws {
    let text = String(repeating: open, count: 50_000) + "1" + String(repeating: close, count: 50_000)
    let (error, file) = try Self.loadError(Array(text.utf8))
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
  func sizeLimit() throws {
    let preset = try Self.validPreset(named: "padded")
    let padding = PresetLimits.maxBytes - preset.utf8.count
    let atLimit = preset + String(repeating: " ", count: padding)
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("padded.json")
    try Data(atLimit.utf8).write(to: url)
    #expect(try HVTPreset.load(contentsOf: url).name == "padded")

    let (error, file) = try Self.loadError(Array((atLimit + " ").utf8), name: "padded")
    #expect(error.description == "\(file): larger than 1048576 bytes")
    let parsed = try #require(throws: HVTPresetError.self) { try HVTPreset.parse(atLimit + " ", file: "text") }
    #expect(parsed.description == "text: larger than 1048576 bytes")
    // An endless file (a link to /dev/zero) is read only up to the limit.
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("zero.json").path, withDestinationPath: "/dev/zero")
    let endless = try #require(throws: HVTPresetError.self) {
      try HVTPreset.load(contentsOf: directory.appendingPathComponent("zero.json"))
    }
    #expect(endless.description.hasSuffix("zero.json: larger than 1048576 bytes"))
  }

  @Test("a file that cannot be read says the system's reason and errno; a FIFO reads as empty at once")
  func unreadable() throws {
    let directory = try makeTemporaryDirectory()
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
    "a key, element, property or number of 256 KiB is read and refused in bounded time (no quadratic step)",
    arguments: [#""frameRate""#, "jpegenc", "quality=90", "30"])
  func hugeValue(_ original: String) throws {
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
    let start = ContinuousClock.now
    let (error, _) = try Self.loadError(Array(preset.utf8), name: "huge")
    #expect(ContinuousClock.now - start < .seconds(10))
    #expect(error.issues.count == 1)
    #expect(error.issues.first?.line != nil)
  }
}
