import Foundation
import MediaInspection
import Testing

@Suite("hvtcam record, killed")
struct CrashSafetyTests {
  /// The frame rate of the simulated camera.
  static let framesPerSecond = 30.0

  @Test("kill -9 after 3 s leaves a playable partial movie missing at most the last second", .timeLimit(.minutes(2)))
  func killedRecordingIsRecoverable() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try HVTCam.start(
      ["record"] + HVTCam.recording + ["--max-duration", "60", "-o", directory.path("crash.mp4")])
    let startLine = try await recording.requireStandardErrorLine("start line") { $0.hasPrefix("recording to ") }
    let partial = String(startLine.dropFirst("recording to ".count))
    #expect(partial.hasSuffix(".partial.mp4"), "\(startLine)")
    #expect(URL(fileURLWithPath: partial).deletingLastPathComponent().path == directory.url.path)
    _ = try await recording.requireStandardErrorLine("progress line") { $0 == "elapsed 3 / 60 s" }
    recording.send(SIGKILL)
    let result = await recording.result()
    #expect(result.signalled && result.status == SIGKILL, "\(result)")
    #expect(result.outputLines.isEmpty)

    #expect(!FileManager.default.fileExists(atPath: directory.path("crash.mp4")))
    let discovery = try await MediaInspector.discover(partial)
    #expect(!discovery.failed, "\(discovery)")
    #expect(discovery.isH264, "\(discovery)")
    #expect(discovery.size == "640x480", "\(discovery)")
    let count = try await MediaInspector.frameCount(partial)
    let recovered = Double(count.frames) / Self.framesPerSecond
    print("crash safety: \(count.frames) frames = \(recovered) s recoverable of the 3 s recorded before kill -9")
    #expect(count.frames >= 60, "only \(count.frames) frames (\(recovered) s) survived kill -9 after 3 s")
  }
}
