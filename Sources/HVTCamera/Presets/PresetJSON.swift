/// A JSON document read with the position of every value, and objects kept in their written order, so
/// that errors in a preset can name the line and column of what is wrong.
struct JSONNode: Sendable {
  /// A JSON value.
  indirect enum Value: Sendable {
    case object([Member])
    case array([JSONNode])
    case string(String)
    case number(Double, text: String)
    case bool(Bool)
    case null
  }

  /// One `"key": value` pair of an object, with where its key stands.
  struct Member: Sendable {
    let key: String
    let keyPosition: TextPosition
    let value: JSONNode
  }

  let value: Value
  let position: TextPosition

  /// The kind of value, as a schema names it: `object`, `array`, `string`, `number`, `boolean`, `null`.
  var kind: String {
    switch value {
    case .object: "object"
    case .array: "array"
    case .string: "string"
    case .number: "number"
    case .bool: "boolean"
    case .null: "null"
    }
  }
}

/// A line and column in a text, both from 1 (columns count characters).
struct TextPosition: Sendable, Hashable, CustomStringConvertible {
  var line: Int
  var column: Int

  /// Whether the character ends a line: `\n`, or `\r\n` (which Swift reads as one character).
  static func isLineBreak(_ character: Character) -> Bool { character == "\n" || character == "\r\n" }

  /// The position `offset` characters further along the same line.
  func advanced(by offset: Int) -> TextPosition { TextPosition(line: line, column: column + offset) }

  var description: String { "\(line):\(column)" }
}

/// A syntax error in a JSON text, or a text nested deeper than the reader goes.
struct JSONSyntaxError: Error, Sendable {
  let message: String
  let position: TextPosition
  /// Whether the text broke a limit (``PresetLimits/maxNesting``) rather than the grammar.
  var isLimit = false

  /// The message as a preset diagnostic: `syntax error: …`, or the limit as it is.
  var diagnostic: String { isLimit ? message : "syntax error: \(message)" }
}

/// Parses JSON (RFC 8259) into positioned nodes. Arrays and objects nest at most
/// ``PresetLimits/maxNesting`` deep: the reader recurses once per level, and stops before the stack could
/// run out.
struct JSONReader {
  private let characters: [Character]
  private var index = 0
  private var line = 1
  private var column = 1
  /// How many arrays and objects are open.
  private var depth = 0

  /// Parses a whole document; throws the first syntax error with its position.
  static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
    var reader = JSONReader(characters: Array(text))
    reader.skipWhitespace()
    let node = try reader.readValue()
    reader.skipWhitespace()
    guard reader.index == reader.characters.count else {
      throw reader.error("unexpected '\(reader.characters[reader.index])' after the end of the document")
    }
    return node
  }

  private init(characters: [Character]) {
    self.characters = characters
  }

  private var position: TextPosition { TextPosition(line: line, column: column) }

  private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, position: position) }

  private var current: Character? { index < characters.count ? characters[index] : nil }

  private mutating func advance() {
    if TextPosition.isLineBreak(characters[index]) {
      line += 1
      column = 1
    } else {
      column += 1
    }
    index += 1
  }

  private mutating func skipWhitespace() {
    while let character = current,
      character == " " || character == "\t" || character == "\r"
        || TextPosition.isLineBreak(character)
    {
      advance()
    }
  }

  private mutating func expect(_ character: Character, _ what: String) throws(JSONSyntaxError) {
    guard current == character else {
      throw error(current.map { "expected \(what), found '\($0)'" } ?? "expected \(what), found the end of the file")
    }
    advance()
  }

  private mutating func readValue() throws(JSONSyntaxError) -> JSONNode {
    let start = position
    switch current {
    case "{":
      try enterNesting()
      defer { depth -= 1 }
      return JSONNode(value: .object(try readObject()), position: start)
    case "[":
      try enterNesting()
      defer { depth -= 1 }
      return JSONNode(value: .array(try readArray()), position: start)
    case "\"": return JSONNode(value: .string(try readString()), position: start)
    case "t": return JSONNode(value: try readWord("true", .bool(true)), position: start)
    case "f": return JSONNode(value: try readWord("false", .bool(false)), position: start)
    case "n": return JSONNode(value: try readWord("null", .null), position: start)
    case let character? where character == "-" || character.isASCII && character.isNumber:
      return JSONNode(value: try readNumber(), position: start)
    case let character?: throw error("unexpected '\(character)': expected a value")
    case nil: throw error("unexpected end of the file: expected a value")
    }
  }

  /// Counts one more open array or object, at the bracket that opens it; throws when that is too deep.
  private mutating func enterNesting() throws(JSONSyntaxError) {
    guard depth < PresetLimits.maxNesting else {
      throw JSONSyntaxError(message: PresetLimits.nestingMessage, position: position, isLimit: true)
    }
    depth += 1
  }

  private mutating func readObject() throws(JSONSyntaxError) -> [JSONNode.Member] {
    advance()
    skipWhitespace()
    var members: [JSONNode.Member] = []
    if current == "}" {
      advance()
      return members
    }
    while true {
      skipWhitespace()
      let keyPosition = position
      guard current == "\"" else {
        throw error(current.map { "expected a key in double quotes, found '\($0)'" } ?? "unexpected end of the file")
      }
      let key = try readString()
      if members.contains(where: { $0.key == key }) {
        throw JSONSyntaxError(message: "duplicate key \"\(key)\"", position: keyPosition)
      }
      skipWhitespace()
      try expect(":", "':' after the key")
      skipWhitespace()
      members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: try readValue()))
      skipWhitespace()
      if current == "," {
        advance()
        continue
      }
      try expect("}", "',' or '}'")
      return members
    }
  }

  private mutating func readArray() throws(JSONSyntaxError) -> [JSONNode] {
    advance()
    skipWhitespace()
    var elements: [JSONNode] = []
    if current == "]" {
      advance()
      return elements
    }
    while true {
      skipWhitespace()
      elements.append(try readValue())
      skipWhitespace()
      if current == "," {
        advance()
        continue
      }
      try expect("]", "',' or ']'")
      return elements
    }
  }

  private mutating func readString() throws(JSONSyntaxError) -> String {
    advance()
    var text = ""
    while true {
      guard let character = current else { throw error("unterminated string") }
      switch character {
      case "\"":
        advance()
        return text
      case "\\":
        advance()
        guard let escaped = current else { throw error("unterminated string") }
        let simple: [Character: Character] = [
          "\"": "\"", "\\": "\\", "/": "/", "b": "\u{8}", "f": "\u{C}", "n": "\n", "r": "\r", "t": "\t",
        ]
        if let replacement = simple[escaped] {
          text.append(replacement)
          advance()
        } else if escaped == "u" {
          advance()
          text.unicodeScalars.append(try readUnicodeEscape())
        } else {
          throw error("invalid escape '\\\(escaped)'")
        }
      case let character where TextPosition.isLineBreak(character):
        throw error("line break inside a string")
      default:
        text.append(character)
        advance()
      }
    }
  }

  /// Reads the four hex digits after `\u`, joining a surrogate pair when one follows.
  private mutating func readUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let high = try readHex4()
    if (0xD800...0xDBFF).contains(high) {
      guard current == "\\" else { throw error("lone surrogate in \\u escape") }
      advance()
      try expect("u", "a low surrogate \\u escape")
      let low = try readHex4()
      guard (0xDC00...0xDFFF).contains(low),
        let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
      else { throw error("invalid surrogate pair in \\u escape") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(high) else { throw error("invalid \\u escape") }
    return scalar
  }

  private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = current?.hexDigitValue else { throw error("expected four hex digits after \\u") }
      value = value * 16 + UInt32(digit)
      advance()
    }
    return value
  }

  private mutating func readNumber() throws(JSONSyntaxError) -> JSONNode.Value {
    let start = index
    let allowed = Set("+-0123456789.eE")
    while let character = current, allowed.contains(character) { advance() }
    let text = String(characters[start..<index])
    let isValid = text.wholeMatch(of: #/-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/#) != nil
    guard isValid, let number = Double(text) else {
      throw JSONSyntaxError(message: "invalid number '\(text)'", position: position.advanced(by: -text.count))
    }
    return .number(number, text: text)
  }

  private mutating func readWord(_ word: String, _ value: JSONNode.Value) throws(JSONSyntaxError) -> JSONNode.Value {
    for expected in word {
      guard current == expected else {
        throw error("unexpected '\(current.map(String.init) ?? "end of file")': expected \(word)")
      }
      advance()
    }
    return value
  }
}
