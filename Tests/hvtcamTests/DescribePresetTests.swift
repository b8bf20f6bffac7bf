import Foundation
import MediaInspection
import Testing

/// The cases run one at a time: each encodes a second of video, and running all twelve at once on a small
/// machine would starve the latency-sensitive tests that run beside them.
@Suite("hvtcam describe --preset")
struct DescribePresetTests {
  /// The frames `--frames` asks for: one second of the simulated camera.
  static let frames = 30

  @Test(
    "each built-in preset, in each mode: the printed gst-launch-1.0 line, run by /bin/sh, writes the file",
    .timeLimit(.minutes(2)), .serialized, arguments: BuiltInPreset.all, ["video", "photo"])
  func runsThroughTheShell(_ preset: BuiltInPreset, mode: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let files = directory.url.appendingPathComponent("out", isDirectory: true)
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    let name = mode == "video" ? "movie.\(preset.movieExtension)" : "photo.jpg"
    let path = files.appendingPathComponent(name).path

    let result = try await HVTCam.run(
      ["describe"] + HVTCam.simulated + [
        "--preset", preset.name, "--mode", mode, "--frames", String(Self.frames), "-o", path,
      ], environment: HVTCam.environment(configHome: directory.url))
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    try #require(result.outputLines.count == 1, "\(result)")
    let line = result.outputLines[0]
    #expect(line.hasPrefix("gst-launch-1.0 "), "\(result)")
    try await expectPresetElements(of: preset, mode: mode, in: line)

    let run = try await Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line])
    #expect(run.succeeded, "\(line)\n\(run)")
    if mode == "photo" {
      try await expectJPEG(at: path)
    } else {
      let discovery = try await expectMovie(at: path, codec: preset.codec)
      if preset.movieExtension == "mp4" {
        let count = try await MediaInspector.frameCount(path)
        #expect(count.clean, "\(count.output)")
        #expect(count.frames == Self.frames, "\(count.frames) frames")
      } else {
        let duration = try #require(discovery.duration, "\(discovery)")
        let expected = Double(Self.frames) / 30
        #expect(abs(duration - expected) <= 1.0 / 30 + 1e-6, "duration \(duration) s\n\(discovery)")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: files.path) == [name])
  }

  /// What a preset must put on the line: the MJPEG camera decodes JPEG with `jpegdec`; the hardware-first
  /// preset uses the first of its movie encoders that is installed here, as `gst-inspect-1.0` finds them
  /// (`x264enc` on a machine without a hardware encoder).
  func expectPresetElements(of preset: BuiltInPreset, mode: String, in line: String) async throws {
    let words = line.split(separator: " ").map(String.init)
    switch preset.name {
    case "mjpeg-camera":
      #expect(words.contains("jpegdec"), "\(line)")
      #expect(words.contains { $0.hasPrefix("image/jpeg,") }, "\(line)")
    case "hardware-h264" where mode == "video":
      let movie = try #require(try PackageFiles.json(preset.url)["movie"] as? [String: Any])
      let candidates = try #require(movie["encoder"] as? [String]).map { String($0.prefix { $0 != " " }) }
      let installed = try #require(try await firstInstalled(candidates), "none of \(candidates) is installed")
      let encoder = try #require(words.firstIndex(of: "name=movie-encoder"), "\(line)")
      #expect(words[encoder - 1] == installed, "\(line)")
      for other in candidates where other != installed {
        #expect(!words.contains(other), "\(other) is not the encoder installed here:\n\(line)")
      }
    default:
      break
    }
  }
}
