/// Reads one element as `gst-launch-1.0` users write it: `x264enc speed-preset=ultrafast tune=zerolatency`,
/// with values in double quotes when they hold spaces (`location="my file.mp4"`, `\"` and `\\` escaped).
/// Values nest brackets at most ``PresetLimits/maxNesting`` deep, as GStreamer parses them recursively.
enum ElementSyntax {
  /// A syntax error, with the character offset in the text where it was found.
  struct Failure: Error {
    let message: String
    let offset: Int
  }

  /// Parses the text into a description (unnamed: the engine names elements by their role).
  static func parse(_ text: String) throws(Failure) -> HVTElementDescription {
    let words = try split(text)
    guard let factory = words.first else { throw Failure(message: "empty element", offset: 0) }
    guard factory.text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), factory.quoted == false
    else {
      throw Failure(message: "'\(factory.text)' is not an element name", offset: factory.offset)
    }
    var element = HVTElementDescription(factory.text)
    for word in words.dropFirst() {
      guard let equals = word.text.firstIndex(of: "="), equals != word.text.startIndex else {
        throw Failure(message: "expected property=value, found '\(word.text)'", offset: word.offset)
      }
      let name = String(word.text[..<equals])
      let value = String(word.text[word.text.index(after: equals)...])
      guard name != "name" else {
        throw Failure(message: "name= is not allowed: the engine names elements by their role", offset: word.offset)
      }
      if let offset = PresetLimits.tooDeepOffset(in: value) {
        throw Failure(message: PresetLimits.nestingMessage, offset: word.offset + name.count + 1 + offset)
      }
      element.properties.append(HVTElementDescription.Property(name: name, value: value))
    }
    return element
  }

  private struct Word {
    var text = ""
    var offset: Int
    var quoted = false
  }

  /// Splits on white space outside double quotes, removing the quotes and their backslash escapes.
  private static func split(_ text: String) throws(Failure) -> [Word] {
    var words: [Word] = []
    var current: Word?
    var inQuotes = false
    var escaped = false
    var quoteStart = 0
    for (offset, character) in text.enumerated() {
      if escaped {
        current?.text.append(character)
        escaped = false
      } else if inQuotes && character == "\\" {
        escaped = true
      } else if character == "\"" {
        if current == nil { current = Word(offset: offset) }
        current?.quoted = true
        inQuotes.toggle()
        quoteStart = offset
      } else if !inQuotes && character.isWhitespace {
        if let word = current { words.append(word) }
        current = nil
      } else {
        if current == nil { current = Word(offset: offset) }
        current?.text.append(character)
      }
    }
    if inQuotes { throw Failure(message: "unterminated double quote", offset: quoteStart) }
    if let word = current { words.append(word) }
    return words
  }
}
