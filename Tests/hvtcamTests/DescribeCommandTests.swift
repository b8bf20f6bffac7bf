import Foundation
import MediaInspection
import Testing

@Suite("hvtcam describe")
struct DescribeCommandTests {
  @Test(
    "video: the printed gst-launch-1.0 line, run by /bin/sh, writes a 640x480 H.264 MP4 of 45 frames",
    .timeLimit(.minutes(2)), arguments: ["movie.mp4", "\(awkwardName).mp4"])
  func video(name: String) async throws {
    let directory = try TemporaryDirectory(awkwardDirectory)
    defer { directory.remove() }
    let path = directory.path(name)
    let line = try await describe(["--mode", "video", "--frames", "45", "-o", path])
    let run = try await Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line])
    #expect(run.succeeded, "\(run)")
    try await expectH264Movie(at: path)
    let count = try await MediaInspector.frameCount(path)
    #expect(count.frames == 45, "\(count.output)")
    #expect(try directory.contents() == [name])
  }

  @Test(
    "photo: the printed gst-launch-1.0 line, run by /bin/sh, writes a 640x480 JPEG", .timeLimit(.minutes(2)),
    arguments: ["photo.jpg", "\(awkwardName).jpg"])
  func photo(name: String) async throws {
    let directory = try TemporaryDirectory(awkwardDirectory)
    defer { directory.remove() }
    let path = directory.path(name)
    let line = try await describe(["--mode", "photo", "--frames", "5", "-o", path])
    let run = try await Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line])
    #expect(run.succeeded, "\(run)")
    try await expectJPEG(at: path)
    #expect(try directory.contents() == [name])
  }

  /// Runs `hvtcam describe` with the simulated camera at 640x480 and returns the one line it printed.
  func describe(_ arguments: [String]) async throws -> String {
    let result = try await HVTCam.run(["describe"] + HVTCam.simulated + arguments)
    #expect(result.succeeded, "\(result)")
    #expect(result.standardError.isEmpty, "\(result)")
    let lines = result.outputLines
    try #require(lines.count == 1, "\(result)")
    #expect(lines[0].hasPrefix("gst-launch-1.0 "), "\(result)")
    return lines[0]
  }
}
