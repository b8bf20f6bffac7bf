import Foundation
import MediaInspection

/// A TCP link on 127.0.0.1 between a stream and its server whose speed the test sets
/// (`Fixtures/slow_link.py`): full speed, or 64 kB/s towards the server (a network slower than the
/// stream, which still takes data: no write waits long enough for a sink's timeout).
struct SlowLink {
  let process: Subprocess
  /// The port a stream is sent to instead of the server's.
  let port: Int

  /// Starts the link to the server on `serverPort` and waits until it listens.
  init(toServerOn serverPort: Int) async throws {
    (process, port) = try await ListeningFixture.start(
      "slow_link", [String(serverPort)], what: "the slow link listening")
  }

  /// Slows the link towards the server to 64 kB/s (SIGUSR1) and waits until it has.
  func slowDown() async throws { try await set(SIGUSR1, until: "slow") }

  /// Brings the link back to full speed (SIGUSR2) and waits until it is.
  func speedUp() async throws { try await set(SIGUSR2, until: "fast") }

  /// Sends `signal` and waits for the line that says the new speed took effect.
  private func set(_ signal: Int32, until said: String) async throws {
    let mark = process.standardErrorSoFar.count
    process.send(signal)
    _ = try await process.requireStandardErrorLine("the link saying '\(said)'", from: mark) { $0 == said }
  }
}
