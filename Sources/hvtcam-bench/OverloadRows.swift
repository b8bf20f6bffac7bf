import Foundation

/// The overload rows: each engine records on a machine that cannot encode every frame — the simulated
/// camera at one size with `busyLoops` shell loops spinning beside it (`while :; do :; done`) — while its
/// preview's frames are counted. Each engine runs in a child of its own (``ChildMode/overload(_:)``), so
/// that its peak RSS is its own, one after another in one run: HVTCamera as it comes (frames left out when
/// the encoder falls behind), HVTCamera keeping every frame (`slowEncoderPolicy = .keepEveryFrame`), the
/// same pipeline under `gst-launch-1.0` (a plain recording `queue`), and camerabin. Its movie is read by
/// ffprobe: its duration, its frames, and the frames of the time recorded missing by their timestamps
/// (at 30 fps).
struct OverloadRows {
  let resolution: String
  /// Seconds each recording lasts (its requested length).
  let seconds: Int
  /// Shell loops kept spinning while an engine runs.
  let busyLoops: Int
  let directory: URL

  /// One engine's run: what its child measured, its peak RSS, its movie as ffprobe reads it, and the
  /// longest time between two wakes of a ``StallRuler`` beside it, in milliseconds.
  struct Run {
    var report: OverloadReport
    var peakResidentMiB: Double
    var movie: MovieTimeline
    var machineStall: Double
  }

  /// What each alternative is, for the report.
  static let referenceTitles = [
    "gst-launch-1.0": "the same pipeline, a plain recording queue", "camerabin": "our encoders' settings",
  ]

  /// The engines, as the `overload` child names them.
  static let engines = ["hvtcamera", "hvtcamera-keep", "gst-launch-1.0", "camerabin"]

  func run(log: (String) -> Void) throws -> [Row] {
    var runs: [String: Run] = [:]
    for engine in Self.engines {
      log("\(resolution): overload, \(engine) recording \(seconds) s beside \(busyLoops) busy loops")
      runs[engine] = try measure(engine)
    }
    return rows(runs)
  }

  /// Runs `engine`'s child with the busy loops spinning and a ``StallRuler`` measuring the machine beside it.
  private func measure(_ engine: String) throws -> Run {
    let output = directory.appendingPathComponent("overload-\(engine)", isDirectory: true)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let loops = try (0..<busyLoops).map { _ in try ChildProcess("/bin/sh", ["-c", "while :; do :; done"]) }
    defer {
      for loop in loops {
        loop.send(SIGKILL)
        _ = loop.wait()
      }
    }
    let ruler = StallRuler()
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "overload", "--engine", engine, "--quality", resolution, "--seconds", String(seconds),
        "--directory", output.path,
      ])
    let ending = child.wait(timeout: Double(seconds * 12 + 120))
    let stall = ruler.stop()
    guard !ending.signalled, ending.status == 0, let report = try ChildReport(output: ending.output).overload else {
      throw BenchError.failed("the overload child (\(engine)) failed: \(ending.output.suffix(3))")
    }
    return Run(
      report: report, peakResidentMiB: ending.maxResidentMiB,
      movie: try MovieTimeline.read(URL(fileURLWithPath: report.movie)), machineStall: stall.milliseconds)
  }

  /// The rows: each figure of HVTCamera against the launch line and against camerabin, and of HVTCamera
  /// keeping every frame against the launch line; the frames HVTCamera says it left out against the
  /// frames its movie's timestamps miss.
  private func rows(_ runs: [String: Run]) -> [Row] {
    let figures: [(id: String, title: String, unit: String, ratio: Bool, value: (Run) -> Double)] = [
      (
        "overload-preview-fps", "overload: preview frames a second while recording (HVTCamera's read every 10 ms)",
        "fps", true, { Double($0.report.previewFrames) / max(0.001, $0.report.windowSeconds) }
      ),
      (
        "overload-preview-gap", "overload: longest time without a preview frame while recording", "ms", true,
        {
          $0.report.longestGap
        }
      ),
      (
        "overload-timeline",
        "overload: the movie's duration ÷ the wall time its frames cover (HVTCamera: from when its camera made "
          + "the first until it made the last, by their timestamps in the preview; the line: from PLAYING until "
          + "its camera pushed the last; camerabin: from start-capture to stop-capture)", "%", true,
        { 100 * $0.movie.duration / max(0.001, $0.report.coveredSeconds) }
      ),
      (
        "overload-after-end",
        "overload: the movie complete after the recording's requested end (its start + \(seconds) s)",
        "s", true, { $0.report.afterEnd }
      ),
      ("overload-frames-kept", "overload: frames in the movie", "frames", false, { Double($0.movie.frames) }),
      (
        "overload-movie-gap",
        "overload: longest time between two of the movie's frames (how evenly frames are left out)",
        "ms", true, { 1000 * $0.movie.longestGap }
      ),
      ("overload-peak-rss", "overload: peak RSS of the process", "MiB", true, { $0.peakResidentMiB }),
      (
        "overload-machine-stall",
        "overload: the machine's own floor, the longest time between two wakes of a plain thread asking to "
          + "wake every 33 ms beside each engine's run", "ms", false, { $0.machineStall }
      ),
    ]
    let size = "\(resolution), \(busyLoops) busy loops"
    var rows: [Row] = []
    for figure in figures {
      let value = { (engine: String) in Series(values: runs[engine].map { [figure.value($0)] } ?? []) }
      for (suffix, ours, theirs, note) in [
        ("", "hvtcamera", "gst-launch-1.0", ""), ("-camerabin", "hvtcamera", "camerabin", ""),
        ("-keep-every-frame", "hvtcamera-keep", "gst-launch-1.0", " — HVTCamera keeping every frame"),
      ] {
        rows.append(
          Row(
            id: figure.id + suffix, title: figure.title + note, resolution: size, unit: figure.unit,
            hvtcamera: value(ours), reference: (theirs, Self.referenceTitles[theirs] ?? theirs, value(theirs)),
            hasRatio: figure.ratio))
      }
    }
    if let ours = runs["hvtcamera"] {
      rows.append(
        Row(
          id: "overload-dropped",
          title: "overload: frames HVTCamera says it left out, against those its movie's timestamps miss",
          resolution: size, unit: "frames", hvtcamera: Series(values: [Double(ours.report.droppedCounted ?? 0)]),
          reference: (
            "timestamps", "frames of the \(seconds) s recorded missing by ffprobe's timestamps",
            Series(values: [Double(ours.movie.missing(within: seconds))])
          ),
          hasRatio: false))
    }
    return rows
  }
}

/// A movie's video as ffprobe reads its packets' timestamps (`-show_entries packet=pts_time`): its
/// duration (first frame to the end of the last, at 30 fps), its frames, the slots of the 30 fps grid
/// from its first frame that hold one, and the longest time between two frames.
struct MovieTimeline {
  var duration: Double
  var frames: Int
  /// Frame intervals from the first frame at which a frame starts.
  var slots: Set<Int>
  /// Seconds.
  var longestGap: Double

  /// The frames missing from the first `seconds` of the movie, by its timestamps: slots of the 30 fps
  /// grid without a frame, also after its last frame (a movie whose last frames were left out ends early).
  func missing(within seconds: Int) -> Int {
    seconds * 30 - slots.filter { (0..<seconds * 30).contains($0) }.count
  }

  /// Reads `file`'s first video stream.
  static func read(_ file: URL) throws -> MovieTimeline {
    guard let tool = ChildProcess.which("ffprobe") else { throw BenchError.failed("ffprobe not found") }
    let child = try ChildProcess(
      tool, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", file.path],
      quiet: true)
    let ending = child.wait(timeout: 120)
    let times = ending.output.compactMap { Double($0.split(separator: ",").first ?? "") }.sorted()
    guard ending.status == 0, let first = times.first, let last = times.last else {
      throw BenchError.failed("ffprobe read no video packets in \(file.path)")
    }
    return MovieTimeline(
      duration: last - first + 1.0 / 30, frames: times.count,
      slots: Set(times.map { Int((($0 - first) * 30).rounded()) }),
      longestGap: zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0)
  }
}
