import Foundation
import HVTCamera

/// One benchmark run: every row, in order, then the report.
struct BenchRun {
  let options: BenchOptions
  let plan: BenchPlan

  init(_ options: BenchOptions) {
    self.options = options
    plan = options.quick ? .quick : .full
  }

  func run() throws {
    let began = ContinuousClock.now
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = Self.logger(since: began)
    log("hvtcam-bench \(mode) on \(Machine.current().gstreamer)")
    var rows: [Row] = []
    var encoders: [String: LatencyRounds.Encoders] = [:]
    for resolution in plan.resolutions where !options.streamingOnly {
      let (latencyRows, used) = try LatencyRounds(resolution: resolution, plan: plan, directory: directory)
        .run(log: log)
      rows += latencyRows
      encoders[resolution] = used
    }
    for resolution in plan.resolutions where !options.streamingOnly {
      rows += try CPURows(resolution: resolution, plan: plan, directory: directory).run(log: log)
    }
    if !options.streamingOnly { rows += try ConcurrencyRows(plan: plan, directory: directory).run(log: log) }
    if let resolution = plan.resolutions.first, !options.streamingOnly {
      rows += try PreviewRows(resolution: resolution, plan: plan, directory: directory).run(log: log)
      rows += try ThumbnailRows(resolution: resolution, plan: plan, directory: directory).run(log: log)
      rows += try DriftRows(resolution: resolution, plan: plan, directory: directory).run(log: log)
    }
    for resolution in plan.resolutions where !options.streamingOnly {
      rows += try MemoryRows(resolution: resolution, plan: plan, directory: directory).run(log: log)
      rows += try CrashRows(resolution: resolution, plan: plan, directory: directory).run(log: log)
    }
    if let streaming = plan.streaming, let resolution = plan.resolutions.first {
      rows += try StreamRows(resolution: resolution, plan: plan, streaming: streaming, directory: directory).run(
        log: log)
    }
    if let seconds = plan.preRollSeconds, !options.streamingOnly {
      rows += try PreRollRows(directory: directory, longSeconds: seconds).run(log: log)
    }
    if !options.streamingOnly { rows += try LibraryRows(plan: plan, directory: directory).run(log: log) }
    if !options.streamingOnly { rows += try overloadRows(directory: directory, log: log) }
    let formatter = ISO8601DateFormatter()
    let report = BenchReport(
      mode: mode, command: Self.command(), date: formatter.string(from: Date()),
      durationSeconds: began.duration(to: .now).seconds, machine: .current(), plan: plan, encoders: encoders,
      rows: rows, targets: Targets.evaluate(rows, plan: plan))
    print(Report.table(report.rows))
    print()
    print(Report.targets(report.targets))
    try write(report, log: log)
  }

  /// What the run measures: `full`, `quick` or `streaming` (`--streaming-only`).
  private var mode: String { options.streamingOnly ? "streaming" : options.quick ? "quick" : "full" }

  /// Only the preview-window rows (`--preview-rows`), at the plan's first size (``runRows(_:_:)``).
  func runPreviewRows() throws {
    try runRows("preview rows") { directory, log in
      guard let resolution = plan.resolutions.first else { return [] }
      return try PreviewRows(resolution: resolution, plan: plan, directory: directory).run(log: log)
    }
  }

  /// Only the overload rows (`--overload-rows`) (``runRows(_:_:)``).
  func runOverloadRows() throws {
    try runRows("overload rows") { directory, log in try overloadRows(directory: directory, log: log) }
  }

  /// The overload rows of the plan, at each of its sizes (none without them).
  private func overloadRows(directory: URL, log: (String) -> Void) throws -> [Row] {
    guard let overload = plan.overload else { return [] }
    return try overload.resolutions.flatMap { resolution in
      try OverloadRows(
        resolution: resolution, seconds: overload.seconds, busyLoops: overload.busyLoops, directory: directory
      ).run(log: log)
    }
  }

  /// Only the rows of CPU per recorded frame (`--cpu-rows`), at each of the plan's sizes
  /// (``runRows(_:_:)``).
  func runCPURows() throws {
    try runRows("CPU rows") { directory, log in
      try plan.resolutions.flatMap { try CPURows(resolution: $0, plan: plan, directory: directory).run(log: log) }
    }
  }

  /// Only the in-process rows (`--latency-rows`): start-up, shutter, record start and stop and preview
  /// frames lost against camerabin, at each of the plan's sizes (``runRows(_:_:)``).
  func runLatencyRows() throws {
    try runRows("latency rows") { directory, log in
      try plan.resolutions.flatMap {
        try LatencyRounds(resolution: $0, plan: plan, directory: directory).run(log: log).rows
      }
    }
  }

  /// Only the library rows (`--library-rows`) (``runRows(_:_:)``).
  func runLibraryRows() throws {
    try runRows("library rows") { directory, log in try LibraryRows(plan: plan, directory: directory).run(log: log) }
  }

  /// The rows `measure` makes alone: printed, and written as JSON when `--json` asks; never into
  /// `BENCHMARKS.md` or `BENCHMARKS.json`, whose full run they would replace with a fraction of its rows.
  private func runRows(
    _ name: String, _ measure: (URL, (String) -> Void) throws -> [Row]
  ) throws {
    let began = ContinuousClock.now
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = Self.logger(since: began)
    log(
      "hvtcam-bench --\(name.replacingOccurrences(of: " ", with: "-"))\(options.quick ? " --quick" : "") on \(Machine.current().gstreamer)"
    )
    let rows = try measure(directory, log)
    let report = BenchReport(
      mode: options.quick ? "quick \(name)" : name, command: Self.command(),
      date: ISO8601DateFormatter().string(from: Date()), durationSeconds: began.duration(to: .now).seconds,
      machine: .current(), plan: plan, encoders: [:], rows: rows, targets: Targets.evaluate(rows, plan: plan))
    print(Report.table(report.rows))
    print()
    print(Report.targets(report.targets))
    guard let jsonPath = options.jsonPath else { return }
    try Self.encode(report, to: jsonPath)
    log("wrote \(jsonPath)")
  }

  /// The real-camera rows on the V4L2 node `node` (`--camera`): the latency rounds against camerabin and
  /// the `gst-launch-1.0` lines, CPU per recorded frame and five unplugs while recording against the
  /// latter, written as JSON (default `BENCHMARKS-vivid.json`). The unplugs need vivid's `disconnect`
  /// button.
  func runOnCamera(_ node: String) throws {
    let began = ContinuousClock.now
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = Self.logger(since: began)
    let camera = BenchCamera.vivid(node)
    let plan = BenchPlan.realCamera
    log("hvtcam-bench --camera \(node) on \(Machine.current().gstreamer)")
    // The unplugs first, before this process opens the node (see UnplugRows).
    var rows = try plan.resolutions.flatMap { resolution in
      try UnplugRows(resolution: resolution, node: node, rounds: 5, directory: directory).run(log: log)
    }
    var encoders: [String: LatencyRounds.Encoders] = [:]
    for resolution in plan.resolutions {
      let (latencyRows, used) = try LatencyRounds(
        resolution: resolution, plan: plan, directory: directory, camera: camera
      ).run(log: log)
      rows += latencyRows
      encoders[resolution] = used
      rows += try CPURows(resolution: resolution, plan: plan, directory: directory, camera: camera).run(log: log)
    }
    let report = BenchReport(
      mode: "camera \(camera.description)", command: Self.command(),
      date: ISO8601DateFormatter().string(from: Date()), durationSeconds: began.duration(to: .now).seconds,
      machine: .current(), plan: plan, encoders: encoders, rows: rows, targets: Targets.realCamera(rows))
    print(Report.table(report.rows))
    let jsonPath = options.jsonPath ?? Self.realCameraJSON
    try Self.encode(report, to: jsonPath)
    log("wrote \(jsonPath)")
  }

  /// The real-camera run's JSON, beside `BENCHMARKS.json`; `--render` shows it in its own section.
  static let realCameraJSON = "BENCHMARKS-vivid.json"

  /// A fresh folder for the run's files.
  private static func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("hvtcam-bench-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Progress on standard error, stamped with the seconds since `began`.
  private static func logger(since began: ContinuousClock.Instant) -> (String) -> Void {
    { message in
      let elapsed = String(format: "%6.1f", began.duration(to: .now).seconds)
      FileHandle.standardError.write(Data("[\(elapsed) s] \(message)\n".utf8))
    }
  }

  /// Writes a report as pretty, sorted JSON.
  private static func encode(_ report: BenchReport, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(report).write(to: URL(fileURLWithPath: path))
  }

  /// Writes the report of an earlier run's JSON (`--render`) as Markdown, measuring nothing.
  func render(_ jsonPath: String) throws {
    let report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: jsonPath)))
    try writeMarkdown(report, jsonPath: jsonPath, to: options.markdownPath ?? "BENCHMARKS.md")
    FileHandle.standardError.write(Data("wrote \(options.markdownPath ?? "BENCHMARKS.md") from \(jsonPath)\n".utf8))
  }

  /// Writes the JSON file and, for a full run or when asked, `BENCHMARKS.md`.
  private func write(_ report: BenchReport, log: (String) -> Void) throws {
    let partial = options.quick || options.streamingOnly
    let jsonPath =
      options.jsonPath
      ?? (partial
        ? FileManager.default.temporaryDirectory.appendingPathComponent("hvtcam-bench-\(mode).json").path
        : "BENCHMARKS.json")
    try Self.encode(report, to: jsonPath)
    log("wrote \(jsonPath)")
    guard let markdownPath = options.markdownPath ?? (partial ? nil : "BENCHMARKS.md") else { return }
    try writeMarkdown(report, jsonPath: jsonPath, to: markdownPath)
    log("wrote \(markdownPath)")
  }

  /// Writes `BENCHMARKS.md`, keeping the notes of the file it replaces, and linking the JSON when it is
  /// in the same folder.
  private func writeMarkdown(_ report: BenchReport, jsonPath: String, to markdownPath: String) throws {
    let markdownURL = URL(fileURLWithPath: markdownPath)
    let previous = try? String(contentsOf: markdownURL, encoding: .utf8)
    let jsonURL = URL(fileURLWithPath: jsonPath)
    let jsonName =
      jsonURL.deletingLastPathComponent().standardizedFileURL
        == markdownURL.deletingLastPathComponent().standardizedFileURL
      ? jsonURL.lastPathComponent : nil
    let realCameraURL = jsonURL.deletingLastPathComponent().appendingPathComponent(Self.realCameraJSON)
    let realCamera = try? JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: realCameraURL))
    try Report.markdown(report, jsonName: jsonName, previous: previous, realCamera: realCamera)
      .write(to: markdownURL, atomically: true, encoding: .utf8)
  }

  /// The command that started this run, as CONTRIBUTING.md documents it when run through `./dev bench`.
  static func command() -> String {
    if let documented = ProcessInfo.processInfo.environment["HVTCAM_BENCH_COMMAND"] { return documented }
    return (["hvtcam-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
  }
}
