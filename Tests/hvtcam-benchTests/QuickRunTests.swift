import Foundation
import MediaInspection
import Testing

/// Runs the built `hvtcam-bench --quick` once, as CI's smoke run, and checks that its JSON holds every row
/// and every target verdict. Timings are goals, not tests: no value is checked against a limit here.
@Suite("hvtcam-bench --quick", .timeLimit(.minutes(5)))
struct QuickRunTests {
  /// The rows of the 1280x720 size, and whether each has an alternative engine's figure.
  static let sizedRows: [(id: String, hasReference: Bool)] = [
    ("startup", true), ("shutter", true), ("shutter-lag", true), ("record-start", true),
    ("record-start-frame-age", false), ("record-stop", true),
    ("preview-lost-stills", true), ("preview-lost-recording", true), ("shutter-while-recording", false),
    ("cpu-per-frame", true), ("cpu-per-frame-steady", true), ("cpu-fixed", true), ("rss-growth", false),
    ("rss-growth-allocator-left-alone", false), ("rss-growth-freed-memory-kept", false), ("crash-recoverable", true),
    ("preview-latency", true),
    ("preview-latency-gst-launch", true), ("preview-latency-timestamps", true), ("preview-latency-controls", true),
    ("preview-lost-controls", false),
    ("preview-cpu-controls", true), ("cpu-sound", true), ("av-start-offset", true), ("av-end-difference", true),
    ("thumbnail", true), ("stream-cpu", true), ("stream-cpu-steady", true), ("stream-cpu-gst-launch", true),
    ("stream-latency", true),
  ]
  /// The rows of each count of RTSP clients reading the stream while a movie records.
  static let clientRows = ["stream-clients-lost", "stream-client-packets"]
  /// The rows of each concurrent camera count.
  static let concurrentRows = ["concurrent-cpu", "concurrent-lost", "concurrent-preview-lost"]

  @Test("every row is present, with our figure and the alternative's, and every target has a verdict")
  func quickRunWritesEveryRow() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let directory = folder.url
    let json = directory.appendingPathComponent("quick.json")
    let (status, log) = try await run(try Self.executable(), ["--quick", "--json", json.path], in: directory)
    try #require(status == 0, "hvtcam-bench --quick exited with \(status):\n\(log)")
    #expect(log.contains("| start-up"), "the table is printed on stdout")

    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any], "the JSON is an object")
    #expect(report["mode"] as? String == "quick")
    let machine = try #require(report["machine"] as? [String: Any])
    for key in ["processors", "cpuModel", "kernel", "gstreamer"] { #expect(machine[key] != nil, "machine.\(key)") }
    let rows = try #require(report["rows"] as? [[String: Any]])
    func row(_ id: String, _ resolution: String) -> [String: Any]? {
      rows.first { $0["id"] as? String == id && $0["resolution"] as? String == resolution }
    }
    func isMeasured(_ measurement: Any?) -> Bool {
      guard let measurement = measurement as? [String: Any], let values = measurement["values"] as? [Double] else {
        return false
      }
      return !values.isEmpty && measurement["median"] is Double && measurement["min"] is Double
        && measurement["max"] is Double
    }
    for (id, hasReference) in Self.sizedRows {
      let found = row(id, "1280x720")
      #expect(found != nil, "row \(id) at 1280x720")
      #expect(isMeasured(found?["hvtcamera"]), "row \(id): HVTCamera's figure")
      if hasReference { #expect(isMeasured(found?["reference"]), "row \(id): the alternative's figure") }
    }
    let preRoll = row("pre-roll-rss-per-second", "1920x1080")
    #expect(isMeasured(preRoll?["hvtcamera"]) && isMeasured(preRoll?["reference"]), "the pre-roll row at 1920x1080")
    for cameras in [1, 2, 4] {
      for id in Self.concurrentRows {
        #expect(isMeasured(row(id, "640x480 x\(cameras)")?["hvtcamera"]), "row \(id) with \(cameras) camera(s)")
      }
    }
    for clients in [1, 4, 16] {
      for id in Self.clientRows {
        #expect(isMeasured(row(id, "1280x720 x\(clients)")?["hvtcamera"]), "row \(id) with \(clients) client(s)")
      }
    }
    for id in [
      "overload-preview-fps", "overload-preview-gap", "overload-timeline", "overload-after-end", "overload-peak-rss",
      "overload-machine-stall",
    ] {
      for suffix in ["", "-camerabin", "-keep-every-frame"] {
        let found = row(id + suffix, "1280x720, 2 busy loops")
        #expect(isMeasured(found?["hvtcamera"]) && isMeasured(found?["reference"]), "row \(id + suffix)")
      }
    }
    #expect(isMeasured(row("overload-dropped", "1280x720, 2 busy loops")?["reference"]), "the overload drop count")
    let targets = try #require(report["targets"] as? [[String: Any]])
    #expect(targets.count >= 18, "a verdict for every target")
    #expect(targets.allSatisfy { $0["met"] is Bool && $0["measured"] is String })

    // The JSON renders as BENCHMARKS.md does, without measuring again.
    let markdown = directory.appendingPathComponent("report.md")
    let (renderStatus, renderLog) = try await run(
      try Self.executable(), ["--render", json.path, "--markdown", markdown.path], in: directory)
    #expect(renderStatus == 0, "\(renderLog)")
    let text = try String(contentsOf: markdown, encoding: .utf8)
    #expect(text.contains("| start-up: present() → first preview frame | 1280x720 |"))
    #expect(text.contains("<!-- notes: everything below this line is kept"))
  }

  /// Runs the benchmark with its output in files of `directory`, without blocking a thread of the
  /// cooperative pool; returns the exit status and everything it printed.
  func run(_ executable: URL, _ arguments: [String], in directory: URL) async throws -> (Int32, String) {
    let outputURL = directory.appendingPathComponent("output.txt")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputURL)
    defer { try? output.close() }
    let child = try SpawnedChild(
      executable.path, arguments, environment: ProcessInfo.processInfo.environment, directory: directory.path,
      output: .descriptor(output.fileDescriptor), error: .descriptor(output.fileDescriptor))
    // If the test is cancelled (its time limit), the benchmark is stopped, which ends the wait.
    let status: Int32 = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        child.onExit { status, _ in continuation.resume(returning: status) }
      }
    } onCancel: {
      child.signal(SIGTERM)
    }
    // Decoded leniently: a stray byte in GStreamer's warnings must not hide the whole log.
    return (status, String(decoding: try Data(contentsOf: outputURL), as: UTF8.self))
  }

  /// The `hvtcam-bench` built with this test bundle (``BuiltExecutable/find(_:overriddenBy:)``;
  /// `HVTCAM_BENCH_EXECUTABLE` overrides).
  static func executable() throws -> URL {
    try BuiltExecutable.find("hvtcam-bench", overriddenBy: "HVTCAM_BENCH_EXECUTABLE")
  }
}
