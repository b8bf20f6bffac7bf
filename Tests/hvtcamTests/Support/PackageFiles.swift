import Foundation
import MediaInspection
import Testing

/// Files of this package the tests read, found from this source file's path, so that they are the ones in
/// the source tree (not the copies the build makes): the built-in presets and the bad-preset corpus.
enum PackageFiles {
  /// The package's root directory.
  static let root = URL(fileURLWithPath: #filePath)  // Tests/hvtcamTests/Support/PackageFiles.swift
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// `pipelines/`: the built-in presets and their schema.
  static let pipelines = root.appendingPathComponent("pipelines", isDirectory: true)
  /// The library tests' corpus of invalid presets.
  static let badPresets = root.appendingPathComponent("Tests/HVTCameraTests/Fixtures/BadPresets", isDirectory: true)

  /// The names of the `.json` files in `directory`, sorted.
  static func jsonFiles(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }

  /// The top-level JSON object of a preset file.
  static func json(_ url: URL) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
      throw TestFailure("\(url.path) is not a JSON object")
    }
    return object
  }
}

/// A built-in preset as the tests know it, written down independently of the library: its name, what its
/// movies are and where its file is.
struct BuiltInPreset: Sendable, CustomTestStringConvertible {
  let name: String
  /// The movie file extension.
  let movieExtension: String
  /// How `gst-discoverer-1.0` names the movie's video codec (a prefix: `H.264` or `VP8`).
  let codec: String

  var testDescription: String { name }
  /// The preset's file in `pipelines/`.
  var url: URL { PackageFiles.pipelines.appendingPathComponent("\(name).json") }

  /// The six built-ins.
  static let all = [
    BuiltInPreset(name: "archival", movieExtension: "mkv", codec: "H.264"),
    BuiltInPreset(name: "default", movieExtension: "mp4", codec: "H.264"),
    BuiltInPreset(name: "hardware-h264", movieExtension: "mp4", codec: "H.264"),
    BuiltInPreset(name: "low-latency-720p", movieExtension: "mp4", codec: "H.264"),
    BuiltInPreset(name: "mjpeg-camera", movieExtension: "mp4", codec: "H.264"),
    BuiltInPreset(name: "webm-vp8", movieExtension: "webm", codec: "VP8"),
  ]
}

extension HVTCam {
  /// Runs `hvtcam arguments` to the end in `directory`.
  static func run(_ arguments: [String], environment: [String: String], directory: URL) async throws -> ProcessResult {
    try await Subprocess.run(executable(), arguments, environment: environment, directory: directory)
  }

  /// This process's environment with the user's preset folder (`$XDG_CONFIG_HOME/hvtcam/pipelines`) in
  /// `configHome`, so that the presets the user of this machine may have play no part, and `setting` added.
  static func environment(configHome: URL, setting: [String: String] = [:]) -> [String: String] {
    environment(setting: setting.merging(["XDG_CONFIG_HOME": configHome.path]) { _, home in home })
  }
}

/// Whether `gst-inspect-1.0` finds the element factory here.
func isInstalled(_ factory: String) async throws -> Bool {
  try await MediaInspector.run("gst-inspect-1.0", ["--exists", factory]).status == 0
}

/// The first of `factories` that `gst-inspect-1.0` finds here.
func firstInstalled(_ factories: [String]) async throws -> String? {
  for factory in factories where try await isInstalled(factory) { return factory }
  return nil
}

/// Expects a 640x480 movie at `path` whose video stream `gst-discoverer-1.0` names `codec…`, and returns
/// what it saw.
@discardableResult
func expectMovie(at path: String, codec: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
  -> MediaInspector.Discovery
{
  #expect(FileManager.default.fileExists(atPath: path), "missing \(path)", sourceLocation: sourceLocation)
  let discovery = try await MediaInspector.discover(path)
  #expect(!discovery.failed, "\(discovery)", sourceLocation: sourceLocation)
  #expect(discovery.codec?.hasPrefix(codec) == true, "not \(codec): \(discovery)", sourceLocation: sourceLocation)
  #expect(discovery.size == "640x480", "\(discovery)", sourceLocation: sourceLocation)
  return discovery
}

extension TemporaryDirectory {
  /// A user preset named `streaming` (640x480, `jpegenc`, x264 in MP4) whose `streams` are `streams`
  /// (JSON array text), written into this directory; returns its path.
  func preset(streams: String) throws -> String {
    let path = path("streaming.json")
    try """
    {
      "name": "streaming", "description": "a preset with streams", "quality": "640x480",
      "preview": "fakesink sync=false",
      "photo": { "encoder": "jpegenc", "extension": "jpg" },
      "movie": { "encoder": "x264enc speed-preset=superfast tune=zerolatency", "muxer": "mp4mux", "extension": "mp4" },
      "streams": \(streams)
    }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}
