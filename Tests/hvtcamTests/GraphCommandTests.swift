import Foundation
import MediaInspection
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The texts of an XML document's elements, and its root element's name, as `XMLParser` reads them.
final class XMLTexts: NSObject, XMLParserDelegate {
  private(set) var root: String?
  private(set) var texts: [String] = []
  private var current = ""

  /// Parses `data`; throws the parser's error when it is not well-formed XML.
  init(_ data: Data) throws {
    super.init()
    let parser = XMLParser(data: data)
    parser.delegate = self
    guard parser.parse() else { throw TestFailure("not XML: \(String(describing: parser.parserError))") }
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if root == nil { root = elementName }
    current = ""
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    current += string
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    let text = current.trimmingCharacters(in: .whitespacesAndNewlines)
    if !text.isEmpty { texts.append(text) }
    current = ""
  }
}

@Suite("hvtcam graph")
struct GraphCommandTests {
  /// The elements of the camera pipeline and of the recording branch (`GstBin:recording`), by name.
  static let cameraElements: Set = ["camera", "camera-caps", "t", "preview-queue", "preview"]
  static let recordingElements: Set = [
    "recording", "recording-queue", "movie-encoder", "movie-parser", "muxer", "file",
  ]

  /// The names of the elements in a DOT graph made by `gst_debug_bin_to_dot_data`, whose labels read
  /// `"GstTypeName\nelement-name\n…"`.
  static func elementNames(inDOT text: String) -> Set<String> {
    Set(text.matches(of: #/label="[A-Za-z0-9_]+\\n([A-Za-z0-9_-]+)/#).map { String($0.1) })
  }

  /// Runs `hvtcam graph` on the simulated camera at 640x480 in a fresh directory `work`, with `TMPDIR` in
  /// a fresh directory too; checks that neither holds anything afterwards but `expected` (in `work`).
  func graph(
    _ arguments: [String], in directory: TemporaryDirectory, leaving expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> ProcessResult {
    let work = directory.url.appendingPathComponent("work", isDirectory: true)
    let temporary = directory.url.appendingPathComponent("tmp", isDirectory: true)
    for folder in [work, temporary] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let result = try await HVTCam.run(
      ["graph"] + HVTCam.simulated + arguments,
      environment: HVTCam.environment(configHome: directory.url, setting: ["TMPDIR": temporary.path]), directory: work)
    let left = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
    #expect(left == expected, "files left in the working directory", sourceLocation: sourceLocation)
    let scratch = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
    #expect(scratch.isEmpty, "files left in TMPDIR: \(scratch)", sourceLocation: sourceLocation)
    return result
  }

  @Test("prints the live pipeline's DOT graph: camera, tee and preview, no recording branch", .timeLimit(.minutes(2)))
  func dotOnStandardOutput() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await graph([], in: directory, leaving: [])
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    #expect(result.standardOutput.hasPrefix("digraph pipeline {"), "\(result)")
    #expect(result.standardOutput.hasSuffix("}\n"), "\(result)")
    let names = Self.elementNames(inDOT: result.standardOutput)
    #expect(Self.cameraElements.isSubset(of: names), "\(names)")
    #expect(names.isDisjoint(with: Self.recordingElements), "\(names)")
  }

  @Test("-o g.dot writes the DOT graph and prints its path", .timeLimit(.minutes(2)))
  func dotFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("work/g.dot")
    let result = try await graph(["-o", path], in: directory, leaving: ["g.dot"])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path], "\(result)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("digraph pipeline {"), "\(text)")
    #expect(Self.cameraElements.isSubset(of: Self.elementNames(inDOT: text)))
  }

  @Test(
    "--recording -o g.svg renders the graph with the recording branch through graphviz; no movie is left",
    .timeLimit(.minutes(2)))
  func svgWithRecording() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("work/g.svg")
    let result = try await graph(["--recording", "-o", path], in: directory, leaving: ["g.svg"])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path], "\(result)")
    let svg = try XMLTexts(Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(svg.root == "svg")
    let texts = Set(svg.texts)
    #expect(Self.cameraElements.isSubset(of: texts), "\(texts.sorted())")
    #expect(Self.recordingElements.isSubset(of: texts), "\(texts.sorted())")
  }

  @Test("--recording --preset archival: the recording bin holds x264enc and matroskamux", .timeLimit(.minutes(2)))
  func recordingWithPreset() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await graph(["--recording", "--preset", "archival"], in: directory, leaving: [])
    #expect(result.succeeded, "\(result)")
    #expect(result.standardOutput.hasPrefix("digraph pipeline {"), "\(result)")
    #expect(Self.recordingElements.isSubset(of: Self.elementNames(inDOT: result.standardOutput)), "\(result)")
    #expect(result.standardOutput.contains(#"label="GstX264Enc\nmovie-encoder"#), "\(result)")
    #expect(result.standardOutput.contains(#"label="GstMatroskaMux\nmuxer"#), "\(result)")
  }

  @Test(
    "--recording when the camera fails at its second frame: exit 1 with GStreamer's message, nothing written",
    .timeLimit(.minutes(2)))
  func recordingOfAFailingPipeline() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let preset = directory.path("failing.json")
    try Data(
      """
      {
        "name": "failing",
        "description": "Fails at the second frame",
        "quality": "640x480",
        "filters": ["identity error-after=2"],
        "preview": "fakesink sync=false",
        "photo": { "encoder": "jpegenc", "extension": "jpg" },
        "movie": { "encoder": "x264enc speed-preset=ultrafast", "muxer": "mp4mux", "extension": "mp4" }
      }

      """.utf8
    ).write(to: URL(fileURLWithPath: preset))
    let result = try await graph(
      ["--recording", "--preset", preset, "-o", directory.path("work/g.dot")], in: directory, leaving: [])
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.standardError.contains("Failed after iterations as requested."), "\(result)")
    #expect(result.standardOutput.isEmpty, "\(result)")
  }

  @Test("-o g.png renders a PNG through graphviz", .timeLimit(.minutes(2)))
  func png() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("work/g.png")
    let result = try await graph(["-o", path], in: directory, leaving: ["g.png"])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path], "\(result)")
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG")
    #expect(data.count > 1000, "\(data.count) bytes")
  }

  @Test("-o g.txt is a usage error: exit 64, one line, nothing written", .timeLimit(.minutes(2)))
  func unknownFormat() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await graph(["-o", directory.path("work/g.txt")], in: directory, leaving: [])
    #expect(!result.signalled && result.status == 64, "\(result)")
    #expect(result.errorLines.count == 1, "\(result)")
    #expect(result.standardError.contains(".txt"), "\(result)")
    #expect(result.standardOutput.isEmpty, "\(result)")
  }
}
