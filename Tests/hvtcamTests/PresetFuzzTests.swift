import Foundation
import HVTCamera
import MediaInspection
import Testing

/// A built-in preset with one to three random edits: the ways a preset file gets broken by hand, by a
/// bad copy, or on purpose.
struct PresetMutant: Sendable, CustomStringConvertible {
  /// The built-in it was made from (and the file name it is written under).
  let base: String
  /// The edits, in order, in words.
  let edits: [String]
  let bytes: [UInt8]

  var description: String { "\(base) with \(edits.joined(separator: ", "))" }

  /// Bits of text that parsers get wrong: control and invisible characters, combining marks, emoji, line
  /// separators, escapes of nothing and of lone surrogates, and bytes that are not UTF-8.
  static let oddText: [[UInt8]] =
    [
      "\u{0}", "\u{FEFF}", "\u{202E}", "\u{0301}", "😀", "\u{2028}", "\r", "\r\n", "\t", #"\u0000"#, #"\uD800"#,
      #"\uDFFF\uD800"#, #"\u00e9"#, #"\"#, "\"",
    ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82]]

  /// Numbers too large, too small, too precise or not numbers at all.
  static let oddNumbers = [
    "1e999999", "-1e-999999", String(repeating: "9", count: 400), "30.5", "-0", "18446744073709551616", "0x1E",
    "1e", "01", "-", "+30", ".5", "NaN", "Infinity",
  ]

  static func make(from base: String, _ text: [UInt8], using random: inout SplitMix64) -> PresetMutant {
    var bytes = text
    var edits: [String] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      edits.append(edit(&bytes, using: &random))
    }
    return PresetMutant(base: base, edits: edits, bytes: bytes)
  }

  /// Applies one random edit; returns what it did.
  static func edit(_ bytes: inout [UInt8], using random: inout SplitMix64) -> String {
    let at = Int.random(in: 0...bytes.count, using: &random)
    switch Int.random(in: 0..<9, using: &random) {
    case 0:
      bytes.removeSubrange(at...)
      return "truncated at \(at)"
    case 1 where !bytes.isEmpty:
      let index = min(at, bytes.count - 1)
      let mask = UInt8.random(in: 1...255, using: &random)
      bytes[index] ^= mask
      return "byte \(index) xor \(mask)"
    case 2, 3:
      let lines = lineRanges(bytes).filter { bytes[$0].contains(UInt8(ascii: ":")) }
      guard let line = lines.randomElement(using: &random) else { return "no key line to edit" }
      let duplicate = Int.random(in: 0...1, using: &random) == 0
      if duplicate { bytes.insert(contentsOf: bytes[line], at: line.upperBound) } else { bytes.removeSubrange(line) }
      return "\(duplicate ? "duplicated" : "deleted") the key line at \(line.lowerBound)"
    case 4:
      let brackets = bytes.indices.filter { "{}[]".utf8.contains(bytes[$0]) }
      guard let index = brackets.randomElement(using: &random) else { return "no bracket to edit" }
      let duplicate = Int.random(in: 0...1, using: &random) == 0
      if duplicate { bytes.insert(bytes[index], at: index) } else { bytes.remove(at: index) }
      return "\(duplicate ? "duplicated" : "deleted") the bracket at \(index)"
    case 5:
      let depth = [31, 32, 33, 100, 50_000].randomElement(using: &random)!
      let open = Int.random(in: 0...1, using: &random) == 0 ? "[" : #"{"k":"#
      let close = open == "[" ? "]" : "}"
      let end = Int.random(in: at...bytes.count, using: &random)
      bytes.insert(contentsOf: String(repeating: close, count: depth).utf8, at: end)
      bytes.insert(contentsOf: String(repeating: open, count: depth).utf8, at: at)
      return "nested \(depth) deep with \(open) at \(at)"
    case 6:
      let number = oddNumbers.randomElement(using: &random)!
      let digits = bytes.indices.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
      let index = digits.randomElement(using: &random) ?? at
      var end = index
      while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
      bytes.replaceSubrange(index..<end, with: number.utf8)
      return "number \(number) at \(index)"
    case 7:
      let text = oddText.randomElement(using: &random)!
      bytes.insert(contentsOf: text, at: at)
      return "inserted \(text) at \(at)"
    default:
      let copy = Array(bytes[at...].prefix(Int.random(in: 1...64, using: &random)))
      bytes.insert(contentsOf: copy, at: Int.random(in: 0...bytes.count, using: &random))
      return "copied \(copy.count) bytes from \(at)"
    }
  }

  /// The ranges of the text's lines, each with its line break.
  static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      ranges.append(start..<(index + 1))
      start = index + 1
    }
    if start < bytes.count { ranges.append(start..<bytes.count) }
    return ranges
  }
}

/// Mutants of the built-in presets, loaded by the library and validated by `hvtcam`: nothing crashes or
/// hangs, and every failure is a preset error that says where.
@Suite("Preset fuzzing", .timeLimit(.minutes(2)))
struct PresetFuzzTests {
  /// `HVT_PRESET_FUZZ_SEED` and `HVT_PRESET_FUZZ_COUNT` make other or longer runs.
  static let seed = ProcessInfo.processInfo.environment["HVT_PRESET_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_251_201
  static let count = ProcessInfo.processInfo.environment["HVT_PRESET_FUZZ_COUNT"].flatMap { Int($0) } ?? 300

  /// `count` mutants from `seed`, each of a built-in chosen at random.
  static func mutants(count: Int, seed: UInt64) throws -> [PresetMutant] {
    let bases = try BuiltInPreset.all.map { ($0.name, Array(try Data(contentsOf: $0.url))) }
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let (name, text) = bases.randomElement(using: &random)!
      return PresetMutant.make(from: name, text, using: &random)
    }
  }

  /// Writes the mutant as `BASE.json` (so that its name still matches) in `directory`.
  static func write(_ mutant: PresetMutant, in directory: URL) throws -> URL {
    let folder = directory.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let url = folder.appendingPathComponent("\(mutant.base).json")
    try Data(mutant.bytes).write(to: url)
    return url
  }

  /// What the library makes of a mutant: `nil` when it loads, else its issues.
  static func load(_ url: URL) throws -> [HVTPresetIssue]? {
    do {
      _ = try HVTPreset.load(contentsOf: url)
      return nil
    } catch let error as HVTPresetError {
      return error.issues
    }
  }

  /// What loading one mutant gave, and the CPU time it took.
  struct Outcome: Sendable {
    let context: String
    let file: String
    let issues: [HVTPresetIssue]?
    let cpuTime: Duration
  }

  @Test("every mutant loads or fails with a preset error that has a line and column, each in under 2 s of CPU")
  func libraryLoadsEveryMutant() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let mutants = try Self.mutants(count: Self.count, seed: Self.seed)
    // Seconds of loading, on a Dispatch thread rather than a cooperative one.
    let outcomes = try await onDispatchThread { [url = directory.url] in
      try mutants.enumerated().map { index, mutant in
        let file = try Self.write(mutant, in: url)
        let start = threadCPUTime()
        let issues = try Self.load(file)
        return Outcome(
          context: "mutant \(index) of seed \(Self.seed): \(mutant)", file: file.relativePath, issues: issues,
          cpuTime: threadCPUTime() - start)
      }
    }
    for outcome in outcomes {
      #expect(outcome.cpuTime < .seconds(2), "\(outcome.cpuTime): \(outcome.context)")
      guard let issues = outcome.issues else { continue }
      #expect(!issues.isEmpty, "\(outcome.context)")
      for issue in issues {
        #expect(issue.file == outcome.file, "\(issue): \(outcome.context)")
        #expect(issue.line != nil && issue.column != nil, "no position in '\(issue)': \(outcome.context)")
      }
    }
    // The mutations break most files; a run where none broke would have tested nothing.
    let failures = outcomes.filter { $0.issues != nil }.count
    #expect(failures > Self.count / 2, "only \(failures) of \(Self.count) mutants failed")
  }

  @Test("hvtcam presets validate agrees with the library on a handful of mutants, in file:line:col: form")
  func commandLineValidatesMutants() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for mutant in try Self.mutants(count: 6, seed: Self.seed ^ 0xC11) {
      let url = try Self.write(mutant, in: directory.url)
      let issues = try Self.load(url)
      let result = try await HVTCam.run(
        ["presets", "validate", url.path], environment: HVTCam.environment(configHome: directory.url))
      #expect(!result.signalled, "\(mutant):\n\(result)")
      guard let issues else {
        #expect(result.succeeded && result.outputLines == ["\(url.path): ok"], "\(mutant):\n\(result)")
        continue
      }
      #expect(result.status == 1, "\(mutant):\n\(result)")
      let expected = issues.map(\.description)
      #expect(
        result.errorLines == ["hvtcam presets: \(expected[0])"] + expected.dropFirst(), "\(mutant):\n\(result)")
    }
  }
}
