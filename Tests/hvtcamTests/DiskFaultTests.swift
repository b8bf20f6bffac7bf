import Foundation
import MediaInspection
import Testing

/// A file under its final name is complete: a full disk or a vanished folder never leaves a truncated or
/// empty file under the final name, nor a stray partial file; what reached the disk is kept and named.
@Suite("hvtcam on a full disk or a vanished folder", .timeLimit(.minutes(2)))
struct DiskFaultTests {
  @Test("1080p onto a 300 KB disk: exit 1 naming the partial file and what it holds; nothing under the final name")
  func diskFillsWhileRecording() async throws {
    let disk = try await SmallDisk(kilobytes: 300)
    let path = disk.directory.path("movie.mp4")
    let result = try await HVTCam.run(
      [
        "record", "--device", "simulated", "--quality", "1920x1080", "--keep-every-frame", "--max-duration", "5", "-o",
        path,
      ])
    let contents = try disk.directory.contents()
    await disk.remove()
    #expect(result.status == 1 && !result.signalled, "\(result)")
    let partial = disk.directory.path("movie.partial.mp4")
    #expect(result.standardError.contains("the movie could not be finalized"), "\(result)")
    #expect(result.standardError.contains("No space left"), "\(result)")
    #expect(result.standardError.contains("\(partial) holds "), "\(result)")
    #expect(result.standardError.contains("hvtcam repair"), "\(result)")
    #expect(contents == ["movie.partial.mp4"], "only the partial file, never movie.mp4")
    #expect(result.outputLines.isEmpty)
  }

  @Test("a disk already full: exit 1 with ENOSPC; no file at all, not even a hidden partial one")
  func diskAlreadyFull() async throws {
    let disk = try await SmallDisk(kilobytes: 64)
    try disk.fill()
    let movie = try await HVTCam.run(
      ["record"] + HVTCam.recording + ["--max-duration", "2", "-o", disk.directory.path("movie.mp4")])
    let photo = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", disk.directory.path("shot.jpg")])
    let contents = try disk.directory.contents()
    await disk.remove()
    #expect(movie.status == 1 && movie.standardError.contains("No space left"), "\(movie)")
    #expect(movie.standardError.contains(disk.directory.path("movie.mp4")), "\(movie)")
    #expect(photo.status == 1, "\(photo)")
    #expect(
      photo.standardError.contains(
        "could not write \(disk.directory.path("shot.jpg")): No space left on device (errno 28)"), "\(photo)")
    #expect(contents == ["filler"])
  }

  @Test("the output folder removed while recording: the movie is finalized whole in the folder made again")
  func vanishedFolder() async throws {
    let directory = try TemporaryDirectory("removed")
    defer { directory.remove() }
    let path = directory.path("movie.mp4")
    let recording = try HVTCam.start(["record"] + HVTCam.recording + ["--max-duration", "60", "-o", path])
    _ = try await recording.requireStandardErrorLine("progress line") { $0 == "elapsed 1 / 60 s" }
    try FileManager.default.removeItem(at: directory.url)
    #expect(!FileManager.default.fileExists(atPath: directory.url.path))
    // Stopped once the folder is surely gone, so that the removal cannot come after the movie.
    _ = try await recording.requireStandardErrorLine("progress line") { $0 == "elapsed 2 / 60 s" }
    recording.send(SIGINT)
    let result = await recording.result()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    let discovery = try await expectH264Movie(at: path)
    let duration = try #require(discovery.duration, "\(discovery)")
    #expect(duration >= 2 && duration < 60, "\(discovery)")
    let count = try await MediaInspector.frameCount(path)
    #expect(abs(Double(count.frames) - duration * 30) <= 1, "\(count.output)")
    #expect(try directory.contents() == ["movie.mp4"])
  }
}
