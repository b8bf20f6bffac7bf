import Foundation
import MediaInspection
import Testing

@Suite("hvtcam sizes", .timeLimit(.minutes(2)))
struct CaptureSizeCommandTests {
  @Test("--quality WIDTHxHEIGHT photographs at that size; record --photo-size keeps the movie at --quality's")
  func sizes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let photo = directory.path("photo.jpg")
    let shot = try await HVTCam.run(["photo", "--device", "simulated", "--quality", "1000x700", "-o", photo])
    #expect(shot.succeeded, "\(shot)")
    #expect(try await MediaInspector.discover(photo).size == "1000x700")
    let movie = directory.path("movie.mp4")
    let recorded = try await HVTCam.run(
      ["record"] + HVTCam.recording + ["--photo-size", "1280x720", "--max-duration", "1", "-o", movie])
    #expect(recorded.succeeded, "\(recorded)")
    #expect(try await MediaInspector.discover(movie).size == "640x480")
    let described = try await HVTCam.run(
      ["describe", "--mode", "video"] + HVTCam.simulated + ["--photo-size", "1280x720", "-o", movie])
    #expect(
      described.standardOutput.contains("videocrop name=recording-crop left=160 right=160 top=0 bottom=0"),
      "\(described)")
  }

  @Test("a size out of range or malformed is a usage error naming the option")
  func badSizes() async throws {
    for (option, value) in [
      ("--quality", "100x5"), ("--quality", "huge"), ("--photo-size", "1280"), ("--photo-size", "0x0"),
    ] {
      let result = try await HVTCam.run(["photo"] + ["--device", "simulated", option, value, "-o", "/tmp/never.jpg"])
      #expect(
        result.status == 64 && result.standardError.contains(option == "--quality" ? "quality" : option), "\(result)")
    }
  }
}
