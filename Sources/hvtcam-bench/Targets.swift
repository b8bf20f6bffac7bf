import Foundation

/// The issue's targets, checked against a run's rows. They are goals for the engine, not tests: a
/// missed target is reported with its figures, never turned into a failure.
enum Targets {
  /// The row `id` of `resolution`.
  static func row(_ id: String, _ resolution: String, in rows: [Row]) -> Row? {
    rows.first { $0.id == id && $0.resolution == resolution }
  }

  static func evaluate(_ rows: [Row], plan: BenchPlan) -> [TargetVerdict] {
    func row(_ id: String, _ resolution: String) -> Row? { Self.row(id, resolution, in: rows) }
    var verdicts: [TargetVerdict] = []
    func ratioTarget(_ id: String, _ goal: String, _ limit: Double, _ resolution: String) {
      if let verdict = ratioVerdict(row(id, resolution), goal, limit) { verdicts.append(verdict) }
    }
    for resolution in plan.resolutions {
      if let lag = row("shutter-lag", resolution), let ours = lag.hvtcamera {
        let interval = 1000.0 / 30
        verdicts.append(
          TargetVerdict(
            goal: "shutter lag 0: the frame of the moment (age 0 to one frame interval, never a later frame)",
            resolution: resolution, met: ours.min >= 0 && ours.max <= interval + 1,
            measured: String(format: "frame age %.1f to %.1f ms (median %.1f)", ours.min, ours.max, ours.median)
              + (lag.reference.map { String(format: "; camerabin %.1f ms (a frame made after the call)", $0.median) }
                ?? "")))
      }
      ratioTarget("shutter", "shutter → JPEG on disk ≤ 0.5× camerabin", 0.5, resolution)
      ratioTarget("preview-latency", "preview latency ≤ 0.5× camerabin's viewfinder", 0.5, resolution)
      ratioTarget("preview-latency-gst-launch", "preview latency ≤ 1.05× gst-launch-1.0", 1.05, resolution)
      if let row = row("preview-lost-controls", resolution), let ours = row.hvtcamera {
        verdicts.append(
          TargetVerdict(
            goal: "0 preview frames lost while the controls redraw and captures run", resolution: resolution,
            met: ours.max == 0,
            measured: String(format: "%.0f lost in total over %d runs", ours.values.reduce(0, +), ours.count)))
      }
      ratioTarget("stream-cpu", "record + RTSP stream + preview ≤ 1.05× the CPU of recording alone", 1.05, resolution)
      ratioTarget(
        "stream-cpu-steady", "record + RTSP stream + preview ≤ 1.05× the CPU of recording alone, steady state", 1.05,
        resolution)
      ratioTarget(
        "stream-cpu-gst-launch", "record + stream on one encoder below gst-launch-1.0's two encoders", 1.0, resolution)
      ratioTarget("stream-latency", "capture-to-client latency ≤ 1.1× test-launch-style serving", 1.1, resolution)
      let clients = rows.filter { $0.id == "stream-clients-lost" && $0.resolution.hasPrefix("\(resolution) x") }
      if !clients.isEmpty {
        let lost = clients.compactMap { $0.hvtcamera?.max }.max() ?? .nan
        let packets = rows.filter { $0.id == "stream-client-packets" && $0.resolution.hasPrefix("\(resolution) x") }
        let fewest = packets.compactMap { $0.hvtcamera?.min }.min() ?? 0
        let counts = clients.map { $0.resolution.split(separator: "x").last.map(String.init) ?? "?" }
        verdicts.append(
          TargetVerdict(
            goal: "\(counts.joined(separator: ", ")) RTSP clients served with 0 frames lost in the recording",
            resolution: resolution, met: lost == 0 && fewest > 0,
            measured: String(format: "at most %.0f frames lost; every client read at least %.0f packets", lost, fewest))
        )
      }
      ratioTarget("startup", "start-up ≤ 0.3× camerabin", 0.3, resolution)
      ratioTarget("record-start", "record start ≤ 0.3× camerabin", 0.3, resolution)
      ratioTarget("record-stop", "record stop ≤ 0.2× camerabin", 0.2, resolution)
      verdicts += previewLost(rows, resolution)
      verdicts += cpuPerFrame(rows, resolution)
      for id in ["av-start-offset", "av-end-difference", "av-long-start-offset", "av-long-end-difference"] {
        guard let row = row(id, resolution), let ours = row.hvtcamera else { continue }
        let frame = 1000.0 / 30
        verdicts.append(
          TargetVerdict(
            goal: "\(row.title.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)) < one frame (33.3 ms)",
            resolution: resolution, met: ours.max < frame,
            measured: String(format: "at most %.1f ms (median %.1f)", ours.max, ours.median)
              + (row.reference.map { String(format: "; gst-launch-1.0 %.1f ms", $0.median) } ?? "")))
      }
      if let row = row("rss-growth", resolution), let growth = row.hvtcamera?.median {
        verdicts.append(
          TargetVerdict(
            goal: "RSS growth < 5 MiB over the soak", resolution: resolution, met: growth < 5,
            measured: String(format: "%.1f MiB", growth)))
      }
      if let row = row("crash-recoverable", resolution), let ours = row.hvtcamera {
        let loss = Double(plan.crashAfterSeconds) - ours.min
        verdicts.append(
          TargetVerdict(
            goal: "crash loss ≤ 0.5 s", resolution: resolution, met: loss <= 0.5,
            measured: String(
              format: "%.2f s recoverable of %d s (worst loss %.2f s)", ours.median, plan.crashAfterSeconds, loss)
              + (row.reference.map { String(format: "; plain mp4mux %.2f s", $0.median) } ?? "")))
      }
    }
    let most = plan.concurrentCameras.max() ?? 4
    if let one = row("concurrent-cpu", "640x480 x1")?.hvtcamera?.median,
      let many = row("concurrent-cpu", "640x480 x\(most)")?.hvtcamera?.median,
      let lost = row("concurrent-lost", "640x480 x\(most)")?.hvtcamera
    {
      let previewLost = row("concurrent-preview-lost", "640x480 x\(most)")?.hvtcamera?.max ?? 0
      let growth = many / one
      verdicts.append(
        TargetVerdict(
          goal: "\(most) concurrent 640x480 cameras recording with 0 frames lost, CPU growing linearly (per camera "
            + "within 25% of one camera's)",
          resolution: "640x480 x\(most)", met: lost.max == 0 && previewLost == 0 && growth <= 1.25,
          measured: String(
            format:
              "%.0f recording and %.0f preview frames lost (worst camera); CPU per camera %.1f%% with one, %.1f%% with %d (%.2f×)",
            lost.max, previewLost, one, many, most, growth)))
    }
    verdicts += overload(rows)
    for row in rows where row.id == "library-list" {
      guard let ours = row.hvtcamera?.median else { continue }
      verdicts.append(
        TargetVerdict(
          goal: "a library of thousands of photos listed in seconds (≤ 5 s)", resolution: row.resolution,
          met: ours <= 5,
          measured: String(format: "%.2f s", ours)
            + (row.reference.map { String(format: "; gst-discoverer-1.0 on each file %.0f s", $0.median) } ?? "")))
    }
    if let row = rows.first(where: { $0.id == "library-huge-photo" }), let ours = row.hvtcamera?.median {
      verdicts.append(
        TargetVerdict(
          goal: "picking a huge photo costs < 100 MiB above an empty library", resolution: row.resolution,
          met: ours < 100, measured: String(format: "%.1f MiB more", ours)))
    }
    return verdicts
  }
}

extension Targets {
  /// The overload targets, for each size the overload rows measured: HVTCamera's preview at the camera's
  /// own rate (≥ 28 of 30 fps, no gap over 100 ms, or over one frame interval more than the machine's own
  /// floor where that is longer: ``StallRuler``), its movie's timeline true (its duration within 3 % of
  /// the wall time from its start until it stopped taking frames), its movie complete within
  /// 1 s of its requested end, peak RSS under 600 MiB at 4K, and its count of frames left out exact.
  static func overload(_ rows: [Row]) -> [TargetVerdict] {
    var verdicts: [TargetVerdict] = []
    for size in Set(rows.filter { $0.id == "overload-preview-fps" }.map(\.resolution)).sorted() {
      func ours(_ id: String) -> Double? { row(id, size, in: rows)?.hvtcamera?.median }
      func theirs(_ id: String) -> String {
        (row(id, size, in: rows)?.reference?.median).map { String(format: "%.1f", $0) } ?? "—"
      }
      if let fps = ours("overload-preview-fps"), let gap = ours("overload-preview-gap") {
        // A machine that leaves a plain thread without the CPU longer than 100 ms beside the same load (a
        // host capping a virtual machine's CPU time) leaves every preview so: then the bound is that floor
        // and the frame a camera's thread must make after it.
        let stall = ours("overload-machine-stall") ?? 0
        let bound = max(100, stall + 1000.0 / 30)
        verdicts.append(
          TargetVerdict(
            goal: "under overload, the preview at the camera's rate: ≥ 28 fps, no gap over 100 ms "
              + "(or over the machine's own floor and a frame)", resolution: size,
            met: fps >= 28 && gap <= bound,
            measured: String(
              format: "%.1f fps, longest gap %.0f ms (bound %.0f ms; the machine's floor %.0f ms)",
              fps, gap, bound, stall)
              + "; gst-launch-1.0 \(theirs("overload-preview-fps")) fps, \(theirs("overload-preview-gap")) ms"))
      }
      if let timeline = ours("overload-timeline") {
        verdicts.append(
          TargetVerdict(
            goal: "under overload, a true timeline: the movie lasts the wall time its frames cover, within 3 %",
            resolution: size, met: abs(timeline - 100) <= 3,
            measured: String(format: "%.1f %% of it", timeline)
              + "; gst-launch-1.0 \(theirs("overload-timeline")) %, camerabin "
              + "\(theirs("overload-timeline-camerabin")) %"))
      }
      if let after = ours("overload-after-end") {
        verdicts.append(
          TargetVerdict(
            goal: "under overload, the movie delivered within 1 s of its end", resolution: size, met: after <= 1,
            measured: String(format: "complete %.2f s after its end", after)
              + "; gst-launch-1.0 \(theirs("overload-after-end")) s"))
      }
      if size.hasPrefix("3840x2160"), let rss = ours("overload-peak-rss") {
        verdicts.append(
          TargetVerdict(
            goal: "under overload at 4K, peak RSS under 600 MiB", resolution: size, met: rss < 600,
            measured: String(format: "%.0f MiB", rss) + "; gst-launch-1.0 \(theirs("overload-peak-rss")) MiB"))
      }
      if let dropped = row("overload-dropped", size, in: rows), let counted = dropped.hvtcamera?.median,
        let truth = dropped.reference?.median
      {
        verdicts.append(
          TargetVerdict(
            goal: "under overload, the frames left out counted exactly", resolution: size, met: counted == truth,
            measured: String(format: "%.0f counted, %.0f missing by timestamps", counted, truth)))
      }
    }
    return verdicts
  }
}

extension Targets {
  /// The real-camera targets (`hvtcam-bench --camera`, issue 31): start-up, record start and record stop
  /// at most the same pipeline's under `gst-launch-1.0` on the same camera, no preview frame lost during
  /// stills or a recording, the CPU per recorded frame the line's, and an unplug told within 2 s.
  static func realCamera(_ rows: [Row]) -> [TargetVerdict] {
    var verdicts: [TargetVerdict] = []
    for resolution in Set(rows.map(\.resolution)).sorted() {
      for (id, what) in [("startup", "start-up"), ("record-start", "record start"), ("record-stop", "record stop")] {
        let row = row("\(id)-gst-launch", resolution, in: rows)
        if let verdict = ratioVerdict(row, "\(what) ≤ 1.0× the gst-launch-1.0 line on the same camera", 1.0) {
          verdicts.append(verdict)
        }
      }
      verdicts += previewLost(rows, resolution)
      verdicts += cpuPerFrame(rows, resolution)
      if let unplug = row("unplug-noticed", resolution, in: rows), let ours = unplug.hvtcamera {
        verdicts.append(
          TargetVerdict(
            goal: "a camera unplugged while recording: the app told within 2 s (issue 10), every time",
            resolution: resolution, met: ours.max <= 2000,
            measured:
              "median \(ms(ours.median)), at most \(ms(ours.max)); gst-launch-1.0 \(ms(unplug.reference?.median))"))
      }
    }
    return verdicts
  }

  /// A row's ratio against `limit`, with both medians in milliseconds.
  static func ratioVerdict(_ row: Row?, _ goal: String, _ limit: Double) -> TargetVerdict? {
    guard let row, let ratio = row.ratio else { return nil }
    return TargetVerdict(
      goal: goal, resolution: row.resolution, met: ratio <= limit,
      measured: "\(ms(row.hvtcamera?.median)) vs \(ms(row.reference?.median)): " + String(format: "%.2f×", ratio))
  }

  /// No preview frame lost during stills, nor during a recording (with stills taken while it runs).
  static func previewLost(_ rows: [Row], _ resolution: String) -> [TargetVerdict] {
    [("preview-lost-stills", "stills"), ("preview-lost-recording", "recording")].compactMap { id, what in
      guard let row = row(id, resolution, in: rows), let ours = row.hvtcamera else { return nil }
      return TargetVerdict(
        goal: "0 preview frames lost during \(what)", resolution: resolution, met: ours.max == 0,
        measured: String(
          format: "%.0f lost in total over %d windows (at most %.0f in one)", ours.values.reduce(0, +), ours.count,
          ours.max)
          + (row.reference.map { String(format: "; camerabin %.0f in total", $0.values.reduce(0, +)) } ?? ""))
    }
  }

  /// The CPU per recorded frame no more than the same pipeline's under `gst-launch-1.0` (issue 31: the
  /// same pipeline should cost the same), judged while the movie grows (`cpu-per-frame-sampled`: start-up
  /// and tear-down, which `cpu-fixed` reports, left out), or by the whole process where a run lacks that
  /// row; the other measures' ratios beside it.
  static func cpuPerFrame(_ rows: [Row], _ resolution: String) -> [TargetVerdict] {
    let measures = [
      ("while the movie grows", "cpu-per-frame-sampled"), ("whole process", "cpu-per-frame"),
      ("steady state by difference", "cpu-per-frame-steady"),
    ].compactMap { label, id -> (label: String, row: Row, ratio: Double)? in
      guard let row = row(id, resolution, in: rows), let ratio = row.ratio else { return nil }
      return (label, row, ratio)
    }
    guard let judged = measures.first else { return [] }
    let text = measures.map { label, row, ratio in
      String(
        format: "\(label) %.2f vs %.2f ms: %.3f×", row.hvtcamera?.median ?? .nan, row.reference?.median ?? .nan, ratio)
    }
    return [
      TargetVerdict(
        goal: "CPU per recorded frame ≤ 1.0× gst-launch-1.0, \(judged.label)", resolution: resolution,
        met: judged.ratio <= 1.0, measured: text.joined(separator: "; "))
    ]
  }

  /// Milliseconds, or a dash.
  static func ms(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0) } ?? "—" }
}
