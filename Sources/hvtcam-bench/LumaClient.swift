import Foundation
import HVTGStreamer
import HVTSupport

/// An RTSP client in the benchmark's process: `rtspsrc` over TCP without a jitter buffer, decoded and
/// scaled down to grey, each frame's mean luma (0…255) and arrival handed to whoever waits for a frame
/// of a kind.
final class LumaClient: Sendable {
  /// A frame at least this bright shows the camera's brightness turned up (the bars' mean is about 100).
  static let brightLevel = 200.0
  /// A frame at most this bright shows it turned back.
  static let darkLevel = 150.0

  private let pipeline: Pipeline
  private let waiter = Locked<(matches: @Sendable (Double) -> Bool, awaited: Awaited<Instant>)?>(nil)

  /// Starts reading `url`.
  init(url: String) throws {
    pipeline = try Pipeline(
      launch: "rtspsrc location=\(url) protocols=tcp latency=0 ! rtph264depay ! h264parse ! decodebin "
        + "! videoconvert ! videoscale ! video/x-raw,format=GRAY8,width=64,height=36 "
        + "! appsink name=frames sync=false max-buffers=4 drop=true")
    guard let sink = pipeline.element(named: "frames") else { throw BenchError.failed("the client has no appsink") }
    let waiter = self.waiter
    sink.onNewSample { sample in
      let arrival = ContinuousClock.now
      guard let buffer = sample.buffer else { return }
      let luma = buffer.withBytes { bytes in
        Double(bytes.reduce(0) { $0 + Int($1) }) / Double(max(1, bytes.count))
      }
      let due = waiter.withLock { current -> Awaited<Instant>? in
        guard let (matches, awaited) = current, matches(luma) else { return nil }
        current = nil
        return awaited
      }
      due?.fulfill(arrival)
    }
    pipeline.setState(.playing)
  }

  /// Waits for the next frame whose mean luma `matches`; returns when it arrived.
  func frame(_ what: String, seconds: Double = 10, matching matches: @escaping @Sendable (Double) -> Bool) throws
    -> Instant
  {
    let awaited = Awaited<Instant>()
    waiter.withLock { $0 = (matches, awaited) }
    return try awaited.wait(what, seconds: seconds)
  }

  /// Stops the client.
  func stop() {
    pipeline.setState(.null)
  }
}
