import Foundation
import MediaInspection

/// A `gst-rtsp-server` RECORD mount on 127.0.0.1 (`Fixtures/rtsp_record_server.py`, through GStreamer's
/// Python bindings rather than HVTCamera's), which writes each client's stream to a file of its own.
struct RTSPRecordServer {
  /// Why the server cannot run here, or `nil`: `./dev test` installs python3-gi and
  /// gir1.2-gst-rtsp-server-1.0.
  static let unavailableReason: String? = {
    let typelibs = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).map {
      "/usr/lib/\($0)/girepository-1.0/GstRtspServer-1.0.typelib"
    }
    guard FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi") else {
      return "python3-gi is not installed"
    }
    guard typelibs.contains(where: FileManager.default.fileExists(atPath:)) else {
      return "gir1.2-gst-rtsp-server-1.0 is not installed"
    }
    return nil
  }()

  let process: Subprocess
  let port: Int
  /// The files the clients' streams go to are `output.N.ts`.
  let output: String

  /// Starts the server on `port` (0: a free one) with its mount at `/live`, and waits until it serves.
  init(port: Int = 0, output: String) async throws {
    (process, self.port) = try await ListeningFixture.start(
      "rtsp_record_server", [String(port), "/live", output], what: "the RTSP server listening")
    self.output = output
  }

  /// The mount's URL with `scheme` (`rtsp`, `rtspt`: over TCP).
  func url(_ scheme: String = "rtsp") -> String { "\(scheme)://127.0.0.1:\(port)/live" }

  /// The file client `number`'s stream went to.
  func file(_ number: Int) -> String { "\(output).\(number).ts" }

  /// Waits until a second of client `number`'s frames (30) reached the server. When they do not, the error
  /// also shows what `pusher` (the `hvtcam stream` pushing to it) printed.
  func waitForFrames(from number: Int, pushedBy pusher: Subprocess? = nil) async throws {
    let wait = {
      _ = try await process.requireStandardErrorLine("client \(number)'s frames") { $0 == "receiving \(number)" }
    }
    guard let pusher else { return try await wait() }
    try await pusher.explaining("the pushing hvtcam's stderr", wait)
  }

  /// Kills the server (SIGKILL: it writes every buffer as it comes, so the files are whole up to there;
  /// under the test runner it did not end on SIGTERM) and waits for its end.
  func stop() async {
    process.send(SIGKILL)
    _ = await process.result()
  }
}
