import Foundation
import MediaInspection
import Testing

@Suite("hvtcam trim", .timeLimit(.minutes(2)))
struct TrimCommandTests {
  /// The movie's `creation_time`, as ffprobe reads it.
  static func creationTime(of path: String) async throws -> Date {
    let probe = try await Subprocess.run(
      tool: "ffprobe", ["-v", "error", "-show_entries", "format_tags=creation_time", "-of", "csv=p=0", path])
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let text = probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    return try #require(formatter.date(from: text), "\(probe)")
  }

  @Test("record with key frames every 0.5 s, then trim 1.2…2.5 s: from the key frame before 1.2 s, the recording kept")
  func trimRecording() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("take.mp4")
    let recorded = try await HVTCam.run(
      ["record"] + HVTCam.recording + ["--max-duration", "3", "--keyframe-interval", "0.5", "-o", path])
    #expect(recorded.succeeded, "\(recorded)")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    // The movie begins at the last key frame at or before 1.2 s (frame 36) and ends with frame 74.
    let keyFrames = try await MediaInspector.packets(path).keyFrames
    let first = try #require(keyFrames.last { $0 <= 36 }, "key frames \(keyFrames)")
    #expect(36 - first < 15, "key frames \(keyFrames)")
    let frames = 74 - first + 1
    let result = try await HVTCam.run(["trim", path, "--start", "1.2", "--end", "2.5"])
    let trimmed = directory.path("take.trimmed.mp4")
    #expect(result.succeeded && result.outputLines == [trimmed], "\(result)")
    let summary = String(
      format: "%.3f s from %.3f s (asked 1.200 s), %d frames", Double(frames) / 30, Double(first) / 30, frames)
    #expect(result.standardError.contains(summary), "\(result)")
    let discovery = try await expectH264Movie(at: trimmed)
    #expect(abs((discovery.duration ?? 0) - Double(frames) / 30) <= 1.0 / 30 + 1e-6, "\(discovery)")
    #expect(try await MediaInspector.decodedFrameCount(trimmed) == frames)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    // Dated when its first frame was made: the recording's date and where the edit begins (to the second).
    let (made, edited) = (try await Self.creationTime(of: path), try await Self.creationTime(of: trimmed))
    #expect(edited.timeIntervalSince(made) == (Double(first) / 30).rounded(), "\(made) \(edited)")

    // The name is taken now: -o to it is refused, and the file stays.
    let again = try await HVTCam.run(["trim", path, "--start", "0", "--end", "1", "-o", trimmed])
    #expect(!again.succeeded && again.standardError.contains(trimmed), "\(again)")
    #expect(try await MediaInspector.decodedFrameCount(trimmed) == frames)
    let backwards = try await HVTCam.run(["trim", path, "--start", "2", "--end", "1"])
    #expect(
      backwards.status == 64 && backwards.standardError.contains("--end (1.0 s) must come after --start"),
      "\(backwards)")
    let late = try await HVTCam.run(["trim", path, "--start", "10"])
    #expect(
      !late.succeeded && late.standardError.contains("cannot trim \(path): the trim starts 10.000 s in"), "\(late)")
  }

  @Test("trim --exact begins at the frame asked: 1.2…2.5 s of a recording is 39 frames from 1.200 s")
  func exactTrim() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("take.mp4")
    let recorded = try await HVTCam.run(
      ["record"] + HVTCam.recording + ["--max-duration", "3", "--keyframe-interval", "1", "-o", path])
    #expect(recorded.succeeded, "\(recorded)")
    let result = try await HVTCam.run(["trim", path, "--exact", "--start", "1.2", "--end", "2.5"])
    let trimmed = directory.path("take.trimmed.mp4")
    #expect(result.succeeded && result.outputLines == [trimmed], "\(result)")
    #expect(result.standardError.contains("1.300 s from 1.200 s, 39 frames, "), "\(result)")
    #expect(result.standardError.contains(" encoded again, "), "\(result)")
    let discovery = try await expectH264Movie(at: trimmed)
    #expect(abs((discovery.duration ?? 0) - 1.3) <= 1.0 / 30 + 1e-6, "\(discovery)")
    // Counted by FFmpeg's decoder: GStreamer's openh264dec (the decoder here without gstreamer1.0-libav)
    // loses the last frame encoded again, where the parameter sets change (see the README).
    let probed = try await MediaInspector.probe(trimmed)
    #expect(probed.decodedFrames == 39, "\(probed)")
  }
}
