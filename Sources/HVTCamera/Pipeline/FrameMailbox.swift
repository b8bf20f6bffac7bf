import Dispatch
import HVTGStreamer
import HVTSupport

/// Hands the preview's newest frame to the app's `.frames` handler on a queue of its own, so that the
/// streaming thread never waits for the app: a handler that is slow, or does not return at all, would
/// otherwise hold `appsink` — and, through the serialized queries the preview's queue passes on (an
/// allocation query when a recording branch is linked), the camera. Frames that arrive while the handler
/// runs replace each other; only the newest waits.
final class FrameMailbox: Sendable {
  private struct Slot {
    var pending: Sample?
    var delivering = false
  }

  private let slot = Locked(Slot())
  private let queue = DispatchQueue(label: "HVTCamera.preview-frames")
  private let deliver: @Sendable (Sample) -> Void

  /// A mailbox that calls `deliver` with each sample it does not drop.
  init(deliver: @escaping @Sendable (Sample) -> Void) {
    self.deliver = deliver
  }

  /// Leaves `sample` for the handler, replacing one still waiting; returns at once.
  func post(_ sample: Sample) {
    let start = slot.withLock { slot -> Bool in
      slot.pending = sample
      defer { slot.delivering = true }
      return !slot.delivering
    }
    if start { queue.async { self.drain() } }
  }

  private func drain() {
    while let sample = slot.withLock({ slot -> Sample? in
      defer { slot.pending = nil }
      if slot.pending == nil { slot.delivering = false }
      return slot.pending
    }) {
      deliver(sample)
    }
  }
}
