import Dispatch
import HVTSupport

extension HVTCameraController {
  /// Starts checking, every `interval` on the queue, that session `id` still delivers frames (the frame
  /// tap's newest arrival): a camera can stop without an error, and then nothing else would notice. A
  /// pipeline that cannot keep up (a frame held in the tee by a full branch) is not a stalled camera.
  ///
  /// Silence is measured on a clock of the watchdog's own, which each tick advances by the time since the
  /// previous one but by two of its intervals at most: when the process is not run for a while (a machine
  /// too loaded to run anyone's threads on time, a suspended laptop), that time is not counted against the
  /// camera, whose threads did not run either; a stall is still found, later, on a machine that is slow
  /// all the time.
  func watchFrames(of id: UInt64, interval: Double) {
    guard let session = session(id) else { return }
    let clock = Locked(WatchClock(tick: .now))
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in
      let alive = session.tap.lastSignOfLife
      let reading = clock.withLock { $0.advance(to: .now, by: interval, alive: alive) }
      self?.sendOnQueue(.watchdog(session: id, now: reading.now, aliveAt: reading.aliveAt))
    }
    timer.resume()
    resources.withLock { resources in
      defer { resources.watchdog = timer }
      return resources.watchdog
    }?.cancel()
  }

  /// The watchdog's clock: seconds since the watch began, as its ticks count them.
  struct WatchClock {
    /// The last tick.
    var tick: ContinuousClock.Instant
    /// Its time now.
    var now = 0.0
    /// The camera's last sign of life as last seen, and the watchdog's time when it was first seen.
    var alive: ContinuousClock.Instant?
    var aliveAt = 0.0

    /// One tick at `instant`, with the camera's newest sign of life: returns the time now and the time of
    /// that sign.
    mutating func advance(
      to instant: ContinuousClock.Instant, by interval: Double, alive latest: ContinuousClock.Instant?
    )
      -> (now: Double, aliveAt: Double)
    {
      now += min(HVTCameraController.seconds(instant - tick), 2 * interval)
      tick = instant
      if latest != alive {
        alive = latest
        aliveAt = now
      }
      return (now, aliveAt)
    }
  }
}
