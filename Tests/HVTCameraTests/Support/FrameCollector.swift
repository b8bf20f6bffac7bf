import Foundation
import HVTCamera
import HVTSupport

/// Receives the frames of a ``HVTPreviewOutput/frames(format:handler:)`` preview, keeps the newest ones,
/// and lets a test wait for a number of them.
final class FrameCollector: Sendable {
  /// What the handler has received, and who waits for what.
  private struct State {
    var frames: [HVTPreviewFrame] = []
    var received = 0
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var holding = false
    var holdWaiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())
  private let keeping: Int
  /// With `holding`: the handler does not return from its first frame until ``release()`` (an app as slow
  /// as can be), and it has started holding once `holding` is set.
  private let gate: DispatchSemaphore?

  /// Keeps the newest `keeping` frames; with `holding`, the handler holds on to its first frame until
  /// ``release()``.
  init(keeping: Int = 60, holding: Bool = false) {
    self.keeping = keeping
    gate = holding ? DispatchSemaphore(value: 0) : nil
  }

  /// Waits until the handler is holding its first frame.
  func untilHolding() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if state.holding { return true }
        state.holdWaiters.append(continuation)
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
    if let gate, state.withLock({ $0.received == 0 }) {
      let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.holding = true
        defer { state.holdWaiters = [] }
        return state.holdWaiters
      }
      waiting.forEach { $0.resume() }
      gate.wait()
    }
    let keeping = keeping
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.received += 1
      state.frames.append(frame)
      if state.frames.count > keeping { state.frames.removeFirst(state.frames.count - keeping) }
      let received = state.received
      let (done, waiting) = (
        state.waiters.filter { $0.count <= received }, state.waiters.filter { $0.count > received }
      )
      state.waiters = waiting
      return done.map(\.continuation)
    }
    ready.forEach { $0.resume() }
  }

  /// How many frames the handler has received.
  var count: Int { state.withLock { $0.received } }

  /// The newest frames kept.
  var kept: [HVTPreviewFrame] { state.withLock { $0.frames } }

  /// Waits until `more` frames beyond those received so far have arrived, and returns the newest.
  @discardableResult
  func next(_ more: Int = 1) async -> HVTPreviewFrame {
    let target = count + more
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if state.received >= target { return true }
        state.waiters.append((target, continuation))
        return false
      }
      if now { continuation.resume() }
    }
    return state.withLock { $0.frames[$0.frames.count - 1] }
  }
}
