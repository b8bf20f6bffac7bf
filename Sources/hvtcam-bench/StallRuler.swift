import Foundation
import Glibc
import HVTSupport

/// The machine's own floor for a preview's gaps: a plain thread of the benchmark that asks to wake a
/// frame interval after its last wake (`clock_nanosleep` on `CLOCK_MONOTONIC`) while an engine runs
/// beside the same load, and keeps the longest time between two of its wakes. It does no work, so what
/// it measures is how long the machine can leave a thread that is ready to run without the CPU: the
/// kernel's scheduling and, on a virtual machine, the host's (a host that caps the machine's CPU time
/// stops every thread of it at once). A preview's frames pass through threads like it, so its longest
/// gap beside the same load is at least that.
final class StallRuler: Sendable {
  private let state = Locked((longest: Duration.zero, running: true))
  private let finished = DispatchSemaphore(value: 0)

  /// Starts the ruler's thread, waking every `interval`.
  init(interval: Duration = .nanoseconds(33_333_333)) {
    Thread.detachNewThread { [self] in
      let step = Int(interval / .nanoseconds(1))
      var previous = ContinuousClock.now
      while state.withLock({ $0.running }) {
        // From the last wake, not from a fixed grid: a stall is counted once, not followed by wakes that
        // come at once to catch up.
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_nsec += step
        deadline.tv_sec += deadline.tv_nsec / 1_000_000_000
        deadline.tv_nsec %= 1_000_000_000
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        let now = ContinuousClock.now
        state.withLock { $0.longest = max($0.longest, previous.duration(to: now)) }
        previous = now
      }
      finished.signal()
    }
  }

  /// Stops the ruler (at its next wake) and returns the longest time between two of its wakes.
  func stop() -> Duration {
    state.withLock { $0.running = false }
    finished.wait()
    return state.withLock { $0.longest }
  }
}
