import Foundation
import MediaInspection
import Testing

@Suite("hvtcam record, killed")
struct CrashSafetyTests {
  /// The frame rate of the simulated camera.
  static let framesPerSecond = 30.0

  @Test(
    "kill -9 after 3 s leaves a playable partial movie that holds the recording but its last fragment and the encoder's backlog",
    .timeLimit(.minutes(2)))
  func killedRecordingIsRecoverable() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // The default policy, whose backlog is bounded by about a second of the encoder's work: with every
    // frame kept, the frames waiting for a loaded encoder span up to 3 s, and they die with the process
    // (1.37 s of 3 s survived once, in a clean-clone CI run beside the whole suite).
    let recording = try HVTCam.start(
      ["record"] + HVTCam.simulated + [
        "--start-timeout", "60", "--max-duration", "60", "-o", directory.path("crash.mp4"),
      ])
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
    // What is lost is the fragment the muxer had not finished (`fragment-duration=500`) and the frames
    // still waiting for the encoder: at most 0.5 s + 1 s of the 3 s that had entered the recording.
    let times = try await MediaInspector.presentationTimes(partial)
    let last = try #require(times.last, "no frame survived kill -9")
    print("crash safety: \(times.count) frames up to \(last) s recoverable of the 3 s recorded before kill -9")
    #expect(last >= 3 - 0.5 - 1 - 1 / Self.framesPerSecond, "only \(times.count) frames, up to \(last) s, survived")
    #expect(try await MediaInspector.decodedFrameCount(partial) == times.count, "every frame that survived decodes")
  }
}
