import Foundation
import MediaInspection
import Testing

/// Errors say the cause — the path and the system's reason, the device's own error — before anything is
/// recorded, and the demo writes where it is told and says which camera it used.
@Suite("hvtcam says what went wrong", .timeLimit(.minutes(2)))
struct ErrorMessageTests {
  @Test("an -o on a read-only file system names the path and errno; nothing is recorded")
  func readOnlyOutput() async throws {
    let disk = try await SmallDisk(kilobytes: 64, readOnly: true)
    let path = disk.directory.path("movie.mp4")
    let movie = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path])
    let photo = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", disk.directory.path("sub/shot.jpg")])
    await disk.remove()
    #expect(movie.status == 1, "\(movie)")
    #expect(
      movie.standardError == "hvtcam record: could not write \(path): Read-only file system (errno 30)\n", "\(movie)")
    #expect(photo.status == 1, "\(photo)")
    #expect(
      photo.standardError.contains("could not write \(disk.directory.path("sub")): Read-only file system (errno 30)"),
      "\(photo)")
  }

  @Test("a 5000-character file name fails before recording, with ENAMETOOLONG")
  func longName() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path(String(repeating: "n", count: 5000) + ".mp4")
    let result = try await HVTCam.run(["record"] + HVTCam.recording + ["--max-duration", "1", "-o", path])
    #expect(result.status == 1, "\(result)")
    #expect(!result.standardError.contains("recording to"), "\(result)")
    #expect(result.standardError.hasSuffix("File name too long (errno 36)\n"), "\(result)")
    #expect(try directory.contents().isEmpty)
  }

  @Test("--device /dev/null: record and photo both give the device's own error", arguments: ["record", "photo"])
  func notACamera(command: String) async throws {
    let limit = command == "record" ? ["--max-duration", "1"] : []
    let result = try await HVTCam.run([command, "--device", "/dev/null"] + limit)
    #expect(result.status == 1, "\(result)")
    #expect(
      result.standardError.contains("hvtcam \(command): Error getting capabilities for device '/dev/null'"), "\(result)"
    )
    #expect(result.standardError.contains("GstV4l2Src:camera"), "\(result)")
  }

  @Test("demo -o newdir writes into newdir, and says the camera is simulated")
  func demoFolder() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.path("newdir")
    let result = try await HVTCam.run(
      ["demo", "--quality", "640x480", "--seconds", "0.5", "-o", folder],
      environment: HVTCam.environment(setting: ["HVT_CAMERA_SOURCE": "simulated"]))
    #expect(result.succeeded, "\(result)")
    #expect(
      result.outputLines.first
        == "camera: Simulated rear camera (videotestsrc pattern=smpte), simulated (no camera attached)", "\(result)")
    #expect(!result.standardOutput.contains("attached camera"), "\(result)")
    let written = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(
      written.filter { $0.hasSuffix(".jpg") }.count == 2 && written.filter { $0.hasSuffix(".mp4") }.count == 2,
      "\(written)")
    for line in result.outputLines where line.hasPrefix("photo: ") || line.hasPrefix("movie: ") {
      #expect(line.dropFirst(7).hasPrefix(folder + "/"), "\(line)")
    }
  }
}
