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
  /// How long the handler takes with each frame: a slow app.
  private let handlingTime: Double

  /// Keeps the newest `keeping` frames; spends `handlingTime` seconds in the handler with each.
  init(keeping: Int = 60, handlingTime: Double = 0) {
    self.keeping = keeping
    self.handlingTime = handlingTime
  }

  /// The preview output that hands frames of `format` to this collector.
  func output(_ format: HVTPreviewFrame.Format) -> HVTPreviewOutput {
    .frames(format: format) { [self] frame in receive(frame) }
  }

  private func receive(_ frame: HVTPreviewFrame) {
    if handlingTime > 0 { Thread.sleep(forTimeInterval: handlingTime) }
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
