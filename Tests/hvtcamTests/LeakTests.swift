import Foundation
import Testing

@Suite("hvtcam demo, leaks")
struct LeakTests {
  @Test("hvtcam demo under the leaks tracer reports no object alive at exit", .timeLimit(.minutes(2)))
  func demoLeaksNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await HVTCam.run(
      ["demo", "--quality", "640x480", "--seconds", "1", "-o", directory.url.path + "/"],
      environment: HVTCam.environment(setting: [
        "GST_TRACERS": "leaks", "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1",
        "HVT_CAMERA_SOURCE": "simulated",
      ]))
    #expect(result.succeeded, "\(result)")

    // The demo really ran: two photos and two movies, reported and on disk.
    #expect(result.outputLines.filter { $0.hasPrefix("photo: ") }.count == 2, "\(result.standardOutput)")
    #expect(result.outputLines.filter { $0.hasPrefix("movie: ") }.count == 2, "\(result.standardOutput)")
    let files = try directory.contents()
    #expect(files.filter { $0.hasSuffix(".jpg") }.count == 2, "\(files)")
    #expect(files.filter { $0.hasSuffix(".mp4") && !$0.hasSuffix(".partial.mp4") }.count == 2, "\(files)")
    #expect(files.count == 4, "\(files)")

    // The tracer was active (it registers its record format), and it found nothing alive. The format line
    // says `type-name=(string)%s`; a leak says `type-name=(string)GstBuffer, address=…`.
    #expect(result.standardError.contains("object-alive"), "the leaks tracer did not run:\n\(result.standardError)")
    let leaks = result.errorLines.filter { $0.contains(#/object-alive, type-name=\(string\)[A-Za-z]/#) }
    #expect(leaks.isEmpty, "\(leaks.count) objects alive at exit:\n\(leaks.prefix(40).joined(separator: "\n"))")
  }
}
