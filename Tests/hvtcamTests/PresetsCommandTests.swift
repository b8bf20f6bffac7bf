import Foundation
import MediaInspection
import Testing

/// A bad preset of the corpus and every error `presets validate` must print for it (after `FILE:`).
struct InvalidPreset: Sendable, CustomTestStringConvertible {
  let name: String
  let errors: [String]
  var testDescription: String { "\(name).json" }
  var path: String { PackageFiles.badPresets.appendingPathComponent("\(name).json").path }
}

@Suite("hvtcam presets, --preset")
struct PresetsCommandTests {
  /// A user preset for photos: 640x480, photos with the extension `jpeg`.
  static func snapshotPreset(named name: String) -> String {
    """
    {
      "name": "\(name)",
      "description": "User preset: JPEG photos named .jpeg",
      "quality": "640x480",
      "preview": "fakesink sync=false",
      "photo": { "encoder": "jpegenc quality=80", "extension": "jpeg" },
      "movie": { "encoder": "x264enc speed-preset=ultrafast", "muxer": "mp4mux", "extension": "mp4" }
    }

    """
  }

  /// Writes `text` as `NAME.json` in the user's preset folder under `configHome`; returns its path.
  @discardableResult
  static func writeUserPreset(_ name: String, _ text: String, configHome: URL) throws -> String {
    let folder = configHome.appendingPathComponent("hvtcam/pipelines", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("\(name).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test("the test's table of built-ins is the set of presets in pipelines/")
  func tableMatchesPipelines() {
    let files = PackageFiles.jsonFiles(in: PackageFiles.pipelines).filter { $0 != "schema.json" }
    #expect(files == BuiltInPreset.all.map { "\($0.name).json" })
  }

  @Test("hvtcam presets lists the six built-ins, one line each: name, (built-in), description", .timeLimit(.minutes(2)))
  func listsBuiltIns() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await HVTCam.run(["presets"], environment: HVTCam.environment(configHome: directory.url))
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    #expect(result.outputLines.count == BuiltInPreset.all.count, "\(result)")
    for (line, preset) in zip(result.outputLines, BuiltInPreset.all) {
      let description = try #require(try PackageFiles.json(preset.url)["description"] as? String)
      let match = try #require(line.wholeMatch(of: #/(\S+) +\((\S+)\) +(.+)/#), "\(line)")
      #expect(match.1 == preset.name, "\(line)")
      #expect(match.2 == "built-in", "\(line)")
      #expect(match.3 == description, "\(line)")
    }
  }

  @Test(
    "a user preset in $XDG_CONFIG_HOME/hvtcam/pipelines is listed as user and shadows the built-in of its name",
    .timeLimit(.minutes(2)))
  func userPresetShadowsBuiltIn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let builtIn = try String(contentsOf: BuiltInPreset.all.first { $0.name == "webm-vp8" }!.url, encoding: .utf8)
    let mine = builtIn.replacingOccurrences(
      of: #""description": "[^"]*""#, with: #""description": "My own WebM""#, options: .regularExpression)
    try #require(mine != builtIn)
    let shadowing = try Self.writeUserPreset("webm-vp8", mine, configHome: directory.url)
    try Self.writeUserPreset("snapshot", Self.snapshotPreset(named: "snapshot"), configHome: directory.url)
    let environment = HVTCam.environment(configHome: directory.url)

    let list = try await HVTCam.run(["presets"], environment: environment)
    #expect(list.succeeded, "\(list)")
    #expect(list.standardError.isEmpty, "\(list)")
    #expect(list.outputLines.count == BuiltInPreset.all.count + 1, "\(list)")
    let lines = Dictionary(grouping: list.outputLines) { String($0.prefix { $0 != " " }) }
    #expect(lines["webm-vp8"]?.count == 1, "the user's webm-vp8 is listed once:\n\(list)")
    #expect(lines["webm-vp8"]?.first?.contains(#/^webm-vp8 +\(user\) +My own WebM$/#) == true, "\(list)")
    #expect(
      lines["snapshot"]?.first?.contains(#/^snapshot +\(user\) +User preset: JPEG photos named .jpeg$/#) == true,
      "\(list)")
    for preset in BuiltInPreset.all where preset.name != "webm-vp8" {
      #expect(lines[preset.name]?.first?.contains("(built-in)") == true, "\(preset.name):\n\(list)")
    }

    // Looked up by name, webm-vp8 is now the user's file.
    let show = try await HVTCam.run(["presets", "show", "webm-vp8"], environment: environment)
    #expect(show.succeeded, "\(show)")
    #expect(show.outputLines.first == "# \(shadowing)", "\(show)")
    #expect(show.standardOutput.contains(mine), "\(show)")
  }

  @Test("presets show webm-vp8 prints the preset's file and the elements it resolves to", .timeLimit(.minutes(2)))
  func show() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await HVTCam.run(
      ["presets", "show", "webm-vp8"], environment: HVTCam.environment(configHome: directory.url))
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    let lines = result.outputLines
    let file = try String(contentsOf: PackageFiles.pipelines.appendingPathComponent("webm-vp8.json"), encoding: .utf8)
    let fileLines = ProcessResult.lines(file)
    try #require(lines.count > fileLines.count + 1, "\(result)")
    #expect(lines[0].hasPrefix("# /") && lines[0].hasSuffix("/pipelines/webm-vp8.json"), "\(result)")
    #expect(Array(lines[1...fileLines.count]) == fileLines, "the file as it is:\n\(result)")
    let resolved = Array(lines[(fileLines.count + 1)...])
    #expect(resolved.first == "# resolved here:", "\(result)")
    for (slot, factory) in [
      ("preview", "fakesink"), ("photo.encoder", "jpegenc"), ("movie.encoder", "vp8enc"), ("movie.muxer", "webmmux"),
    ] {
      #expect(resolved.contains { $0.hasPrefix("#   \(slot): \(factory) ") }, "\(slot) → \(factory):\n\(result)")
    }
  }

  @Test("presets validate pipelines/* (every built-in and schema.json) exits 0", .timeLimit(.minutes(2)))
  func validateBuiltIns() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // The shell expands the glob, in the package's root, as a user's would.
    let result = try await Subprocess.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" presets validate pipelines/*"#, HVTCam.executable().path],
      environment: HVTCam.environment(configHome: directory.url), directory: PackageFiles.root)
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    let files = PackageFiles.jsonFiles(in: PackageFiles.pipelines)
    #expect(files.contains("schema.json"))
    #expect(files.count == BuiltInPreset.all.count + 1, "\(files)")
    #expect(result.outputLines.map { String($0.prefix { $0 != ":" }) } == files.map { "pipelines/\($0)" }, "\(result)")
    #expect(result.outputLines.allSatisfy { $0.contains(": ok") }, "\(result)")
  }

  static let invalidPresets = [
    InvalidPreset(
      name: "unknown-key",
      errors: [
        "4:3: qualty: unknown key \"qualty\"; did you mean \"quality\"?", "1:1: missing required key \"quality\"",
      ]),
    InvalidPreset(
      name: "candidate-typo",
      errors: [
        "13:30: movie.encoder[1]: no element 'openh264enk'; did you mean 'openh264enc'?",
        "13:16: movie.encoder: none of the candidates is installed here (nvh264enc | openh264enk; Debian: gstreamer1.0-plugins-bad)",
      ]),
  ]

  @Test(
    "presets validate GOOD BAD GOOD BAD: exit 1 after the first bad file, with every error of it",
    .timeLimit(.minutes(2)), arguments: invalidPresets)
  func validateStopsAtFirstInvalid(_ invalid: InvalidPreset) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let good = PackageFiles.pipelines.appendingPathComponent("default.json").path
    let later = PackageFiles.pipelines.appendingPathComponent("webm-vp8.json").path
    let otherBad = Self.invalidPresets.first { $0.name != invalid.name }!.path
    let result = try await HVTCam.run(
      ["presets", "validate", good, invalid.path, later, otherBad],
      environment: HVTCam.environment(configHome: directory.url))
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.outputLines == ["\(good): ok"], "only the file before the bad one is reported valid:\n\(result)")
    let errors = result.errorLines.map { line in
      line.hasPrefix("hvtcam presets: ") ? String(line.dropFirst("hvtcam presets: ".count)) : line
    }
    #expect(errors == invalid.errors.map { "\(invalid.path):\($0)" }, "\(result)")
    #expect(!result.standardError.contains(later) && !result.standardError.contains(otherBad), "\(result)")
  }

  @Test("presets validate, show or --preset with a missing file: one clear line, exit 1", .timeLimit(.minutes(2)))
  func missingFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let missing = directory.path("missing.json")
    let environment = HVTCam.environment(configHome: directory.url)
    for arguments in [
      ["presets", "validate", missing], ["presets", "show", missing],
      ["photo"] + HVTCam.simulated + ["--preset", missing, "-o", directory.path("shot.jpg")],
    ] {
      let result = try await HVTCam.run(arguments, environment: environment)
      #expect(!result.signalled && result.status == 1, "\(arguments):\n\(result)")
      #expect(result.errorLines.count == 1, "\(arguments):\n\(result)")
      #expect(
        result.standardError.contains("\(missing): cannot read the file: No such file or directory (errno 2)"),
        "\(arguments):\n\(result)")
      #expect(result.standardOutput.isEmpty, "\(arguments):\n\(result)")
    }
    #expect(try directory.contents().isEmpty)
  }

  /// A file no preset reader may crash on: arrays nested 50 000 deep.
  static let deeplyNested = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)

  @Test(
    "broken files in the user folder (50 000 deep, a FIFO) are listed with their errors and break nothing else",
    .timeLimit(.minutes(2)))
  func brokenUserFiles() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let deep = try Self.writeUserPreset("other", Self.deeplyNested, configHome: directory.url)
    let fifo = directory.url.appendingPathComponent("hvtcam/pipelines/fifo.json").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let environment = HVTCam.environment(configHome: directory.url)

    let list = try await HVTCam.run(["presets"], environment: environment)
    #expect(list.succeeded && list.standardError.isEmpty, "\(list)")
    #expect(list.outputLines.count == BuiltInPreset.all.count + 2, "\(list)")
    #expect(
      list.outputLines.contains {
        $0.wholeMatch(of: #/other +\(user\) +unreadable: (.+)/#)?.1 == "\(deep):1:33: nesting deeper than 32"
      },
      "\(list)")
    #expect(
      list.outputLines.contains {
        $0.wholeMatch(of: #/fifo +\(user\) +unreadable: (.+)/#)?.1
          == "\(fifo):1:1: syntax error: unexpected end of the file: expected a value"
      }, "\(list)")

    let shot = directory.path("shot.jpg")
    let photo = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", shot], environment: environment)
    #expect(photo.succeeded && photo.outputLines == [shot], "\(photo)")
    try await expectJPEG(at: shot)
  }

  @Test(
    "a broken user default.json fails the commands that use it, naming its file, line and column; --preset webm-vp8 works",
    .timeLimit(.minutes(2)))
  func brokenUserDefault() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let broken = try Self.writeUserPreset("default", Self.deeplyNested, configHome: directory.url)
    let environment = HVTCam.environment(configHome: directory.url)
    for command in [["photo"], ["describe"], ["presets", "show", "default"]] {
      let arguments = command + (command[0] == "presets" ? [] : HVTCam.simulated + ["-o", directory.path("out.jpg")])
      let result = try await HVTCam.run(arguments, environment: environment)
      #expect(!result.signalled && result.status == 1, "\(arguments):\n\(result)")
      #expect(
        result.errorLines == ["hvtcam \(command[0]): \(broken):1:33: nesting deeper than 32"],
        "\(arguments):\n\(result)")
    }
    let shot = directory.path("shot.jpg")
    let photo = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["--preset", "webm-vp8", "-o", shot], environment: environment)
    #expect(photo.succeeded && photo.outputLines == [shot], "\(photo)")
    try await expectJPEG(at: shot)
  }

  @Test(
    "a preset's own source that fails is named: filesrc (it says nothing of its caps), multifilesrc (fails running)",
    .timeLimit(.minutes(2)),
    arguments: [
      (#""source": "filesrc location=/nonexistent/video.raw""#, "the preset's source 'filesrc' offers no raw or MJPEG"),
      (
        #""source": "multifilesrc location=/nonexistent/%05d.jpg caps=image/jpeg,width=640,height=480,framerate=30/1", "format": "MJPEG""#,
        #"Error while reading from file "/nonexistent/00000.jpg". (/GstPipeline:hvtcamera1/GstMultiFileSrc:camera)"#
      ),
    ])
  func failingSource(keys: String, naming: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let preset = Self.snapshotPreset(named: "source").replacingOccurrences(
      of: #""quality": "640x480","#, with: #""quality": "640x480", \#(keys),"#)
    let file = try Self.writeUserPreset("source", preset, configHome: directory.url)
    let result = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["--preset", file, "-o", directory.path("shot.jpg")],
      environment: HVTCam.environment(configHome: directory.url))
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.standardError.hasPrefix("hvtcam photo: ") && result.standardError.contains(naming), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: directory.path("shot.jpg")))
  }

  @Test(
    "record --preset webm-vp8 writes a 640x480 VP8 WebM of 1.0 s; under the leaks tracer, nothing alive at exit",
    .timeLimit(.minutes(2)))
  func recordWithPreset() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.webm")
    let result = try await HVTCam.run(
      ["record"] + HVTCam.recording + ["--preset", "webm-vp8", "--max-duration", "1", "-o", path],
      environment: LeakTests.tracing(configHome: directory.url))
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path], "\(result)")
    let discovery = try await expectMovie(at: path, codec: "VP8")
    #expect(discovery.output.contains("WebM"), "\(discovery)")
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(abs(duration - 1.0) <= 1.0 / 30 + 1e-6, "duration \(duration) s")
    #expect(try directory.contents() == ["movie.webm"], "no partial file is left behind")
    LeakTests.expectNoLeaks(result)
  }

  @Test(
    "photo --preset FILE and --preset NAME use a user preset: photos named .jpeg", .timeLimit(.minutes(2)))
  func photoWithUserPreset() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let configHome = directory.url.appendingPathComponent("config")
    let file = try Self.writeUserPreset("snapshot", Self.snapshotPreset(named: "snapshot"), configHome: configHome)
    let environment = HVTCam.environment(configHome: configHome)
    for preset in [file, "snapshot"] {
      let photos = directory.url.appendingPathComponent(preset == file ? "by-file" : "by-name")
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      let result = try await HVTCam.run(
        ["photo"] + HVTCam.simulated + ["--preset", preset, "-o", photos.path + "/"], environment: environment)
      #expect(result.succeeded, "\(result)")
      try #require(result.outputLines.count == 1, "\(result)")
      let path = result.outputLines[0]
      #expect(path.hasPrefix(photos.path + "/") && path.hasSuffix(".jpeg"), "\(result)")
      try await expectJPEG(at: path)
      #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).count == 1)
    }
  }

  @Test(
    "a wrong presets command line exits 64 with one line on stderr", .timeLimit(.minutes(2)),
    arguments: [
      ["presets", "validate"], ["presets", "show"], ["presets", "show", "default", "archival"],
      ["presets", "frobnicate"], ["presets", "--bogus"],
    ])
  func usageError(_ arguments: [String]) async throws {
    let result = try await HVTCam.run(arguments)
    #expect(!result.signalled && result.status == 64, "\(result)")
    #expect(result.errorLines.count == 1 && result.standardError.hasPrefix("hvtcam presets"), "\(result)")
    #expect(result.standardOutput.isEmpty, "\(result)")
  }

  @Test(
    "--preset bogus (or presets show bogus) exits 1 naming the available presets", .timeLimit(.minutes(2)),
    arguments: [["photo"], ["record"], ["presets", "show"]])
  func unknownPreset(_ command: [String]) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let arguments =
      command == ["presets", "show"]
      ? command + ["bogus"] : command + HVTCam.simulated + ["--preset", "bogus", "-o", directory.path("out")]
    let result = try await HVTCam.run(arguments, environment: HVTCam.environment(configHome: directory.url))
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.errorLines.count == 1, "\(result)")
    #expect(result.standardError.contains("no preset named 'bogus'"), "\(result)")
    for preset in BuiltInPreset.all {
      #expect(result.standardError.contains(preset.name), "\(preset.name) is not named:\n\(result)")
    }
    #expect(result.standardOutput.isEmpty, "\(result)")
    #expect(try directory.contents().isEmpty, "a failed command wrote something")
  }
}
