import Foundation
import MediaInspection
import Testing

/// Progress and diagnostics never crash or stop a capture: a full device or a closed pipe on stdout or
/// stderr is a failed write, the movie is finalized, and the exit status (74) says output was lost.
@Suite("hvtcam with broken standard output or error", .timeLimit(.minutes(2)))
struct OutputStreamTests {
  /// Runs `script` with bash, `$HVTCAM` naming the executable; its last line on stdout is `status=N`.
  static func bash(_ script: String) async throws -> ProcessResult {
    try await Subprocess.run(
      URL(fileURLWithPath: "/bin/bash"), ["-c", script],
      environment: HVTCam.environment(setting: ["HVTCAM": try HVTCam.executable().path]))
  }

  @Test("2>/dev/full: the recording is finalized whole; exit 74")
  func standardErrorFull() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let result = try await Self.bash(
      "\"$HVTCAM\" record --device simulated --quality 640x480 --keep-every-frame --max-duration 2 -o '\(path)' 2>/dev/full; echo status=$?"
    )
    #expect(result.outputLines == [path, "status=74"], "\(result)")
    let discovery = try await expectH264Movie(at: path)
    #expect(abs((discovery.duration ?? 0) - 2) <= 1.0 / 30 + 1e-6, "\(discovery)")
  }

  @Test("2>&1 | head -c 20: the recording goes on to its end and is finalized whole; exit 74, not SIGPIPE")
  func closedPipe() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let result = try await Self.bash(
      "\"$HVTCAM\" record --device simulated --quality 640x480 --keep-every-frame --max-duration 2 -o '\(path)' 2>&1 | head -c 20 >/dev/null; echo status=${PIPESTATUS[0]}"
    )
    #expect(result.outputLines == ["status=74"], "\(result)")
    let discovery = try await expectH264Movie(at: path)
    #expect(abs((discovery.duration ?? 0) - 2) <= 1.0 / 30 + 1e-6, "\(discovery)")
    let count = try await MediaInspector.frameCount(path)
    #expect(abs(count.frames - 60) <= 1, "\(count.output)")
  }

  @Test(">/dev/full: the photo is written; exit 74")
  func standardOutputFull() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let result = try await Self.bash(
      "\"$HVTCAM\" photo --device simulated --quality 640x480 -o '\(path)' >/dev/full; echo status=$? >&2")
    #expect(result.errorLines == ["status=74"], "\(result)")
    try await expectJPEG(at: path)
  }
}
