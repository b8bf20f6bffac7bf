import Foundation
import MediaInspection
import Testing

@Suite("hvtcam repair", .timeLimit(.minutes(2)))
struct RepairCommandTests {
  /// The length of one frame of the simulated camera (30 fps).
  static let frame = 1.0 / 30

  /// Starts `hvtcam record -o directory/name`, and at each `elapsed N / 60 s` line from 2 s on reads its
  /// partial file, until it holds three fragments (`moof` boxes); then kills it with SIGKILL. Returns the
  /// partial file's path, as the `recording to …` line names it.
  static func killedRecording(in directory: TemporaryDirectory, name: String, options: [String] = []) async throws
    -> String
  {
    let recording = try HVTCam.start(
      ["record"] + HVTCam.recording + options + ["--max-duration", "60", "-o", directory.path(name)])
    let startLine = try await recording.requireStandardErrorLine("start line") { $0.hasPrefix("recording to ") }
    let partial = String(startLine.dropFirst("recording to ".count))
    for second in 2... {
      _ = try await recording.requireStandardErrorLine("progress line") { $0 == "elapsed \(second) / 60 s" }
      let fragments = MP4Box.topLevel(of: try Data(contentsOf: URL(fileURLWithPath: partial)))
        .filter { $0.type == "moof" }.count
      if fragments >= 3 { break }
    }
    recording.send(SIGKILL)
    let result = await recording.result()
    #expect(result.signalled && result.status == SIGKILL, "\(result)")
    return partial
  }

  /// Expects that the movie's container duration, as `gst-discoverer-1.0` and `ffprobe` (when installed)
  /// read it, is the duration of the frames it decodes to, within one frame; returns that frame count.
  static func expectDurationMatchesFrames(
    _ path: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Int {
    let decoded = try await MediaInspector.decodedFrameCount(path)
    let discovery = try await expectH264Movie(at: path, sourceLocation: sourceLocation)
    let duration = try #require(discovery.duration, "\(discovery)", sourceLocation: sourceLocation)
    #expect(
      abs(duration - Double(decoded) * frame) <= frame, "discoverer: \(duration) s for \(decoded) frames",
      sourceLocation: sourceLocation)
    if MediaInspector.hasFFprobe {
      let probe = try await MediaInspector.probe(path)
      #expect(probe.decodedFrames == decoded, "\(probe)", sourceLocation: sourceLocation)
      let probed = try #require(probe.duration, "\(probe)", sourceLocation: sourceLocation)
      #expect(
        abs(probed - Double(decoded) * frame) <= frame, "ffprobe: \(probed) s for \(decoded) frames",
        sourceLocation: sourceLocation)
    }
    return decoded
  }

  @Test("kill -9, then repair: the repaired movie lasts as long as its frames and keeps them all; never replaces")
  func repairKilledRecording() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let partial = try await Self.killedRecording(
      in: directory, name: "crash.mp4", options: ["--title", "Crash test", "--location", "48.8584,2.2945"])
    #expect(partial == directory.path("crash.partial.mp4"))
    #expect(!FileManager.default.fileExists(atPath: directory.path("crash.mp4")))
    // What the issue reports: the partial file plays, but its container duration is short.
    let survived = try await MediaInspector.frameCount(partial).frames
    let partialDiscovery = try await MediaInspector.discover(partial)
    let partialDuration = try #require(partialDiscovery.duration, "\(partialDiscovery)")
    #expect(
      partialDuration < Double(survived) * Self.frame - Self.frame,
      "discoverer reads \(partialDuration) s from the partial file of \(survived) frames")

    let repaired = try await HVTCam.run(["repair", partial])
    #expect(repaired.succeeded, "\(repaired)")
    #expect(repaired.outputLines == [directory.path("crash.mp4")], "\(repaired)")
    let partialBytes = try Data(contentsOf: URL(fileURLWithPath: partial)).count
    let summary = repaired.errorLines.first ?? ""
    #expect(repaired.errorLines.count == 1, "\(repaired)")
    #expect(summary.hasPrefix("recovered 640x480 H.264 (High Profile) in MP4, "), "\(repaired)")
    #expect(summary.contains(", \(survived) frames, "), "\(repaired)")
    #expect(summary.hasSuffix("from \(partial) (\(partialBytes) bytes)"), "\(repaired)")
    let decoded = try await Self.expectDurationMatchesFrames(directory.path("crash.mp4"))
    #expect(decoded == survived, "every frame that survived in the partial file is in the repaired one")
    // The tags the recording wrote are kept, the location too, and the date it was made.
    let dates = try await Subprocess.run(
      tool: "ffprobe", ["-v", "error", "-show_entries", "format_tags=creation_time", "-of", "csv=p=0", partial])
    let made = try await Subprocess.run(
      tool: "ffprobe",
      ["-v", "error", "-show_entries", "format_tags=creation_time", "-of", "csv=p=0", directory.path("crash.mp4")])
    #expect(!dates.standardOutput.isEmpty && made.standardOutput == dates.standardOutput, "\(dates) \(made)")
    let probe = try await Subprocess.run(
      tool: "ffprobe",
      ["-v", "error", "-show_entries", "format_tags=title,location", "-of", "csv=p=0", directory.path("crash.mp4")])
    #expect(
      probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "Crash test,+48.858400+002.294500/",
      "\(probe)")
    print(
      "repair: discoverer read \(partialDuration) s from the partial file of \(survived) frames; "
        + "the repaired file: \(try await MediaInspector.discover(directory.path("crash.mp4")).duration ?? -1) s")

    // A second repair does not replace the first, and says which file is in the way; --overwrite does.
    let first = try Data(contentsOf: URL(fileURLWithPath: directory.path("crash.mp4")))
    let again = try await HVTCam.run(["repair", partial])
    #expect(again.status == 1 && !again.signalled, "\(again)")
    #expect(again.outputLines.isEmpty)
    #expect(again.standardError.contains("\(directory.path("crash.mp4")) already exists"), "\(again)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("crash.mp4"))) == first)
    // (under the leaks tracer: both repair pipelines are released)
    let overwritten = try await HVTCam.run(
      ["repair", partial, "--overwrite"], environment: LeakTests.tracing(configHome: directory.url))
    #expect(overwritten.succeeded && overwritten.outputLines == [directory.path("crash.mp4")], "\(overwritten)")
    LeakTests.expectNoLeaks(overwritten)

    // Its own input is never replaced, --overwrite or not: the help says FILE is kept.
    let input = try Data(contentsOf: URL(fileURLWithPath: partial))
    let ontoItself = try await HVTCam.run(["repair", "-o", partial, "--overwrite", partial])
    #expect(ontoItself.status == 1 && ontoItself.outputLines.isEmpty, "\(ontoItself)")
    #expect(
      ontoItself.standardError.contains("could not write \(partial): it is the file being read"), "\(ontoItself)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == input)

    // -o takes any path, its folder created.
    let elsewhere = directory.path("\(awkwardDirectory)/\(awkwardName).mp4")
    let named = try await HVTCam.run(["repair", "-o", elsewhere, partial])
    #expect(named.succeeded && named.outputLines == [elsewhere], "\(named)")
    #expect(try await Self.expectDurationMatchesFrames(elsewhere) == survived)
    let files = try directory.contents()
    #expect(files == [awkwardDirectory, "crash.mp4", "crash.partial.mp4"].sorted(), "\(files)")
  }

  @Test("usage errors exit 64; a missing, empty or non-movie file exits 1 naming the file and what is wrong")
  func failures() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = directory.path("notes.partial.mp4")
    try Data("not a movie\n".utf8).write(to: URL(fileURLWithPath: text))
    let empty = directory.path("empty.partial.mp4")
    try Data().write(to: URL(fileURLWithPath: empty))
    let missing = directory.path("missing.partial.mp4")

    for arguments in [["repair"], ["repair", text, empty], ["repair", text, "--bogus"], ["repair", text, "-o"]] {
      let result = try await HVTCam.run(arguments)
      #expect(result.status == 64 && result.errorLines.count == 1 && result.outputLines.isEmpty, "\(result)")
    }
    let expected = [
      (text, "hvtcam repair: \(text) is not a movie that can be repaired or trimmed"),
      (empty, "hvtcam repair: \(empty) holds no frame that can be recovered: the file is empty"),
      (missing, "hvtcam repair: could not read \(missing): No such file or directory (errno 2)"),
    ]
    for (file, message) in expected {
      let result = try await HVTCam.run(["repair", file])
      #expect(result.status == 1 && !result.signalled && result.outputLines.isEmpty, "\(result)")
      #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result)")
    }
    // A refusal releases its pipeline too.
    let refused = try await HVTCam.run(["repair", text], environment: LeakTests.tracing(configHome: directory.url))
    #expect(refused.status == 1, "\(refused)")
    LeakTests.expectNoLeaks(refused)
    #expect(try directory.contents() == ["empty.partial.mp4", "notes.partial.mp4"])

    let help = try await HVTCam.run(["repair", "--help"])
    #expect(help.succeeded && help.outputLines.first == "usage: hvtcam repair FILE [-o PATH] [--overwrite]", "\(help)")
    let overview = try await HVTCam.run(["--help"])
    #expect(
      overview.outputLines.contains {
        $0 == "  repair    Finishes a movie that a crash or kill -9 left under its partial name."
      }, "\(overview)")
  }
}
