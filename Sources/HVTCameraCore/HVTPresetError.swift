/// One thing wrong with a preset: where (file, line and column, key path), and what.
public struct HVTPresetIssue: Sendable, Hashable, CustomStringConvertible {
  /// The preset file's path, or the preset's name when it was not read from a file.
  public var file: String
  /// Line and column in the file, when the issue has a place in it.
  public var line: Int?
  /// Column (in characters, from 1).
  public var column: Int?
  /// The key path of the bad value, e.g. `movie.encoder[1]`; empty for the document itself.
  public var keyPath: String
  /// What is wrong, naming the bad value and, where there is one, the nearest valid name.
  public var message: String

  /// `file:line:column: keyPath: message`, as compilers print errors.
  public var description: String {
    let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
    return "\(place): " + (keyPath.isEmpty ? "" : "\(keyPath): ") + message
  }

  /// Each stored property, as a memberwise initializer takes them.
  package init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.keyPath = keyPath
    self.message = message
  }
}

/// A preset could not be loaded: every issue found, in file order.
public struct HVTPresetError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The issues, at least one.
  public var issues: [HVTPresetIssue]

  /// One issue per line.
  public var description: String { issues.map(\.description).joined(separator: "\n") }

  /// Each stored property, as a memberwise initializer takes them.
  package init(issues: [HVTPresetIssue]) {
    self.issues = issues
  }
}
