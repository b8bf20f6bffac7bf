import Foundation
import Testing

/// The manual's architecture article names files, types and targets that are not public, so DocC cannot
/// check it: this does, so that it stays true as the code moves.
struct ArchitectureArticleTests {
  /// The package's root, from this file's place in it.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The article's words in code voice.
  static func codeVoice() throws -> [String] {
    let article = try String(
      contentsOf: root.appendingPathComponent("Sources/HVTCamera/HVTCamera.docc/Architecture.md"), encoding: .utf8)
    return article.matches(of: /`([^`\n]+)`/).map { String($0.output.1) }
  }

  /// Every Swift file under `Sources` and `Tests`, by name, and the types declared in them.
  static func sources() throws -> (files: Set<String>, types: Set<String>) {
    var files: Set<String> = []
    var types: Set<String> = []
    for folder in ["Sources", "Tests"] {
      let top = root.appendingPathComponent(folder)
      let paths = FileManager.default.enumerator(atPath: top.path)?.compactMap { $0 as? String } ?? []
      for path in paths where path.hasSuffix(".swift") {
        files.insert(URL(fileURLWithPath: path).lastPathComponent)
        let text = try String(contentsOf: top.appendingPathComponent(path), encoding: .utf8)
        for match in text.matches(of: /(?:struct|class|enum|actor|protocol|typealias) ([A-Z][A-Za-z0-9]*)/) {
          types.insert(String(match.output.1))
        }
      }
    }
    return (files, types)
  }

  /// The targets `Package.swift` declares.
  static func targets() throws -> Set<String> {
    let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    return Set(
      manifest.matches(of: /\.(?:target|executableTarget|systemLibrary)\(\s*name: "([^"]+)"/).map {
        String($0.output.1)
      })
  }

  @Test("every file, path and type the article names exists, and it names every target of Package.swift")
  func namesWhatExists() throws {
    let words = try Self.codeVoice()
    let (files, types) = try Self.sources()
    let targets = try Self.targets()
    #expect(targets.count > 10, "the targets are read from Package.swift: \(targets)")
    for word in words {
      if word.hasPrefix("Sources/") || word == "Package.swift" {
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(word).path), "\(word)")
      } else if word.hasSuffix(".swift") {
        #expect(files.contains(word), "no file \(word)")
      } else if word.wholeMatch(of: /[A-Z][A-Za-z0-9]*(\.[A-Z][A-Za-z0-9]*)*/) != nil {
        let name = String(word.split(separator: ".").last ?? "")
        #expect(types.contains(name) || targets.contains(word), "no type or target \(word)")
      }
    }
    for target in targets { #expect(words.contains(target), "the article does not name the target \(target)") }
  }
}
