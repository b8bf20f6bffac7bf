import Foundation
import MediaInspection

/// A peer on 127.0.0.1 that takes connections and never answers (`Fixtures/silent_peer.py`): a TCP
/// server that accepts and then says nothing (no RTMP or RTSP handshake ever completes), or a UDP port
/// that swallows every datagram (no SRT handshake).
struct SilentPeer {
  let process: Subprocess
  let port: Int

  /// Starts the peer (`tcp` or `udp`) on `port` (0: a free one) and waits until it is bound.
  init(_ kind: String, port: Int = 0) async throws {
    (process, self.port) = try await ListeningFixture.start(
      "silent_peer", [kind, String(port)], what: "the silent peer listening")
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
