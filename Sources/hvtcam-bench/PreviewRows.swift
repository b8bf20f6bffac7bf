import Foundation
import HVTCamera

/// The preview in a window, on a private Xvfb of the benchmark's own: the latency from the camera source
/// to the preview sink, measured by GStreamer's own latency tracer (`GST_TRACERS=latency`) in each
/// engine's process — HVTCamera's `.window` preview, camerabin's viewfinder, and `gst-launch-1.0
/// videotestsrc ! videoconvert ! ximagesink` — and again without the tracer, by frame timestamps, for
/// HVTCamera and the bare line (the tracer sends an event of its own through every element before each
/// frame, which costs a longer pipeline more); and what the default controls cost: latency and CPU
/// against the same preview without them, and preview frames lost while they redraw and captures run.
///
/// Xvfb has no Xv adaptor, so every engine draws with `ximagesink` (the sink HVTCamera chooses there).
struct PreviewRows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL

  /// The window sink every engine draws with.
  static let windowSink = "ximagesink"
  /// Latency values of each run's first frames (the window opening, caps negotiation) are left out.
  static let warmUpFrames = 15

  private enum Engine: CaseIterable {
    case ours, oursWithoutControls, camerabin, gstLaunch
  }

  func run(log: (String) -> Void) throws -> [Row] {
    let display = try PrivateXServer()
    defer { display.stop() }
    var latency: [Engine: Series] = [:]
    var cpu: [Engine: Series] = [:]
    var lost = Series()
    var byTimestamps = (ours: Series(), line: Series())
    for round in 0..<plan.preview.rounds {
      log("\(resolution): preview in a window, round \(round + 1) of \(plan.preview.rounds)")
      let engines = round % 2 == 0 ? Engine.allCases : Engine.allCases.reversed()
      for engine in engines {
        let (milliseconds, percent) = try measure(engine, display: display.name, round: round)
        latency[engine, default: Series()].add(milliseconds)
        if let percent { cpu[engine, default: Series()].add(percent) }
      }
      log("\(resolution): preview latency by frame timestamps, without the tracer, round \(round + 1)")
      for ourTurn in round % 2 == 0 ? [true, false] : [false, true] {
        let report =
          ourTurn
          ? try ours(controls: false, activity: false, display: display.name, log: nil)
          : try child(["--child", "line-preview"], display: display.name, log: nil)
        guard let milliseconds = report.previewLatency else {
          throw BenchError.failed("the preview child reported no latency")
        }
        if ourTurn { byTimestamps.ours.add(milliseconds) } else { byTimestamps.line.add(milliseconds) }
      }
      log("\(resolution): preview with the controls redrawing, captures running, round \(round + 1)")
      let report = try ours(controls: true, activity: true, display: display.name, log: nil)
      lost.add(Double(report.previewLost?.first ?? 0))
    }
    let bare = latency[.oursWithoutControls] ?? Series()
    let latencyTitle = "preview latency: camera source → preview sink in a window on Xvfb (latency tracer)"
    return [
      Row(
        id: "preview-latency", title: latencyTitle, resolution: resolution, unit: "ms", hvtcamera: bare,
        reference: ("camerabin", "viewfinder-sink=ximagesink", latency[.camerabin] ?? Series())),
      Row(
        id: "preview-latency-gst-launch", title: latencyTitle, resolution: resolution, unit: "ms", hvtcamera: bare,
        reference: (
          "gst-launch-1.0", "videotestsrc is-live=true ! caps ! videoconvert ! ximagesink",
          latency[.gstLaunch] ?? Series()
        )),
      Row(
        id: "preview-latency-timestamps",
        title:
          "preview latency by frame timestamps, without the tracer: the running time at the preview sink's pad "
          + "minus the frame's timestamp, mean of each run (HVTPreviewStatistics)",
        resolution: resolution, unit: "ms", hvtcamera: byTimestamps.ours,
        reference: (
          "gst-launch-1.0's line", "the same bare line, parsed in the benchmark's process, the same probe on its sink",
          byTimestamps.line
        )),
      Row(
        id: "preview-latency-controls", title: latencyTitle + ", with the default controls drawn",
        resolution: resolution, unit: "ms", hvtcamera: latency[.ours] ?? Series(),
        reference: ("hvtcamera", "the same preview without controls", bare)),
      Row(
        id: "preview-lost-controls",
        title: "preview frames lost while the controls redraw (recording with the clock, flash changes) and during "
          + "stills and the review screen", resolution: resolution, unit: "frames", hvtcamera: lost, hasRatio: false),
      Row(
        id: "preview-cpu-controls", title: "CPU of a window preview with the default controls (% of one core)",
        resolution: resolution, unit: "%", hvtcamera: cpu[.ours] ?? Series(),
        reference: (
          "hvtcamera", "the same preview without controls (showsCameraControls = false)",
          cpu[.oursWithoutControls] ?? Series()
        )),
    ]
  }

  /// One run of `engine`: the median latency (ms) after the warm-up, and the CPU over the run (% of one
  /// core) for HVTCamera's runs.
  private func measure(_ engine: Engine, display: String, round: Int) throws -> (Double, Double?) {
    let logFile = directory.appendingPathComponent("latency-\(round)-\(engine).log")
    defer { try? FileManager.default.removeItem(at: logFile) }
    var percent: Double?
    switch engine {
    case .ours, .oursWithoutControls:
      percent = try ours(controls: engine == .ours, activity: false, display: display, log: logFile).cpuPercent
    case .camerabin:
      _ = try child(["--child", "camerabin-preview"], display: display, log: logFile)
    case .gstLaunch:
      try gstLaunch(display: display, log: logFile)
    }
    let sink = engine == .camerabin ? "viewfinder" : "preview"
    let values = try Self.latencies(in: logFile, sink: sink).dropFirst(Self.warmUpFrames)
    var series = Series()
    values.forEach { series.add($0) }
    guard let median = series.median else {
      throw BenchError.failed("\(engine): the latency tracer reported no frame at the '\(sink)' sink")
    }
    return (median, percent)
  }

  /// This benchmark's `preview` child.
  private func ours(controls: Bool, activity: Bool, display: String, log: URL?) throws -> ChildReport {
    try child(
      ["--child", "preview"] + (controls ? ["--controls"] : []) + (activity ? ["--activity"] : []), display: display,
      log: log)
  }

  /// Runs one of the benchmark's child modes at this size for the plan's seconds, on `display`, with the
  /// latency tracer writing to `log`.
  private func child(_ arguments: [String], display: String, log: URL?) throws -> ChildReport {
    let process = try ChildProcess(
      ChildProcess.ownExecutable,
      arguments + [
        "--quality", BenchPlan.quality(resolution).commandLineName, "--seconds", String(plan.preview.seconds),
        "--directory", directory.path,
      ], environment: environment(display: display, log: log))
    let ending = process.wait()
    guard !ending.signalled, ending.status == 0 else {
      throw BenchError.failed("the preview child \(arguments[1]) failed: \(ending.output.suffix(3))")
    }
    return try ChildReport(output: ending.output)
  }

  /// The bare preview line both latency measures compare against: the camera's live bars at `width` x
  /// `height`, converted and drawn in a window, its sink named `preview`.
  static func bareLine(width: Int, height: Int, frames: Int? = nil) -> String {
    "videotestsrc is-live=true pattern=smpte" + (frames.map { " num-buffers=\($0)" } ?? "")
      + " ! video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1 ! videoconvert ! "
      + "\(windowSink) name=preview sync=false"
  }

  /// `gst-launch-1.0` showing the same live bars in a window for the plan's seconds (and the half second
  /// the children wait before measuring).
  private func gstLaunch(display: String, log: URL) throws {
    guard let tool = ChildProcess.which("gst-launch-1.0"), let size = BenchPlan.quality(resolution).requestedSize
    else { throw BenchError.failed("no gst-launch-1.0") }
    let frames = (plan.preview.seconds * 2 + 1) * 15
    let line = Self.bareLine(width: size.width, height: size.height, frames: frames)
    let process = try ChildProcess(
      tool, ["-q"] + line.split(separator: " ").map(String.init), environment: environment(display: display, log: log))
    let ending = process.wait()
    guard !ending.signalled, ending.status == 0 else { throw BenchError.failed("gst-launch-1.0 failed") }
  }

  /// The display, a runtime folder as a desktop session has, and the latency tracer writing to `log`.
  private func environment(display: String, log: URL?) -> [String: String] {
    var environment = ["DISPLAY": display, "XDG_RUNTIME_DIR": directory.path, "WAYLAND_DISPLAY": ""]
    if let log {
      environment.merge(
        [
          "GST_TRACERS": "latency", "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1",
          "GST_DEBUG_FILE": log.path,
        ]) { $1 }
    }
    return environment
  }

  /// The latencies (ms) the tracer logged for buffers reaching the sink named `sink`, in order.
  static func latencies(in log: URL, sink: String) throws -> [Double] {
    let text = try String(contentsOf: log, encoding: .utf8)
    let record = #/latency, .*sink-element=\(string\)(?<sink>[^,]+),.* time=\(guint64\)(?<time>\d+)/#
    return text.split(separator: "\n").compactMap { line in
      guard let match = line.firstMatch(of: record), match.sink == sink, let nanoseconds = Double(match.time) else {
        return nil
      }
      return nanoseconds / 1e6
    }
  }
}

/// A private X server (`Xvfb`) for the preview rows, on a display number it picks (`-displayfd`).
struct PrivateXServer {
  private let server: ChildProcess
  /// `:N`, for `DISPLAY`.
  let name: String

  /// Starts Xvfb with a screen that holds a 1080p window, and waits until it accepts clients.
  init() throws {
    guard let xvfb = ChildProcess.which("Xvfb") else {
      throw BenchError.failed("no Xvfb for the preview rows (Debian: xvfb; ./dev bench installs it)")
    }
    server = try ChildProcess(
      xvfb, ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "1920x1200x24"], quiet: true)
    let number = try server.waitForLine("Xvfb's display number") { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    name = ":\(number)"
  }

  /// Stops the server and removes its lock file and socket.
  func stop() {
    server.send(SIGKILL)
    _ = server.wait()
    let number = name.dropFirst()
    try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
    try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
  }
}
