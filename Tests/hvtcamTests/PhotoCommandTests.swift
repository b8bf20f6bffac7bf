import Foundation
import MediaInspection
import Testing

@Suite("hvtcam photo")
struct PhotoCommandTests {
  @Test("writes a 640x480 JPEG to -o and prints its path", .timeLimit(.minutes(2)))
  func onePhoto() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let result = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", path])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path])
    try await expectJPEG(at: path)
    #expect(try directory.contents() == ["shot.jpg"], "no partial file is left behind")
  }

  @Test("--count 3 writes shot-1.jpg … shot-3.jpg and prints three paths", .timeLimit(.minutes(2)))
  func threePhotos() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await HVTCam.run(
      ["photo"] + HVTCam.simulated + ["--count", "3", "-o", directory.path("shot.jpg")])
    #expect(result.succeeded, "\(result)")
    let expected = (1...3).map { directory.path("shot-\($0).jpg") }
    #expect(result.outputLines == expected)
    for path in expected { try await expectJPEG(at: path) }
    #expect(try directory.contents() == ["shot-1.jpg", "shot-2.jpg", "shot-3.jpg"])
  }

  @Test("HVT_CAMERA_SOURCE=simulated selects the simulated camera (device rear)", .timeLimit(.minutes(2)))
  func simulatedThroughEnvironment() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let result = try await HVTCam.run(
      ["photo", "--quality", "640x480", "-o", path],
      environment: HVTCam.environment(setting: ["HVT_CAMERA_SOURCE": "simulated"]))
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path])
    try await expectJPEG(at: path)
  }

  @Test(
    "without HVT_CAMERA_SOURCE and without /dev/video* it fails with 'no camera available'",
    .enabled(if: !hasVideoDevices, "a V4L2 device is attached"), .timeLimit(.minutes(2)))
  func noCamera() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("shot.jpg")
    let result = try await HVTCam.run(
      ["photo", "--quality", "640x480", "-o", path], environment: HVTCam.environment(removing: ["HVT_CAMERA_SOURCE"]))
    #expect(!result.signalled && result.status != 0, "\(result)")
    #expect(result.standardError.contains("no camera available"), "\(result)")
    #expect(result.outputLines.isEmpty)
    #expect(try directory.contents().isEmpty)
  }

  @Test("-o with spaces, quotes, !, = and ü in the path", .timeLimit(.minutes(2)))
  func awkwardPath() async throws {
    let directory = try TemporaryDirectory(awkwardDirectory)
    defer { directory.remove() }
    let path = directory.path("\(awkwardName).jpg")
    let result = try await HVTCam.run(["photo"] + HVTCam.simulated + ["-o", path])
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines == [path])
    try await expectJPEG(at: path)
  }
}
