import Dispatch

extension HVTCameraController {
  /// Starts checking, every frame interval on the queue, that `session` still delivers frames (the frame
  /// tap's newest arrival): a camera can stop without an error, and then nothing else would notice. A
  /// pipeline that cannot keep up (a frame held in the tee by a full branch) is not a stalled camera.
  ///
  /// Silence is measured on a clock of the watchdog's own, which each tick advances by the time since the
  /// previous one but by two frame intervals at most: when the process is not run for a while (a machine
  /// too loaded to run anyone's threads on time, a suspended laptop), that time is not counted against the
  /// camera, whose threads did not run either; a stall is still found, later, on a machine that is slow
  /// all the time.
  func watchFrames(of session: CaptureSession) {
    let interval = max(0.01, 1 / session.model.configuration.frameRate.framesPerSecond)
    let clock = Locked(WatchClock(tick: .now))
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in
      let alive = session.tap.lastSignOfLife
      let reading = clock.withLock { $0.advance(to: .now, by: interval, alive: alive) }
      self?.checkFrames(of: session, interval: interval, clock: reading)
    }
    timer.resume()
    state.frameWatchdog?.cancel()
    state.frameWatchdog = timer
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

  /// One check: announces a stall after four frame intervals (at least half a second: a loaded machine
  /// delays frames that much) without a frame, the recovery when frames flow again, and gives the camera
  /// up after ``cameraStallTimeout``; all on the watchdog's clock.
  private func checkFrames(of session: CaptureSession, interval: Double, clock: (now: Double, aliveAt: Double)) {
    guard state.session === session, state.phase == .running else { return }
    let silence = clock.now - clock.aliveAt
    let threshold = max(4 * interval, 0.5)
    switch state.stall {
    case .flowing:
      guard silence >= threshold else { return }
      state.stall = .stalled(since: clock.aliveAt)
      debugLog.log(.warning, "no frame for \(silence) s", object: session.pipeline)
      publish(.cameraStalled(seconds: silence))
    case .stalled(let since):
      guard silence >= threshold else {
        state.stall = .flowing
        return publish(.cameraRecovered(after: clock.now - since))
      }
      let stalled = clock.now - since
      if stalled >= read(\.settings.cameraStallTimeout) { giveUpStalledCamera(session, stalledFor: stalled) }
    case .reopened(let before):
      // A reopened camera has the whole timeout again, from its start (its clock's zero).
      guard silence >= threshold else {
        state.stall = .flowing
        return publish(.cameraRecovered(after: before + clock.now))
      }
      if clock.now >= read(\.settings.cameraStallTimeout) { giveUpStalledCamera(session, stalledFor: clock.now) }
    }
  }

  /// The camera delivered nothing for ``cameraStallTimeout``: the recording is finalized and delivered,
  /// the error reported, and the camera reopened — once; stalled again, it is stopped.
  private func giveUpStalledCamera(_ session: CaptureSession, stalledFor seconds: Double) {
    let error = HVTCameraError.cameraStalled(name: session.model.configuration.deviceName, seconds: seconds)
    fail(error)
    state.recording?.interruption = error
    finishRecording(reason: .error)
    switch state.stall {
    case .stalled:
      debugLog.log(.warning, "reopening the camera after \(seconds) s without a frame", object: session.pipeline)
      stopSession(then: .rebuild)
      state.stall = .reopened(stalledFor: seconds)
    case .reopened, .flowing:
      state.stall = .flowing
      markDismissed()
      stopSession(then: .nothing)
    }
  }
}
