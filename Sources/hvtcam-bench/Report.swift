import Foundation

/// Renders a run as the table on stdout, as `BENCHMARKS.md`, and as JSON.
enum Report {
  /// The line in `BENCHMARKS.md` below which hand-written notes are kept across runs.
  static let notesMarker = "<!-- notes: everything below this line is kept when hvtcam-bench rewrites this file -->"

  /// `median (min–max)` in the row's unit.
  static func summary(_ measurement: Measurement?, unit: String) -> String {
    guard let measurement else { return "—" }
    let format: String
    switch unit {
    case "frames": format = "%.0f"
    case "s": format = "%.2f"
    case "ms": format = measurement.median.magnitude < 10 ? "%.2f" : "%.1f"
    default: format = "%.1f"
    }
    func text(_ value: Double) -> String { String(format: format, value) }
    let suffix = unit == "frames" ? "" : " \(unit)"
    if measurement.count == 1 || measurement.min == measurement.max { return text(measurement.median) + suffix }
    return "\(text(measurement.median))\(suffix) (\(text(measurement.min))–\(text(measurement.max)))"
  }

  /// The results as a Markdown table.
  static func table(_ rows: [Row]) -> String {
    var lines = [
      "| row | size | HVTCamera: median (min–max) | n | alternative: median (min–max) | n | ratio |",
      "|---|---|---|---|---|---|---|",
    ]
    for row in rows {
      let alternative =
        row.reference.map { "\(summary($0, unit: row.unit)) — \($0.engine): \(row.referenceTitle ?? "")" } ?? "—"
      lines.append(
        "| \(row.title) | \(row.resolution) | \(summary(row.hvtcamera, unit: row.unit)) | \(row.hvtcamera?.count ?? 0) | "
          + "\(alternative) | \(row.reference.map { String($0.count) } ?? "") | "
          + "\(row.ratio.map { String(format: "%.2f×", $0) } ?? "") |")
    }
    return lines.joined(separator: "\n")
  }

  /// The section of the real-camera run (`hvtcam-bench --camera`, `./dev bench-vm`), ending in a blank line.
  static func realCameraSection(_ report: BenchReport) -> String {
    let camera = report.mode.replacingOccurrences(of: "camera ", with: "")
    return """
      ## On a real V4L2 camera: vivid, in the VM tier

      The same engines on \(camera), in QEMU without KVM (`Tests/VM/boot`: Debian's kernel with `vivid`), \
      one run with the engines alternating every round, and the `gst-launch-1.0` lines `hvtcam describe` \
      prints for the same settings as a third engine (built in-process by `gst_parse_launch`, as \
      `gst-launch-1.0` builds them; each photo or recording is a new run of its line, which opens the camera \
      again). Emulation makes every figure slower: compare ratios, not times. camerabin's caps are pinned to \
      the camera's format and rate.

      - **Command:** `\(report.command)` (\(String(format: "%.1f", report.durationSeconds / 60)) min, \(report.date))
      - **Machine (the VM):** \(report.machine.processors) processors, Linux \(report.machine.kernel); \
      \(report.machine.gstreamer)
      - **Repetitions per engine:** \(report.plan.rounds) start-ups, \(report.plan.rounds * report.plan.burst) \
      stills, \(report.plan.rounds) recordings of \(report.plan.recordingSeconds) s
      - **Encoders:** \(encoders(report.encoders))

      \(table(report.rows))

      \(report.targets.isEmpty ? "" : "The issue's targets for a real camera:\n\n\(targets(report.targets))\n\n")
      """
  }

  /// The targets as a Markdown table.
  static func targets(_ verdicts: [TargetVerdict]) -> String {
    var lines = ["| target | size | | measured |", "|---|---|---|---|"]
    for verdict in verdicts {
      lines.append(
        "| \(verdict.goal) | \(verdict.resolution) | \(verdict.met ? "met" : "**missed**") | \(verdict.measured) |")
    }
    return lines.joined(separator: "\n")
  }

  /// Both engines' `x264enc` settings per size, as Markdown.
  static func encoders(_ encoders: [String: LatencyRounds.Encoders]) -> String {
    encoders.sorted { $0.key < $1.key }.map { size, used in
      "\(size): ours `\(used.hvtcamera)`, camerabin's `\(used.camerabin)`"
    }.joined(separator: "; ")
  }

  /// `BENCHMARKS.md`: the machine, the command, the table, the targets and how it measures, followed by
  /// the notes of the previous file (kept below `notesMarker`).
  /// How the overload rows measure, as a line of the method's list (empty without them).
  static func overloadMethod(_ overload: BenchPlan.Overload?) -> String {
    guard let overload else { return "" }
    return """
      - **Overload:** \(overload.busyLoops) shell loops (`while :; do :; done`) spin while each engine, in a \
      process of its own, records \(overload.seconds) s at \(overload.resolutions.joined(separator: " and ")): \
      HVTCamera as it comes (frames left out when the encoder falls behind), HVTCamera with \
      `slowEncoderPolicy = .keepEveryFrame`, the `gst-launch-1.0` line (a plain recording `queue`: `num-buffers` \
      frames), camerabin (`stop-capture` after \(overload.seconds) s of wall time). The preview's frames are counted \
      from the recording's start to its movie (a probe on the sink; HVTCamera's `previewStatistics`, read \
      every 10 ms); the movie's frames and timestamps by ffprobe; the peak RSS from `wait4`. Beside each \
      engine, a thread of the benchmark asks to wake every 33 ms and keeps its longest time between two wakes: \
      the machine's own floor for a preview's gaps under that load.

      """
  }

  static func markdown(_ report: BenchReport, jsonName: String?, previous: String?, realCamera: BenchReport? = nil)
    -> String
  {
    let machine = report.machine
    let notes = previous.flatMap { text in
      text.range(of: notesMarker).map { String(text[$0.upperBound...]).trimmingCharacters(in: .newlines) }
    }
    return """
      # Benchmarks

      HVTCamera side by side with GStreamer's `camerabin` and a bare `gst-launch-1.0` pipeline, on the simulated \
      camera (a live `videotestsrc`, SMPTE bars, I420 at 30 fps), measured in one run with the engines \
      alternating every round. Written by `hvtcam-bench`\(jsonName.map { "; every value is in [`\($0)`](\($0))" } ?? "").

      - **Command:** `\(report.command)` (\(report.mode) run, \(String(format: "%.1f", report.durationSeconds / 60)) min, \(report.date))
      - **Machine:** \(machine.processors) processors (`nproc`), \(machine.cpuModel); Linux \(machine.kernel); \
      \(machine.system); \(machine.gstreamer)
      - **Repetitions per engine and size:** \(report.plan.rounds) start-ups, \(report.plan.rounds * report.plan.burst) \
      stills (\(report.plan.rounds) bursts of \(report.plan.burst)), \(report.plan.rounds) recordings of \
      \(report.plan.recordingSeconds) s, \(report.plan.cpuRepetitions) recordings of \(report.plan.cpuFrames) and of \
      \(report.plan.cpuShortFrames) frames for CPU, \(report.plan.crashRepetitions) kills per engine; one soak per \
      allocator setting and one concurrency run per camera count.
      - **Encoders** (camerabin's read back from its element after it was set; GStreamer prints a flag by its \
      name, so `tune=Zero latency` is `zerolatency`): \(encoders(report.encoders))

      ## Results

      \(table(report.rows))

      \(realCamera.map(realCameraSection) ?? "")## Targets

      The issue's targets (goals for the engine, not tests).

      \(targets(report.targets))

      ## How it measures

      - **Engines.** HVTCamera: `HVTCameraController(source: .simulated)` with the default preset (`x264enc \
      speed-preset=superfast tune=zerolatency`, bit rate and key-frame interval set by the engine, `jpegenc \
      quality=90`, fragmented `mp4mux`). camerabin: `wrappercamerabinsrc` with `video-source` = `videotestsrc \
      is-live=true pattern=smpte`, viewfinder, image and video caps pinned to `video/x-raw,format=I420,…,framerate=30/1`, \
      `fakesink sync=false` as viewfinder (as our preview), a `video-profile` built with the GstEncodingProfile API \
      (MP4 via `mp4mux`, H.264 via `x264enc`, no audio), its `x264enc` and `jpegenc` given exactly the properties \
      of ours (set when `encodebin` adds them, seen through `deep-element-added`), driven by the `start-capture` / \
      `stop-capture` action signals. `gst-launch-1.0`: the line `hvtcam describe --mode video` prints for the same \
      settings, with `num-buffers`.
      - **Timestamps** come from pad probes and the bus sync handler, on `ContinuousClock`: ours from \
      `HVTCameraEvent.previewStarted(at:)` (a probe on the preview sink), `HVTMediaMetadata.encodingStartedAt` \
      (a probe on the encoder's sink pad), `HVTMediaMetadata.frameAge` and the moment the delegate is called; \
      camerabin's from probes on its viewfinder sink, its `x264enc` and `jpegenc` sink pads, and `image-done` / \
      `video-done` in the bus sync handler. The `gst-launch-1.0` movie line's stop ends when its EOS message, \
      taken from the sync handler to the main thread, is seen there, as an app's bus watch would see it and as \
      ours ends with the delegate on the main actor.
      - **Record stop** is asked for the recording's seconds after its start, at a set point of a frame interval \
      after the camera's next frame (counted entering the tee, or at camerabin's source): round k of n stops every \
      engine at (k·s mod n + ½)/n of the interval (s prime to n, the nearest to 0.618·n), so the rounds cover \
      the interval evenly and each engine's stops meet its encoder at the same points; a stop waits behind the \
      frame still on its way, and at random points the share of stops that met one swung the medians from run \
      to run.
      - **Shutter lag** is the captured frame's age when the capture was asked for: running time at the call \
      minus the frame's timestamp. Negative means a frame made after the call.
      - **Preview frames lost** are counted at the preview (viewfinder) sink: frames the timestamps say were made \
      between the newest frame before the window and the newest frame \(Int(LatencyRounds.settle.milliseconds)) ms \
      after its last capture, minus the frames that arrived.
      - **CPU per recorded frame** is the whole process's CPU time (user + system, from `wait4`), start-up and \
      finalization included, divided by the frames in the file (counted with `qtdemux` for `gst-launch-1.0`); \
      each engine runs in a process of its own, recording \(report.plan.cpuFrames) frames live. Each also records \
      \(report.plan.cpuShortFrames) frames: the difference of the two is the steady cost of a frame, and what \
      remains of the short run is the cost of starting and stopping. The sampled row reads the long run's \
      process in `/proc/PID/stat`, and the size of its movie, every 50 ms; it divides the CPU time between the \
      first fragment on disk and the last one before the end by the frames written between them (where each \
      video packet ends in the finished file, by ffprobe): the cost of a frame while the recording runs, \
      where the difference of two processes also holds whatever either does outside its frames.
      - **Concurrent cameras:** one process, N controllers at 640x480 recording for \
      \(report.plan.concurrentSeconds) s; CPU is `getrusage` over the window divided by N; frames lost are the \
      frames a camera made in real time (wall clock from the first recorded frame to the stop) but not recorded, \
      and preview frames lost by timestamps.
      - **Memory:** resident set size (`/proc/self/statm`) after a warm-up (5 stills, 1 recording) and after \
      \(report.plan.soakStills) stills and \(report.plan.soakRecordings) half-second recordings, in one process, \
      as an application runs it (the engine pins glibc's mmap threshold at 128 KiB, so that freed frame-sized \
      blocks go back to the system); then again with `HVTCameraRuntime.pinsMmapThreshold = false`, where glibc \
      raises the threshold as it frees large blocks and keeps later ones in malloc's arenas; then again with \
      `HVTCameraRuntime.releasesFreedMemory = false`, where the engine does not call `malloc_trim(0)` after a \
      recording and the arenas of the encoders' threads keep what they freed.
      - **Crash loss:** `kill -9` \(report.plan.crashAfterSeconds) s after the first frame entered the recording \
      (ours) or after `gst-launch-1.0` set PLAYING (plain `mp4mux`), then the frames `qtdemux` can read.
      \(overloadMethod(report.plan.overload))
      \(notesMarker)

      \(notes ?? "## Analysis\n\n(Notes on the results go here; hvtcam-bench keeps them.)")

      """
  }
}
