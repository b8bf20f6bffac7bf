import Foundation
import Testing

/// The topology is declared once: `describe --engine` prints the same pipelines, element for element,
/// that GStreamer draws from the live camera, photo and recording pipelines.
@Suite("hvtcam describe --engine against the live pipelines", .timeLimit(.minutes(2)))
struct EngineDescriptionTests {
  /// The `name=` of each element in one line of `describe --engine`.
  static func elementNames(inLine line: String) -> Set<String> {
    Set(line.matches(of: #/ name=([A-Za-z0-9_-]+)/#).map { String($0.1) })
  }

  /// The lines of `describe --engine`, by their label (`camera`, `photo`, `recording`, `sound`: the
  /// simulated camera's movies have sound; `slow encoder` unless `--keep-every-frame` is in `extra`).
  static func engineLines(_ extra: [String] = []) async throws -> [String: String] {
    let result = try await HVTCam.run(["describe", "--engine", "--mode", "video"] + HVTCam.simulated + extra)
    #expect(result.succeeded, "\(result)")
    var lines: [String: String] = [:]
    for line in result.outputLines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      lines[String(line[..<colon])] = String(line[line.index(after: colon)...])
    }
    let policy = extra.contains("--keep-every-frame") ? [] : ["slow encoder"]
    #expect(lines.keys.sorted() == (["camera", "photo", "recording", "sound"] + policy).sorted(), "\(result)")
    return lines
  }

  @Test(
    "the recording's queue is the slow-encoder policy's: bounded past the backlog and a slow encoder line by default, 3 s and none with --keep-every-frame"
  )
  func slowEncoderPolicy() async throws {
    let leaving = try await Self.engineLines()
    let recording = try #require(leaving["recording"])
    #expect(
      recording.contains(
        "queue name=recording-queue max-size-buffers=0 max-size-bytes=536870912 max-size-time=6000000000"),
      "\(recording)")
    let policy = try #require(leaving["slow encoder"])
    #expect(
      policy.contains("at the ends of recording-queue (HVTSlowEncoderPolicy.leaveFramesOut)")
        && policy.contains("every other frame once 170 MiB or 2 s")
        && policy.contains("none at 256 MiB or 3 s") && policy.contains("the encoder takes in 1 s"), "\(policy)")
    let keeping = try await Self.engineLines(["--keep-every-frame"])
    #expect(
      keeping["recording"]?.contains(
        "queue name=recording-queue max-size-buffers=0 max-size-bytes=0 max-size-time=3000000000") == true,
      "\(keeping)")
  }

  @Test(
    "the pre-roll's and the streams' encoders run all the time under the policy too: their queues bounded past the backlog and named on the slow encoder line, 3 s and none with --keep-every-frame"
  )
  func continuousEncoders() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("describe-hls-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bounded = "max-size-buffers=0 max-size-bytes=536870912 max-size-time=6000000000"
    let keeping = "max-size-buffers=0 max-size-bytes=0 max-size-time=3000000000"
    for (options, queue) in [
      (["--pre-roll", "2"], "pre-roll-queue"), (["--hls", folder.path], "stream-encoding-queue"),
    ] {
      for keepsEveryFrame in [false, true] {
        let extra = keepsEveryFrame ? ["--keep-every-frame"] : []
        let result = try await HVTCam.run(
          ["describe", "--engine", "--mode", "video"] + HVTCam.simulated + options + extra)
        #expect(result.succeeded, "\(result)")
        let line = try #require(result.outputLines.first { $0.contains("queue name=\(queue) ") }, "\(result)")
        #expect(line.contains("name=\(queue) " + (keepsEveryFrame ? keeping : bounded)), "\(line)")
        let policy = result.outputLines.first { $0.hasPrefix("slow encoder: ") }
        if keepsEveryFrame {
          #expect(policy == nil, "\(result)")
        } else {
          // The movie takes the encoder's video: its own queue holds encoded frames, never left out.
          #expect(policy?.contains("at the ends of \(queue) (") == true, "\(result)")
        }
      }
    }
  }

  @Test(
    "the photo line is the live photo pipeline (hvtcam graph --photo), appsrc to appsink",
    arguments: ["default", "archival"])
  func photoPipeline(preset: String) async throws {
    let lines = try await Self.engineLines(["--preset", preset])
    let photo = try #require(lines["photo"])
    #expect(photo.hasPrefix(" appsrc name=photo-source") && photo.contains("! appsink name=photo-sink"), "\(photo)")
    let graph = try await HVTCam.run(["graph", "--photo", "--preset", preset] + HVTCam.simulated)
    #expect(graph.succeeded, "\(graph)")
    #expect(GraphCommandTests.elementNames(inDOT: graph.standardOutput) == Self.elementNames(inLine: photo))
  }

  @Test("the camera, recording and sound lines are the live pipeline while recording (hvtcam graph --recording)")
  func cameraAndRecording() async throws {
    let lines = try await Self.engineLines()
    let described = ["camera", "recording", "sound"].reduce(into: Set<String>()) { names, label in
      names.formUnion(Self.elementNames(inLine: lines[label] ?? ""))
    }
    let graph = try await HVTCam.run(["graph", "--recording"] + HVTCam.simulated)
    #expect(graph.succeeded, "\(graph)")
    // The live pipeline holds the preview and recording bins and the microphone's bin themselves besides
    // the elements the lines name.
    #expect(
      GraphCommandTests.elementNames(inDOT: graph.standardOutput)
        == described.union(["preview-branch-0", "recording", "recording-microphone"]))
  }
}
