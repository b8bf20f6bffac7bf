import Foundation
import Testing

/// Every numeric option is checked against its range before any conversion: a usage error (64) naming
/// the range, never a trap.
@Suite("hvtcam numeric options", .timeLimit(.minutes(1)))
struct NumericLimitsTests {
  static let seconds = "must be 0.03333 to 86400 seconds"

  @Test(
    "out of range, not a number, or too large to convert: exit 64 naming the limit",
    arguments: [
      (["record", "--max-duration", "2e10"], seconds), (["record", "--max-duration", "1e308"], seconds),
      (["record", "--max-duration", "nan"], seconds), (["record", "--max-duration", "inf"], seconds),
      (["record", "--max-duration", "-1"], seconds), (["record", "--max-duration", "0"], seconds),
      (["demo", "--seconds", "1e308"], seconds),
      (["demo", "--seconds", "-inf"], seconds),
      (["photo", "--count", "0"], "must be a whole number from 1 to 10000"),
      (["photo", "--count", "99999999999999999999"], "must be a whole number from 1 to 10000"),
      (["photo", "--count", "1.5"], "must be a whole number from 1 to 10000"),
      (["describe", "--frames", "3000000000"], "must be a whole number from 1 to 2147483647"),
      (["describe", "--frames", "-5"], "must be a whole number from 1 to 2147483647"),
      (["record", "--bitrate", "5"], "must be a whole number from 100000 to 200000000"),
      (["record", "--bitrate", "2.5e6"], "must be a whole number from 100000 to 200000000"),
      (["record", "--keyframe-interval", "61"], "must be 0.03333 to 60 seconds"),
      (["photo", "--start-timeout", "0"], "must be 0.1 to 3600 seconds"),
      (["stream", "--start-timeout", "nan"], "must be 0.1 to 3600 seconds"),
      (["record", "--stall-timeout", "0.05"], "must be 0.1 to 3600 seconds"),
    ])
  func refused(arguments: [String], message: String) async throws {
    let result = try await HVTCam.run(arguments + ["--device", "simulated"].filter { _ in arguments[0] != "demo" })
    #expect(result.status == 64 && !result.signalled, "\(result)")
    #expect(result.standardError.contains("\(arguments[1]) \(message), not '\(arguments[2])'"), "\(result)")
    #expect(result.outputLines.isEmpty)
  }

  @Test("the largest values allowed are taken as they are")
  func largestAllowed() async throws {
    let result = try await HVTCam.run(
      ["describe", "--device", "simulated", "--mode", "video", "--frames", "2147483647"])
    #expect(result.succeeded, "\(result)")
    #expect(result.standardOutput.contains("num-buffers=2147483647"), "\(result)")
  }
}
