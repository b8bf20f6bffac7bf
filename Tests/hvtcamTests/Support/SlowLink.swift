import Foundation
import MediaInspection
import Testing

/// A TCP link on 127.0.0.1 between a stream and its server whose speed the test sets
/// (`Fixtures/slow_link.py`): full speed, or 64 kB/s towards the server (a network slower than the
/// stream, which still takes data: no write waits long enough for a sink's timeout).
struct SlowLink {
  let process: Subprocess
  /// The port a stream is sent to instead of the server's.
  let port: Int

  /// Starts the link to the server on `serverPort` and waits until it listens.
  init(toServerOn serverPort: Int) async throws {
    guard let script = Bundle.module.url(forResource: "slow_link", withExtension: "py") else {
      throw TestFailure("slow_link.py is not in the tests' resources")
    }
    process = try Subprocess(
      URL(fileURLWithPath: "/usr/bin/python3"), [script.path, String(serverPort)],
      environment: ProcessInfo.processInfo.environment)
    let line = try await process.requireStandardErrorLine("the slow link listening") { $0.hasPrefix("listening ") }
    port = try #require(Int(line.dropFirst("listening ".count)), "\(line)")
  }

  /// Slows the link towards the server to 64 kB/s (SIGUSR1) and waits until it has.
  func slowDown() async throws {
    let mark = process.standardErrorSoFar.count
    process.send(SIGUSR1)
    _ = try await process.requireStandardErrorLine("the link slowed down", from: mark) { $0 == "slow" }
  }

  /// Brings the link back to full speed (SIGUSR2) and waits until it is.
  func speedUp() async throws {
    let mark = process.standardErrorSoFar.count
    process.send(SIGUSR2)
    _ = try await process.requireStandardErrorLine("the link back to full speed", from: mark) { $0 == "fast" }
  }
}
