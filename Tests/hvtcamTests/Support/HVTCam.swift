import Foundation
import MediaInspection
import Testing

/// The `hvtcam` executable built with this test bundle, run as a child process.
enum HVTCam {
  /// Where `hvtcam` is (``BuiltExecutable/find(_:overriddenBy:)``; `HVTCAM_EXECUTABLE` overrides).
  static func executable() throws -> URL {
    try BuiltExecutable.find("hvtcam", overriddenBy: "HVTCAM_EXECUTABLE")
  }

  /// This process's environment with `setting` added and `removing` taken out.
  static func environment(setting: [String: String] = [:], removing: [String] = []) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    // A hung hvtcam is sent SIGABRT (``Subprocess/hangLimit``): every thread's stack, no prompt.
    environment["SWIFT_BACKTRACE"] = "enable=yes,threads=all,interactive=no"
    for name in removing { environment[name] = nil }
    environment.merge(setting) { _, new in new }
    return environment
  }

  /// Runs `hvtcam arguments` to the end.
  static func run(_ arguments: [String], environment: [String: String] = environment()) async throws -> ProcessResult {
    try await Subprocess.run(executable(), arguments, environment: environment)
  }

  /// Starts `hvtcam arguments` and returns while it runs.
  static func start(_ arguments: [String], environment: [String: String] = environment()) throws -> Subprocess {
    try Subprocess(executable(), arguments, environment: environment)
  }

  /// The capture options every test uses: the simulated camera at 640x480 (small, so that the whole
  /// target runs quickly on two cores).
  static let simulated = ["--device", "simulated", "--quality", "640x480"]

  /// The capture options of the tests that record (`hvtcam record`, `hvtcam run`): ``simulated``, every
  /// frame kept (`--keep-every-frame`). They read their movies back frame by frame, and on a loaded
  /// two-core machine the encoder falls behind real time for seconds, when the default policy leaves
  /// frames out (which `RecordCommandTests` and the library's `RecordingDrainTests` test). The camera may
  /// take a minute to start (`--start-timeout 60`): beside the whole suite, a window's first frame on
  /// Xvfb (Mesa's GL compiling its shaders under the leaks tracer) once took longer than the default 10 s.
  /// Nor is a running camera given up before a minute without a frame (`--stall-timeout 60`): in the
  /// Debian 13 tier's clean-clone CI run, a recording beside the whole suite had its camera deliver
  /// nothing for 3 s, the default, and the movie ended 0.7 s in (the watchdog's own suites test it).
  static let recording = simulated + ["--keep-every-frame", "--start-timeout", "60", "--stall-timeout", "60"]
}

/// A file name with every character that needs quoting somewhere: spaces, both quotes, `!`, `=` and a
/// non-ASCII letter (the launch parser, the shell and the file system each see it differently).
let awkwardName = "it's a \"test\" ! =ü"

/// A directory name with a space.
let awkwardDirectory = "with space"
