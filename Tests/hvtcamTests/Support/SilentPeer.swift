import Foundation
import MediaInspection
import Testing

/// A peer on 127.0.0.1 that takes connections and never answers (`Fixtures/silent_peer.py`): a TCP
/// server that accepts and then says nothing (no RTMP or RTSP handshake ever completes), or a UDP port
/// that swallows every datagram (no SRT handshake).
struct SilentPeer {
  let process: Subprocess
  let port: Int

  /// Starts the peer (`tcp` or `udp`) on `port` (0: a free one) and waits until it is bound.
  init(_ kind: String, port: Int = 0) async throws {
    guard let script = Bundle.module.url(forResource: "silent_peer", withExtension: "py") else {
      throw TestFailure("silent_peer.py is not in the tests' resources")
    }
    process = try Subprocess(
      URL(fileURLWithPath: "/usr/bin/python3"), [script.path, kind, String(port)],
      environment: ProcessInfo.processInfo.environment)
    let line = try await process.requireStandardErrorLine("the silent peer listening") { $0.hasPrefix("listening ") }
    self.port = try #require(Int(line.dropFirst("listening ".count)), "\(line)")
  }

  /// Waits until the peer has been reached: a connection accepted, or a datagram received.
  func waitUntilReached() async throws {
    _ = try await process.requireStandardErrorLine("a connection to the silent peer") {
      $0 == "accepted" || $0 == "datagram"
    }
  }

  /// Ends the peer (SIGKILL) and waits for its end.
  func stop() async {
    process.send(SIGKILL)
    _ = await process.result()
  }
}
