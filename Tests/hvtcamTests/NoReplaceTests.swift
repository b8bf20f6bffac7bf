import Foundation
import MediaInspection
import Testing

/// Nothing the user already has is replaced: every output is created exclusively, and `--overwrite`
/// replaces regular files only.
@Suite("hvtcam never replaces what is there", .timeLimit(.minutes(2)))
struct NoReplaceTests {
  static let before = Data("the user's own file\n".utf8)

  @Test("-o onto an existing file: exit 1 naming the path; the file is untouched; nothing else is left")
  func existingFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (command, name) in [("photo", "shot.jpg"), ("record", "movie.mp4")] {
      let path = directory.path(name)
      try Self.before.write(to: URL(fileURLWithPath: path))
      let extra = command == "record" ? ["--max-duration", "1"] : []
      let result = try await HVTCam.run([command] + HVTCam.simulated + extra + ["-o", path])
      #expect(result.status == 1 && !result.signalled, "\(result)")
      #expect(result.standardError.contains("\(path) already exists and was not replaced"), "\(result)")
      #expect(!result.standardError.contains("recording to"), "refused before recording: \(result)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.before)
    }
    #expect(try directory.contents() == ["movie.mp4", "shot.jpg"])
  }

  @Test("--count: a derived name shot-2.jpg that exists stops the command there and stays untouched")
  func derivedName() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Self.before.write(to: URL(fileURLWithPath: directory.path("shot-2.jpg")))
    let result = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["--count", "3", "-o", directory.path("shot.jpg")])
    #expect(result.status == 1, "\(result)")
    #expect(result.outputLines == [directory.path("shot-1.jpg")])
    #expect(result.standardError.contains("\(directory.path("shot-2.jpg")) already exists"), "\(result)")
    try await expectJPEG(at: directory.path("shot-1.jpg"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("shot-2.jpg"))) == Self.before)
    #expect(try directory.contents() == ["shot-1.jpg", "shot-2.jpg"])
  }

  @Test("a symbolic link or a device node at -o is never replaced, not even with --overwrite")
  func notRegularFiles() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = directory.path("elsewhere.txt")
    try Self.before.write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: directory.path("link.jpg"), withDestinationPath: target)
    // The same device as /dev/null (major 1, minor 3), as `mknod null.jpg c 1 3` makes it.
    var null = stat()
    #expect(stat("/dev/null", &null) == 0)
    #expect(mknod(directory.path("null.jpg"), S_IFCHR | 0o666, null.st_rdev) == 0, "mknod: \(errno)")
    for name in ["link.jpg", "null.jpg"] {
      for overwrite in [[], ["--overwrite"]] {
        let path = directory.path(name)
        let result = try await HVTCam.run(["photo"] + HVTCam.simulated + overwrite + ["-o", path])
        #expect(result.status == 1, "\(result)")
        let expected = overwrite.isEmpty ? "already exists" : "exists and is not a regular file; it is never replaced"
        #expect(result.standardError.contains("\(path) \(expected)"), "\(result)")
      }
    }
    var info = stat()
    #expect(lstat(directory.path("link.jpg"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    #expect(lstat(directory.path("null.jpg"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.before)
    #expect(try directory.contents() == ["elsewhere.txt", "link.jpg", "null.jpg"])
  }

  @Test("--overwrite replaces an existing regular file with the new capture")
  func overwrite() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    try Self.before.write(to: URL(fileURLWithPath: path))
    let result = try await HVTCam.run(["photo"] + HVTCam.simulated + ["--overwrite", "-o", path])
    #expect(result.succeeded, "\(result)")
    try await expectJPEG(at: path)
    #expect(try directory.contents() == ["shot.jpg"])
  }

  @Test("two hvtcam record -o same.mp4 at once: one records, the other reports the conflict; no movie is lost")
  func concurrentRecordings() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("same.mp4")
    let first = try HVTCam.start(["record"] + HVTCam.recording + ["--max-duration", "600", "-o", path])
    _ = try await first.requireStandardErrorLine("first recording's start") { $0.hasPrefix("recording to ") }
    let second = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path])
    #expect(second.status == 1, "\(second)")
    #expect(second.standardError.contains("\(path) is being written by another capture"), "\(second)")
    first.send(SIGINT)
    let result = await first.result()
    #expect(result.succeeded && result.outputLines == [path], "\(result)")
    try await expectH264Movie(at: path)
    // Once it exists, a third one is refused too.
    let third = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path])
    #expect(third.status == 1 && third.standardError.contains("already exists"), "\(third)")
    #expect(try directory.contents() == ["same.mp4"])
  }

  @Test("generated names stay unique across processes writing into one folder at once")
  func generatedNamesAcrossProcesses() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
      for _ in 0..<3 {
        group.addTask {
          try await HVTCam.run(["photo"] + HVTCam.simulated + ["--count", "3", "-o", directory.url.path + "/"])
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for result in results { #expect(result.succeeded, "\(result)") }
    let paths = results.flatMap(\.outputLines)
    #expect(paths.count == 9 && Set(paths).count == 9, "\(paths)")
    #expect(try directory.contents().count == 9)
    for path in paths { try await expectJPEG(at: path) }
  }
}
