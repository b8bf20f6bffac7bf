import Foundation
import MediaInspection
import Testing

@Suite("hvtcam, leaks")
struct LeakTests {
  @Test("hvtcam demo under the leaks tracer reports no object alive at exit", .timeLimit(.minutes(2)))
  func demoLeaksNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await HVTCam.run(
      ["demo", "--quality", "640x480", "--seconds", "1", "-o", directory.url.path + "/"],
      environment: Self.tracing(configHome: directory.url).merging(["HVT_CAMERA_SOURCE": "simulated"]) { $1 })
    #expect(result.succeeded, "\(result)")

    // The demo really ran: two photos and two movies, reported and on disk.
    #expect(result.outputLines.filter { $0.hasPrefix("photo: ") }.count == 2, "\(result.standardOutput)")
    #expect(result.outputLines.filter { $0.hasPrefix("movie: ") }.count == 2, "\(result.standardOutput)")
    let files = try directory.contents()
    #expect(files.filter { $0.hasSuffix(".jpg") }.count == 2, "\(files)")
    #expect(files.filter { $0.hasSuffix(".mp4") && !$0.hasSuffix(".partial.mp4") }.count == 2, "\(files)")
    #expect(files.count == 4, "\(files)")

    Self.expectNoLeaks(result)
  }

  /// The listing of real devices makes the process's `GstDeviceMonitor` and starts its providers, which
  /// run until `gst_deinit`; they are stopped and released before it. No PipeWire here (a runtime folder
  /// of the test's own): PipeWire 0.3.65's provider, once connected, is never stopped (README, PipeWire cameras).
  @Test("hvtcam devices under the leaks tracer: the device monitor and its providers are released at exit")
  func deviceListingLeaksNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var environment = Self.tracing(configHome: directory.url)
    environment["XDG_RUNTIME_DIR"] = directory.url.path
    for name in ["HVT_CAMERA_SOURCE", "PIPEWIRE_REMOTE", "PIPEWIRE_RUNTIME_DIR"] { environment[name] = nil }
    let result = try await HVTCam.run(["devices", "--json"], environment: environment)
    #expect(result.succeeded, "\(result)")
    Self.expectNoLeaks(result)
  }

  /// The environment that runs GStreamer's leaks tracer and prints what it finds at exit.
  static func tracing(configHome: URL) -> [String: String] {
    HVTCam.environment(configHome: configHome, setting: tracer)
  }

  /// The variables that run GStreamer's leaks tracer and print what it finds at exit, on standard error.
  static let tracer = ["GST_TRACERS": "leaks", "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1"]

  /// Expects that the leaks tracer ran in the process (it registers its record format, which names
  /// `object-alive`) and found nothing alive: the format line says `type-name=(string)%s`, a leak says
  /// `type-name=(string)GstBuffer, address=…`.
  static func expectNoLeaks(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      result.standardError.contains("object-alive"), "the leaks tracer did not run:\n\(result.standardError)",
      sourceLocation: sourceLocation)
    let leak = #/object-alive, type-name=\(string\)[A-Za-z]/#
    let leaks = result.errorLines.filter { $0.contains("object-alive") && $0.contains(leak) }
    #expect(
      leaks.isEmpty, "\(leaks.count) objects alive at exit:\n\(leaks.prefix(40).joined(separator: "\n"))",
      sourceLocation: sourceLocation)
  }

  /// The files of the bad-preset corpus.
  static let badPresets = PackageFiles.jsonFiles(in: PackageFiles.badPresets)

  @Test("the bad-preset corpus is there")
  func corpusFound() {
    #expect(Self.badPresets.count >= 20, "\(PackageFiles.badPresets.path): \(Self.badPresets)")
  }

  @Test(
    "presets validate of each bad preset under the leaks tracer: exit 1, no object alive at exit",
    .timeLimit(.minutes(2)), .serialized, arguments: badPresets)
  func invalidPresetLeaksNothing(_ name: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // A good preset first, so that GStreamer is initialized (and the tracer runs) even when the bad file
    // fails before the library touches GStreamer, as a syntax error does; validation stops at the bad one.
    let good = PackageFiles.pipelines.appendingPathComponent("default.json").path
    let bad = PackageFiles.badPresets.appendingPathComponent(name).path
    let result = try await HVTCam.run(
      ["presets", "validate", good, bad], environment: Self.tracing(configHome: directory.url))
    #expect(!result.signalled && result.status == 1, "\(result)")
    #expect(result.outputLines == ["\(good): ok"], "\(result)")
    #expect(result.standardError.contains("hvtcam presets: \(bad):"), "\(result)")
    Self.expectNoLeaks(result)
  }
}
