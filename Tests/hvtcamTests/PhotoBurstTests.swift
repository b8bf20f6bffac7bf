import Foundation
import MediaInspection
import Testing

/// `hvtcam photo --count N` waits for the controller's readiness between photos, never for a callback
/// that a photo still in flight would swallow: every run completes, at every size.
@Suite("hvtcam photo --count, repeatedly", .timeLimit(.minutes(3)))
struct PhotoBurstTests {
  @Test("20 runs of --count 5 all complete with five JPEGs", arguments: ["640x480", "1280x720", "1920x1080"])
  func twentyRuns(quality: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for run in 1...20 {
      let stem = directory.path("run\(run).jpg")
      let result = try await HVTCam.run([
        "photo", "--device", "simulated", "--quality", quality, "--count", "5", "-o", stem,
      ])
      let expected = (1...5).map { directory.path("run\(run)-\($0).jpg") }
      #expect(result.succeeded && result.outputLines == expected, "run \(run): \(result)")
      for path in expected {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(
          data.starts(with: [0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]), "\(path) is not a whole JPEG")
      }
    }
    #expect(try directory.contents().count == 100)
  }
}
