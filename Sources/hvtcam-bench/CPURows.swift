import Foundation
import HVTCamera
import HVTMediaTools

/// CPU per recorded frame: HVTCamera recording `cpuFrames` frames live in a child process of its own,
/// against `gst-launch-1.0` running the same pipeline — the `gst-launch-1.0` line `hvtcam describe`
/// prints for the same settings, i.e. the same elements and properties. CPU time is the whole process's
/// (user + system, from wait4), start-up included, divided by the frames in the file. Both record sound
/// (the simulated microphone, AAC); ours also records silent, for the cost of the sound, and the long
/// movies of both are read by ffprobe for how their picture and sound line up (``AVSync``). On a real
/// camera (``camera``, vivid in the VM tier: no microphone there) only the rows of CPU per frame.
struct CPURows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL
  /// The camera both engines record.
  var camera = BenchCamera.simulated

  func run(log: (String) -> Void) throws -> [Row] {
    let quality = BenchPlan.quality(resolution)
    let model = try OurCamera.pipelineModel(quality: quality, directory: directory, camera: camera)
    let withSound = camera.node == nil
    let (long, short) = (plan.cpuFrames, plan.cpuShortFrames)
    var ours = (whole: Series(), steady: Series(), fixed: Series())
    var theirs = (whole: Series(), steady: Series(), fixed: Series())
    var sampled = (ours: Series(), theirs: Series())
    var silent = Series()
    var sync = (ours: (start: Series(), end: Series()), theirs: (start: Series(), end: Series()))
    func note(_ measured: AVSync, _ series: inout (start: Series, end: Series)) {
      series.start.add(measured.startOffset)
      series.end.add(measured.endDifference)
    }
    for repetition in 0..<plan.cpuRepetitions {
      log(
        "\(resolution): CPU per frame, recordings of \(long) and \(short) frames, \(repetition + 1) of \(plan.cpuRepetitions)"
      )
      // Each engine records `long` and `short` frames; the difference is the steady cost of a frame, the
      // rest the cost of starting and stopping. The order alternates between repetitions.
      var costs: [String: Double] = [:]
      let runs: [(String, () throws -> Double)] =
        [
          (
            "ours-long",
            {
              try self.hvtcamera(
                quality: quality, frames: long, measure: withSound ? { note($0, &sync.ours) } : nil,
                steady: { sampled.ours.add($0) })
            }
          ),
          (
            "theirs-long",
            {
              try self.gstLaunch(
                model: model, frames: long, measure: withSound ? { note($0, &sync.theirs) } : nil,
                steady: { sampled.theirs.add($0) })
            }
          ),
          ("ours-short", { try self.hvtcamera(quality: quality, frames: short) }),
          ("theirs-short", { try self.gstLaunch(model: model, frames: short) }),
        ]
        + (withSound
          ? [("ours-long-silent", { try self.hvtcamera(quality: quality, frames: long, silent: true) })] : [])
      for (name, run) in repetition % 2 == 0 ? runs : runs.reversed() { costs[name] = try run() }
      if let cost = costs["ours-long-silent"] { silent.add(cost * 1000 / Double(long)) }
      func add(_ series: inout (whole: Series, steady: Series, fixed: Series), _ prefix: String) {
        let (longCost, shortCost) = (costs["\(prefix)-long"]!, costs["\(prefix)-short"]!)
        let steady = (longCost - shortCost) / Double(long - short)
        series.whole.add(longCost * 1000 / Double(long))
        series.steady.add(steady * 1000)
        series.fixed.add((shortCost - steady * Double(short)) * 1000)
      }
      add(&ours, "ours")
      add(&theirs, "theirs")
    }
    let reference = "the same pipeline (hvtcam describe) under gst-launch-1.0"
    let perFrame = [
      Row(
        id: "cpu-per-frame",
        title: "CPU per recorded frame, recording \(long) frames live (whole process, start-up included)",
        resolution: resolution, unit: "ms", hvtcamera: ours.whole,
        reference: ("gst-launch-1.0", reference, theirs.whole)),
      Row(
        id: "cpu-per-frame-steady",
        title: "CPU per recorded frame, steady state: (CPU of \(long) frames − CPU of \(short)) / \(long - short)",
        resolution: resolution, unit: "ms", hvtcamera: ours.steady,
        reference: ("gst-launch-1.0", reference, theirs.steady)),
      Row(
        id: "cpu-fixed",
        title: "CPU to start and stop a recording process: CPU of \(short) frames − \(short) × the steady cost",
        resolution: resolution, unit: "ms", hvtcamera: ours.fixed,
        reference: ("gst-launch-1.0", reference, theirs.fixed)),
    ]
    var sampledRows: [Row] = []
    if !sampled.ours.values.isEmpty, !sampled.theirs.values.isEmpty {
      sampledRows.append(
        Row(
          id: "cpu-per-frame-sampled",
          title: "CPU per recorded frame while the movie grows: the process's CPU time (/proc/PID/stat) from the "
            + "first fragment of the \(long)-frame recording on disk to the last before its end, per frame written "
            + "between them (ffprobe's packet positions)",
          resolution: resolution, unit: "ms", hvtcamera: sampled.ours,
          reference: ("gst-launch-1.0", reference, sampled.theirs)))
    }
    guard withSound else { return perFrame + sampledRows }
    return perFrame + sampledRows + [
      Row(
        id: "cpu-sound", title: "CPU per recorded frame with sound (the simulated microphone, AAC), \(long) frames",
        resolution: resolution, unit: "ms", hvtcamera: ours.whole,
        reference: ("hvtcamera", "the same recording without sound (capturesAudio = false)", silent)),
      Row(
        id: "av-start-offset",
        title: "A/V: how far apart the first video and sound packets are, in a \(long)-frame movie (ffprobe)",
        resolution: resolution, unit: "ms", hvtcamera: sync.ours.start,
        reference: ("gst-launch-1.0", reference, sync.theirs.start), hasRatio: false),
      Row(
        id: "av-end-difference",
        title: "A/V: how far apart the ends of picture and sound are, in a \(long)-frame movie (ffprobe): the drift",
        resolution: resolution, unit: "ms", hvtcamera: sync.ours.end,
        reference: ("gst-launch-1.0", reference, sync.theirs.end), hasRatio: false),
    ]
  }

  /// CPU seconds of this benchmark's `record` child recording `frames` frames (`silent`: without sound);
  /// `measure` is given how the movie's picture and sound line up. The child records the time `frames`
  /// take at the camera's rate: a real camera's driver loses frames while the camera waits for the
  /// encoder (every frame is kept), so its movie may hold fewer, and the CPU is scaled to `frames` from
  /// those it holds; the simulated camera's holds every one.
  func hvtcamera(
    quality: HVTCameraController.QualityType, frames: Int, silent: Bool = false, measure: ((AVSync) -> Void)? = nil,
    steady: ((Double) -> Void)? = nil
  ) throws -> Double {
    let output = directory.appendingPathComponent("cpu-ours-\(UUID().uuidString.prefix(8))", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "record", "--quality", quality.commandLineName, "--frames", String(frames),
        "--directory", output.path,
      ] + (silent ? ["--silent"] : []) + (camera.node.map { ["--camera", $0] } ?? []))
    let sampler = steady == nil ? nil : GrowthCPU(pid: child.pid) { GrowthCPU.moviesSize(in: output) }
    let ending = child.wait(timeout: max(300, Double(frames) / Double(camera.frameRate) * 2))
    sampler?.stop()
    guard !ending.signalled, ending.status == 0, let recorded = try ChildReport(output: ending.output).frames,
      camera.node == nil ? recorded == frames : recorded > 0
    else { throw BenchError.failed("the recording child failed: \(ending.output.suffix(3))") }
    if measure != nil || sampler != nil {
      let movies = try FileManager.default.contentsOfDirectory(at: output, includingPropertiesForKeys: nil)
      guard let movie = movies.first(where: { $0.pathExtension == "mp4" }) else {
        throw BenchError.failed("the recording child left no movie in \(output.path)")
      }
      if let measure { measure(try AVSync.measure(movie)) }
      try report(sampler, of: movie, to: steady)
    }
    return ending.cpuSeconds * Double(frames) / Double(recorded)
  }

  /// CPU seconds of `gst-launch-1.0` running the model's pipeline for `frames` frames (`num-buffers`),
  /// with `more` (launch words, e.g. another branch of the camera's tee) after it; `measure` is given how
  /// the movie's picture and sound line up.
  func gstLaunch(
    model: HVTPipelineModel, frames: Int, more: String? = nil, measure: ((AVSync) -> Void)? = nil,
    steady: ((Double) -> Void)? = nil
  ) throws -> Double {
    let file = directory.appendingPathComponent("cpu-gst-launch-\(UUID().uuidString.prefix(8)).mp4")
    defer { try? FileManager.default.removeItem(at: file) }
    let command = model.launchCommand(mode: .video, output: file.path, frames: frames) + (more.map { " " + $0 } ?? "")
    // exec: the shell becomes gst-launch-1.0, so wait4 reports gst-launch-1.0's own CPU time.
    let child = try ChildProcess("/bin/sh", ["-c", "exec " + command])
    let sampler = steady == nil ? nil : GrowthCPU(pid: child.pid) { CaptureFiles.size(of: file) }
    let ending = child.wait()
    sampler?.stop()
    guard !ending.signalled, ending.status == 0 else {
      throw BenchError.failed("gst-launch-1.0 failed (\(ending.status)): \(ending.output.suffix(3))")
    }
    let written = try FrameCount.frames(in: file)
    guard written == frames else {
      throw BenchError.failed("gst-launch-1.0 wrote \(written) frames of \(frames) to \(file.path)")
    }
    if let measure { measure(try AVSync.measure(file)) }
    try report(sampler, of: file, to: steady)
    return ending.cpuSeconds
  }

  /// Gives `steady` the milliseconds of CPU per frame `sampler` measured while `movie` grew, when it could.
  private func report(_ sampler: GrowthCPU?, of movie: URL, to steady: ((Double) -> Void)?) throws {
    guard let sampler, let perFrame = try sampler.cpuPerFrame(movie: movie) else { return }
    steady?(perFrame * 1000)
  }
}
