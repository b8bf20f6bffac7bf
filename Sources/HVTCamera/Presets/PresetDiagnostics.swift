/// Collects issues while reading one preset file.
struct PresetDiagnostics {
  let file: String
  private(set) var issues: [HVTPresetIssue] = []

  init(file: String) {
    self.file = file
  }

  /// Records an issue at a position in the file.
  mutating func report(_ message: String, at keyPath: String, _ position: TextPosition?) {
    issues.append(
      HVTPresetIssue(file: file, line: position?.line, column: position?.column, keyPath: keyPath, message: message))
  }

  /// Throws the issues collected, if any.
  func check() throws(HVTPresetError) {
    if !issues.isEmpty { throw HVTPresetError(issues: issues) }
  }
}
