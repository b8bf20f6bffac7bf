import Foundation
import HVTCamera

/// Receives the frames of a ``HVTPreviewOutput/frames(format:handler:)`` preview, keeps the newest ones,
/// and lets a test wait for a number of them.
final class FrameCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var frames: [HVTPreviewFrame] = []
  private var received = 0
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private let keeping: Int
  /// With `holding`: the handler does not return from its first frame until ``release()`` (an app as slow
  /// as can be), and it has started holding once this is set.
  private let gate: DispatchSemaphore?
  private var holding = false
  private var holdWaiters: [CheckedContinuation<Void, Never>] = []

  /// Keeps the newest `keeping` frames; with `holding`, the handler holds on to its first frame until
  /// ``release()``.
  init(keeping: Int = 60, holding: Bool = false) {
    self.keeping = keeping
    gate = holding ? DispatchSemaphore(value: 0) : nil
  }

  /// Waits until the handler is holding its first frame.
  func untilHolding() async {
    await withCheckedContinuation { continuation in
      let now = lock.withLock { () -> Bool in
        if holding { return true }
        holdWaiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Lets a holding handler return.
  func release() { gate?.signal() }

  /// The preview output that hands frames of `format` to this collector.
  func output(_ format: HVTPreviewFrame.Format) -> HVTPreviewOutput {
    .frames(format: format) { [self] frame in receive(frame) }
  }

  private func receive(_ frame: HVTPreviewFrame) {
    if let gate, lock.withLock({ received == 0 }) {
      let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
        holding = true
        defer { holdWaiters = [] }
        return holdWaiters
      }
      waiting.forEach { $0.resume() }
      gate.wait()
    }
    let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      received += 1
      frames.append(frame)
      if frames.count > keeping { frames.removeFirst(frames.count - keeping) }
      let (done, waiting) = (waiters.filter { $0.count <= received }, waiters.filter { $0.count > received })
      waiters = waiting
      return done.map(\.continuation)
    }
    ready.forEach { $0.resume() }
  }

  /// How many frames the handler has received.
  var count: Int { lock.withLock { received } }

  /// The newest frames kept.
  var kept: [HVTPreviewFrame] { lock.withLock { frames } }

  /// Waits until `more` frames beyond those received so far have arrived, and returns the newest.
  @discardableResult
  func next(_ more: Int = 1) async -> HVTPreviewFrame {
    let target = lock.withLock { received } + more
    await withCheckedContinuation { continuation in
      let now = lock.withLock { () -> Bool in
        if received >= target { return true }
        waiters.append((target, continuation))
        return false
      }
      if now { continuation.resume() }
    }
    return lock.withLock { frames[frames.count - 1] }
  }
}
