import Dispatch
import Foundation
import HVTSupport

/// Instants on one clock for every measurement: `ContinuousClock`, the clock HVTCamera's timing hooks
/// (`HVTCameraEvent.previewStarted(at:)`, `HVTMediaMetadata.encodingStartedAt`) use too.
typealias Instant = ContinuousClock.Instant

extension Duration {
  /// The duration in milliseconds.
  var milliseconds: Double {
    Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
  }

  /// The duration in seconds.
  var seconds: Double { milliseconds / 1000 }
}

/// Waits until `deadline` on the clock, with a strict Dispatch timer: only for the benchmark's schedule (a
/// still every 500 ms, a recording of two seconds, a stop's point in its frame interval), never to wait
/// for something to happen (``waitForStop(after:phase:frameRate:frames:)`` is the one exception).
func waitForSchedule(until deadline: Instant) {
  let remaining = ContinuousClock.now.duration(to: deadline)
  guard remaining > .zero else { return }
  let fired = DispatchSemaphore(value: 0)
  let timer = DispatchSource.makeTimerSource(flags: .strict, queue: .global())
  timer.schedule(deadline: .now() + .nanoseconds(Int(remaining / .nanoseconds(1))), leeway: .nanoseconds(0))
  timer.setEventHandler { fired.signal() }
  timer.resume()
  fired.wait()
  timer.cancel()
}

/// Where in its frame interval a round's recording is stopped, so that each engine's stops come at the same
/// points after a frame and the record stop rows compare like with like.
///
/// A stop waits behind the frame the encoder (or the recording's queue) still holds, so its time depends
/// on when it comes after the camera's last frame. At random points, sixteen stops of one engine met a
/// frame on its way at 7 to 13 of them (the vivid entries of BENCHMARKS.md, a chain busy about 45 % of
/// the time), and the medians swung between the two modes from run to run. Round `k` of `rounds` stops
/// every engine at the same fraction of the interval after the frame; the rounds together cover the
/// interval evenly (the middle of each of `rounds` equal parts), in an order that spreads them (`k` times
/// a step prime to `rounds`, the nearest to 0.618 of it, as the golden ratio spreads points), so that
/// neither the early nor the late rounds get the late points.
struct StopPhase {
  /// The fraction of a frame interval, in 0..<1.
  let fraction: Double

  /// The phase of round `round` (from 0) of `rounds`.
  init(round: Int, of rounds: Int) {
    let golden = Double(rounds) * 0.618
    let step =
      (1...rounds).filter { Self.gcd($0, rounds) == 1 }.min { abs(Double($0) - golden) < abs(Double($1) - golden) }
      ?? 1
    fraction = (Double((round * step) % rounds) + 0.5) / Double(rounds)
  }

  /// The middle of the interval: the warm-up rounds', which are not measured.
  static let middle = StopPhase(round: 0, of: 1)

  private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

/// Waits until `earliest`, then for the camera's next frame, then `phase` of a frame interval at
/// `frameRate`: when a recording is stopped. `frames` counts the frames the camera has delivered
/// (`HVTCameraController.sourceFrameCount`, or a probe's count at the same point of a launch line or
/// camerabin); it is read every millisecond, the same for every engine, because HVTCameraController
/// tells an app of each frame only through a frames preview, which would change what is measured. The
/// reads sleep in between (`usleep`), one thread waking: a Dispatch timer for each read, as first
/// written, took about a fifth of a processor in a sampled VM run right before the stop, from the encoder
/// finishing its frame. Throws when no frame comes within a second.
func waitForStop(
  after earliest: Instant, phase: StopPhase, frameRate: Double, frames: () -> UInt64
) throws {
  waitForSchedule(until: earliest)
  let seen = frames()
  let giveUp = ContinuousClock.now + .seconds(1)
  while frames() == seen {
    guard ContinuousClock.now < giveUp else { throw BenchError.failed("no frame for a second before a stop") }
    usleep(1000)
  }
  waitForSchedule(until: .now + .seconds(phase.fraction / frameRate))
}

/// A value that one thread provides once and another waits for: a probe's first buffer, a bus message,
/// a delegate callback. It can also fail, which ends the wait at once.
final class Awaited<Value: Sendable>: Sendable {
  private let result = Locked<Result<Value, BenchError>?>(nil)
  private let arrived = DispatchSemaphore(value: 0)

  /// Provides the value; later calls (and failures) are ignored.
  func fulfill(_ value: Value) { settle(.success(value)) }

  /// Ends the wait with an error, unless the value has arrived.
  func fail(_ error: BenchError) { settle(.failure(error)) }

  private func settle(_ outcome: Result<Value, BenchError>) {
    let first = result.withLock { current in
      guard current == nil else { return false }
      current = outcome
      return true
    }
    if first { arrived.signal() }
  }

  /// The value if it has arrived, without waiting (`nil` if not yet); throws the failure if that came instead.
  func poll() throws -> Value? { try result.withLock { $0 }?.get() }

  /// Waits for the value up to `seconds`; throws the failure, or `BenchError.timedOut` naming `what`.
  func wait(_ what: String, seconds: Double = 30) throws -> Value {
    guard arrived.wait(timeout: .now() + seconds) == .success else { throw BenchError.timedOut(what) }
    arrived.signal()
    return try result.withLock { $0! }.get()
  }
}

/// Why a benchmark step failed.
enum BenchError: Error, Sendable, CustomStringConvertible {
  case timedOut(String)
  case failed(String)

  var description: String {
    switch self {
    case .timedOut(let what): "timed out waiting for \(what)"
    case .failed(let what): what
    }
  }
}
