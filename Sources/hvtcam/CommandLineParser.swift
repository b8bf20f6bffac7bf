import HVTCamera

/// A usage error: the command line is wrong. Reported in one line; the process exits with 64 (`EX_USAGE`).
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A command's options, declared with their help text, and the parsed values.
struct CommandLineParser {
  /// One option: `--name VALUE`, or a flag without a value.
  struct Option {
    let names: [String]
    let valueName: String?
    let help: String
  }

  let command: String
  let summary: String
  let options: [Option]
  /// How the usage line names the words that are not options (e.g. `[show NAME | validate FILE…]`);
  /// `nil` when the command takes none.
  var operands: String?

  /// The summary's first sentence, for the command list.
  var firstSentence: String {
    guard let end = summary.range(of: ". ") else { return summary }
    return String(summary[..<end.lowerBound]) + "."
  }

  /// The help text: usage line, summary and one line per option.
  var help: String {
    let usage = options.map { option in
      let name = option.names[0]
      return "[\(name)\(option.valueName.map { " \($0)" } ?? "")]"
    }
    let words = (operands.map { [$0] } ?? []) + usage
    var text = "usage: hvtcam \(command) \(words.joined(separator: " "))\n\n\(summary)\n\noptions:\n"
    for option in options + [Option(names: ["-h", "--help"], valueName: nil, help: "Show this help.")] {
      let left = option.names.joined(separator: ", ") + (option.valueName.map { " \($0)" } ?? "")
      text += "  \(left.padding(toLength: max(28, left.count + 2), withPad: " ", startingAt: 0))\(option.help)\n"
    }
    return text
  }

  /// Parses `arguments` (after the command name). Returns nil when help was asked for.
  func parse(_ arguments: [String]) throws -> ParsedArguments? {
    var values: [String: String] = [:]
    var operandWords: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "-h" || argument == "--help" { return nil }
      if operands != nil, !argument.hasPrefix("-") {
        operandWords.append(argument)
        index += 1
        continue
      }
      guard let option = options.first(where: { $0.names.contains(argument) }) else {
        throw UsageError("hvtcam \(command): unknown option '\(argument)' (see hvtcam \(command) --help)")
      }
      if option.valueName != nil {
        guard index + 1 < arguments.count else {
          throw UsageError("hvtcam \(command): \(argument) needs a value")
        }
        values[option.names.last!] = arguments[index + 1]
        index += 2
      } else {
        values[option.names.last!] = "true"
        index += 1
      }
    }
    return ParsedArguments(command: command, values: values, operands: operandWords)
  }
}

/// Option values by their long name.
struct ParsedArguments {
  let command: String
  let values: [String: String]
  /// The words that are not options, in order.
  var operands: [String] = []

  /// The value of `--name`, if given.
  subscript(_ name: String) -> String? { values[name] }

  /// Whether flag `--name` was given.
  func flag(_ name: String) -> Bool { values[name] != nil }

  /// A whole-number option within `range`, or `defaultValue` when absent. Checked before any use, so a
  /// value out of range is a usage error naming the range, never an overflow.
  func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int? = nil) throws -> Int? {
    guard let text = values[name] else { return defaultValue }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "hvtcam \(command): \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
    }
    return value
  }

  /// A number of seconds within `limits`, or `nil` when absent; anything else (not a number, NaN,
  /// infinite, out of range) is a usage error naming the range.
  func seconds(_ name: String, in limits: HVTCaptureLimits.Seconds) throws -> Double? {
    guard let text = values[name] else { return nil }
    guard let value = Double(text), limits.contains(value) else {
      throw UsageError("hvtcam \(command): \(name) must be \(limits), not '\(text)'")
    }
    return value
  }

  /// A number within `range`, or `nil` when absent; anything else (not a number, NaN, out of range) is a
  /// usage error naming the range.
  func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
    guard let text = values[name] else { return nil }
    guard let value = Double(text), range.contains(value) else {
      throw UsageError(
        "hvtcam \(command): \(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return value
  }

  /// One of a fixed set of words, or `defaultValue` when absent.
  func choice(_ name: String, from allowed: [String], default defaultValue: String) throws -> String {
    guard let text = values[name] else { return defaultValue }
    guard allowed.contains(text) else {
      throw UsageError("hvtcam \(command): \(name) must be one of \(allowed.joined(separator: ", ")), not '\(text)'")
    }
    return text
  }
}
