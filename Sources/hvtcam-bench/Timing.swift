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
/// still every 500 ms, a recording of two seconds), never to wait for something to happen.
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

/// When a recording started at `start` is stopped: `seconds` later, plus a random part of a frame
/// interval at `frameRate`. The time from a start to its first encoded frame hardly varies from one round
/// to the next, so a stop at whole seconds (a whole number of frames) would find the encoder at the same
/// point of a frame every round — just after one came in, behind whose encoding the end of stream waits —
/// where the random part gives every engine's stops every point of one.
func recordingStop(after start: Instant, seconds: Int, frameRate: Double) -> Instant {
  start + .seconds(seconds) + .seconds(Double.random(in: 0..<(1 / frameRate)))
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
