import Foundation
import MediaInspection
import Testing

/// A GStreamer without x264, made for one test: a folder of links to every file of the system's plugin
/// folder but `libgstx264.so`, as the only plugin path, with a registry of its own. The user's preset
/// folder is an empty one in the same place.
struct NoX264World: Sendable {
  let directory: TemporaryDirectory
  /// The environment that makes `hvtcam` (and `gst-inspect-1.0`) see this GStreamer.
  let environment: [String: String]

  /// Builds the plugin folder and its registry, and checks that the registry has OpenH264 and no x264.
  static func make() async throws -> NoX264World {
    let directory = try TemporaryDirectory()
    do {
      let pluginsDirectory = try await MediaInspector.run("pkg-config", ["--variable=pluginsdir", "gstreamer-1.0"])
      let system = pluginsDirectory.output.trimmingCharacters(in: .whitespacesAndNewlines)
      try #require(pluginsDirectory.status == 0 && !system.isEmpty, "\(pluginsDirectory.output)")
      let plugins = directory.url.appendingPathComponent("plugins", isDirectory: true)
      try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: false)
      let files = try FileManager.default.contentsOfDirectory(atPath: system)
      try #require(files.contains("libgstx264.so"), "x264 is not installed here, so there is nothing to take away")
      for file in files where file != "libgstx264.so" {
        try FileManager.default.createSymbolicLink(
          atPath: plugins.appendingPathComponent(file).path, withDestinationPath: "\(system)/\(file)")
      }
      let environment = HVTCam.environment(
        configHome: directory.url.appendingPathComponent("config"),
        setting: [
          "GST_PLUGIN_SYSTEM_PATH_1_0": plugins.path, "GST_PLUGIN_PATH_1_0": "",
          "GST_REGISTRY_1_0": directory.path("registry.bin"),
        ])
      let world = NoX264World(directory: directory, environment: environment)
      // Building the registry once here, so that no two commands build it at the same time.
      try #require(try await world.has("openh264enc"), "openh264enc (Debian: gstreamer1.0-plugins-bad) is missing")
      try #require(try await !world.has("x264enc"), "the registry still has x264enc")
      return world
    } catch {
      directory.remove()
      throw error
    }
  }

  /// Whether `gst-inspect-1.0` finds the element in this GStreamer.
  func has(_ factory: String) async throws -> Bool {
    let result = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["gst-inspect-1.0", "--exists", factory], environment: environment)
    return result.succeeded
  }

  /// Runs `hvtcam arguments` in this GStreamer.
  func hvtcam(_ arguments: [String], setting: [String: String] = [:]) async throws -> ProcessResult {
    try await HVTCam.run(arguments, environment: environment.merging(setting) { _, new in new })
  }
}

@Suite("hvtcam without x264", .timeLimit(.minutes(2)))
struct NoX264Tests {
  @Test("photo, record and describe --mode video: an H.264 movie from openh264enc")
  func defaultPreset() async throws {
    let world = try await NoX264World.make()
    defer { world.directory.remove() }
    let photo = try await world.hvtcam(["photo"] + HVTCam.simulated + ["-o", world.directory.path("shot.jpg")])
    #expect(photo.succeeded, "\(photo)")
    try await expectJPEG(at: world.directory.path("shot.jpg"))

    let path = world.directory.path("movie.mp4")
    let record = try await world.hvtcam(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path])
    #expect(record.succeeded, "\(record)")
    #expect(record.outputLines == [path], "\(record)")
    let discovery = try await expectMovie(at: path, codec: "H.264")
    #expect(abs((discovery.duration ?? 0) - 1) <= 1.0 / 30 + 1e-6, "\(discovery)")

    let describe = try await world.hvtcam(["describe", "--mode", "video"] + HVTCam.simulated)
    #expect(describe.succeeded, "\(describe)")
    let words = describe.standardOutput.split(separator: " ")
    #expect(words.contains("openh264enc") && !words.contains("x264enc"), "\(describe)")
  }

  @Test("demo --seconds 1: both movies are OpenH264 H.264, as the demo reports")
  func demo() async throws {
    let world = try await NoX264World.make()
    defer { world.directory.remove() }
    let output = world.directory.path("demo")
    let result = try await world.hvtcam(
      ["demo", "--seconds", "1", "--quality", "640x480", "-o", output], setting: ["HVT_CAMERA_SOURCE": "simulated"])
    #expect(result.succeeded, "\(result)")
    let movies = result.outputLines.filter { $0.hasPrefix("movie: ") }
    #expect(movies.count == 2, "\(result)")
    for line in movies {
      #expect(line.contains("via openh264enc"), "\(line)")
      let path = String(line.dropFirst("movie: ".count).prefix { $0 != " " })
      try await expectMovie(at: path, codec: "H.264")
    }
  }

  @Test("record --preset NAME: every built-in records without x264; describe names the encoder it uses")
  func builtIns() async throws {
    let world = try await NoX264World.make()
    defer { world.directory.remove() }
    // One GStreamer (one registry) for all six, recording at the same time.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for preset in BuiltInPreset.all {
        group.addTask { try await Self.record(preset, in: world) }
      }
      try await group.waitForAll()
    }
  }

  /// Records a second with the preset and checks the movie and the described pipeline.
  static func record(_ preset: BuiltInPreset, in world: NoX264World) async throws {
    let path = world.directory.path("\(preset.name).\(preset.movieExtension)")
    let result = try await world.hvtcam(
      ["record"] + HVTCam.recording + ["--preset", preset.name, "--max-duration", "1", "-o", path])
    #expect(result.succeeded, "\(preset.name): \(result)")
    #expect(result.outputLines == [path], "\(preset.name): \(result)")
    let discovery = try await expectMovie(at: path, codec: preset.codec)
    #expect(abs((discovery.duration ?? 0) - 1) <= 1.0 / 30 + 1e-6, "\(preset.name): \(discovery)")

    let describe = try await world.hvtcam(["describe", "--mode", "video", "--preset", preset.name] + HVTCam.simulated)
    #expect(describe.succeeded, "\(preset.name): \(describe)")
    let words = describe.standardOutput.split(separator: " ")
    let encoder = preset.codec == "VP8" ? "vp8enc" : "openh264enc"
    #expect(words.contains { $0 == encoder } && !words.contains("x264enc"), "\(preset.name): \(describe)")
  }

  @Test("presets validate of a preset that needs x264enc: 'not installed (Debian: …-ugly)', no did-you-mean")
  func missingX264IsNotATypo() async throws {
    let world = try await NoX264World.make()
    defer { world.directory.remove() }
    let path = world.directory.path("snapshot.json")
    try Data(PresetsCommandTests.snapshotPreset(named: "snapshot").utf8).write(to: URL(fileURLWithPath: path))
    let result = try await world.hvtcam(["presets", "validate", path])
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(
      result.errorLines
        == [
          "hvtcam presets: \(path):7:25: movie.encoder: element 'x264enc' is not installed (Debian: gstreamer1.0-plugins-ugly)"
        ], "\(result)")
  }
}
