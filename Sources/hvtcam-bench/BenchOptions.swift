import Foundation
import HVTCamera

/// The command line: `hvtcam-bench [--quick] [--json PATH] [--markdown PATH]`, and the hidden child
/// modes the benchmark runs itself in (`--child MODE …`).
struct BenchOptions {
  static let usage = """
    usage: hvtcam-bench [--quick] [--streaming-only] [--json PATH] [--markdown PATH]
           hvtcam-bench --preview-rows [--quick] [--json PATH]
           hvtcam-bench --library-rows [--json PATH]
           hvtcam-bench --overload-rows [--quick] [--json PATH]
           hvtcam-bench --cpu-rows [--quick] [--json PATH]
           hvtcam-bench --latency-rows [--quick] [--json PATH]
           hvtcam-bench --camera NODE [--json PATH]
           hvtcam-bench --render JSON [--markdown PATH]

    Measures HVTCameraController side by side with GStreamer's camerabin and gst-launch-1.0 on the
    simulated camera (a live videotestsrc), alternating the engines, and prints the table.

      --quick          about a minute: fewer repetitions, 1280x720 only (a smoke run)
      --streaming-only the streaming rows alone, as a full run measures them (about 6 minutes): JSON
                       only (default $TMPDIR/hvtcam-bench-streaming.json), for work on streaming
      --json PATH      where to write the results as JSON (default: BENCHMARKS.json for a full run,
                       $TMPDIR/hvtcam-bench-quick.json with --quick)
      --markdown PATH  where to write the report (default: BENCHMARKS.md for a full run, none with
                       --quick); notes below its "<!-- notes -->" line are kept
      --preview-rows   only the preview-window rows (latency, the default controls' cost, frames
                       lost), at 1280x720 with the full run's rounds (--quick: one round), printed;
                       JSON only with --json, never BENCHMARKS.md: to compare two builds of the
                       preview without the hour of a full run
      --library-rows   only the library rows (hvtcam library list over 3,000 and 10,000 photos against
                       gst-discoverer-1.0 on each file; a 16000x12000 photo's pick), printed; JSON only
                       with --json, never BENCHMARKS.md
      --overload-rows  only the overload rows: each engine (HVTCamera as it comes, HVTCamera keeping
                       every frame, the same pipeline under gst-launch-1.0, camerabin) records 15 s at
                       1920x1080 and 3840x2160 with two busy loops beside it while its preview is
                       counted (--quick: 2 s at 1280x720), printed; JSON only with --json
      --cpu-rows       only the rows of CPU per recorded frame (whole process, steady state, sampled
                       in the steady state, with sound), at each size of the full run (--quick: 720p),
                       printed; JSON only with --json
      --latency-rows   only the rows both engines measure in this process (start-up, shutter,
                       record start and stop, preview frames lost), at each size of the full run
                       with its rounds (--quick: 720p, one round), printed; JSON only with --json
      --render JSON    measure nothing: write the report of an earlier run's JSON (default
                       BENCHMARKS.md), e.g. after editing how the report is laid out
      --camera NODE    the real-camera rows instead, on a V4L2 node at 640x480 (vivid's YUY2 at
                       25 fps; ./dev bench-vm runs it in the VM tier): start-up, shutter, record
                       start and stop, frames lost by the driver, against camerabin and the
                       gst-launch-1.0 lines, and CPU per recorded frame against the latter; JSON only (default BENCHMARKS-vivid.json), which
                       --render of BENCHMARKS.json then shows in its own section

    Exit codes: 0 success, 1 a measurement failed, 64 usage error.
    """

  var quick = false
  /// `--streaming-only`: only the streaming rows.
  var streamingOnly = false
  /// `--preview-rows`: only the preview-window rows.
  var previewRowsOnly = false
  /// `--library-rows`: only the library rows.
  var libraryRowsOnly = false
  /// `--overload-rows`: only the overload rows.
  var overloadRowsOnly = false
  /// `--cpu-rows`: only the rows of CPU per recorded frame.
  var cpuRowsOnly = false
  /// `--latency-rows`: only the in-process rows of ``LatencyRounds``.
  var latencyRowsOnly = false
  var jsonPath: String?
  var markdownPath: String?
  /// An earlier run's JSON to render instead of measuring.
  var renderPath: String?
  /// A child mode, when this process is one of the benchmark's children.
  var child: String?
  /// `--camera`: the V4L2 node of the real-camera rows.
  var cameraNode: String?
  var quality = HVTCameraController.QualityType.type1280x720
  var frames = 300
  var cameras = 1
  var seconds = 5
  var stills = 200
  var recordings = 20
  var directory = FileManager.default.temporaryDirectory
  /// Child modes: leave glibc's mmap threshold as it is (`HVTCameraRuntime.pinsMmapThreshold = false`).
  var leavesAllocatorAlone = false
  /// Child modes: leave malloc's arenas untrimmed (`HVTCameraRuntime.releasesFreedMemory = false`).
  var keepsFreedMemory = false
  /// `record` child: without sound (`capturesAudio = false`).
  var silent = false
  /// `preview` child: show the default controls.
  var controls = false
  /// `preview` child: record, change the flash and take stills while the preview runs.
  var activity = false
  /// `stream-record` child: wait for `SIGUSR1` (the parent's clients play) before recording.
  var waitsForClients = false
  /// `stream-latency` child: who serves the stream, `ours` or `test-launch`.
  var engine = "ours"
  /// `stream-latency` child: how many times the brightness is turned up or back.
  var toggles = 10

  /// Parses the arguments; throws `UsageError` for anything it does not know.
  init(_ arguments: [String]) throws {
    var remaining = arguments[...]
    func value(_ option: String) throws -> String {
      guard let value = remaining.popFirst() else { throw UsageError("hvtcam-bench: \(option) needs a value") }
      return value
    }
    func number(_ option: String) throws -> Int {
      let text = try value(option)
      guard let number = Int(text), number > 0 else {
        throw UsageError("hvtcam-bench: \(option) needs a positive number, not '\(text)'")
      }
      return number
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--streaming-only": streamingOnly = true
      case "--preview-rows": previewRowsOnly = true
      case "--library-rows": libraryRowsOnly = true
      case "--overload-rows": overloadRowsOnly = true
      case "--cpu-rows": cpuRowsOnly = true
      case "--latency-rows": latencyRowsOnly = true
      case "--json": jsonPath = try value(argument)
      case "--markdown": markdownPath = try value(argument)
      case "--render": renderPath = try value(argument)
      case "--camera": cameraNode = try value(argument)
      case "--child": child = try value(argument)
      case "--quality":
        let name = try value(argument)
        guard let quality = HVTCameraController.QualityType(commandLineName: name) else {
          throw UsageError("hvtcam-bench: unknown quality '\(name)'")
        }
        self.quality = quality
      case "--frames": frames = try number(argument)
      case "--cameras": cameras = try number(argument)
      case "--seconds": seconds = try number(argument)
      case "--stills": stills = try number(argument)
      case "--recordings": recordings = try number(argument)
      case "--directory": directory = URL(fileURLWithPath: try value(argument), isDirectory: true)
      case "--leave-allocator-alone": leavesAllocatorAlone = true
      case "--keep-freed-memory": keepsFreedMemory = true
      case "--silent": silent = true
      case "--controls": controls = true
      case "--activity": activity = true
      case "--wait-for-clients": waitsForClients = true
      case "--engine": engine = try value(argument)
      case "--toggles": toggles = try number(argument)
      case "-h", "--help": throw UsageError(Self.usage, exitCode: 0)
      default: throw UsageError("hvtcam-bench: unknown option '\(argument)' (see hvtcam-bench --help)")
      }
    }
  }
}

/// A command-line mistake: the message and the exit code (64, or 0 for `--help`).
struct UsageError: Error {
  let message: String
  let exitCode: Int32
  init(_ message: String, exitCode: Int32 = 64) {
    self.message = message
    self.exitCode = exitCode
  }
}
