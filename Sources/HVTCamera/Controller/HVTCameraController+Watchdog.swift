import Dispatch

extension HVTCameraController {
  /// Starts checking, every frame interval on the queue, that `session` still delivers frames (the frame
  /// tap's newest arrival): a camera can stop without an error, and then nothing else would notice. A
  /// pipeline that cannot keep up (a frame held in the tee by a full branch) is not a stalled camera.
  func watchFrames(of session: CaptureSession) {
    let interval = max(0.01, 1 / session.model.configuration.frameRate.framesPerSecond)
    let started = ContinuousClock.now
    // The watchdog's own ticks: one that comes late says the machine is too loaded to run anything on
    // time, the camera's threads included, so the silence before it says nothing about the camera.
    let ticks = Locked((last: started, late: started))
    let lateness = Duration.seconds(max(4 * interval, 0.25))
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in
      let now = ContinuousClock.now
      let late = ticks.withLock { ticks in
        if now - ticks.last > lateness { ticks.late = now }
        ticks.last = now
        return ticks.late
      }
      self?.checkFrames(of: session, interval: interval, startedAt: started, excusedUntil: late)
    }
    timer.resume()
    state.frameWatchdog?.cancel()
    state.frameWatchdog = timer
  }

  /// One check: announces a stall after four frame intervals (at least half a second: a loaded machine
  /// delays frames that much) without a frame, the recovery when frames flow again, and gives the camera
  /// up after ``cameraStallTimeout``. Silence before `excused` (a late tick) is not counted.
  private func checkFrames(
    of session: CaptureSession, interval: Double, startedAt started: ContinuousClock.Instant,
    excusedUntil excused: ContinuousClock.Instant
  ) {
    guard state.session === session, state.phase == .running else { return }
    let now = ContinuousClock.now
    let alive = session.tap.lastSignOfLife ?? started
    let threshold = max(4 * interval, 0.5)
    switch state.stall {
    case .flowing:
      let silence = Self.seconds(now - max(alive, excused))
      guard silence >= threshold else { return }
      state.stall = .stalled(since: max(alive, excused))
      debugLog.log(.warning, "no frame for \(silence) s", object: session.pipeline)
      publish(.cameraStalled(seconds: silence))
    case .stalled(let since), .reopened(let since):
      // Only a frame ends a stall; a late tick only restarts the count towards the timeout.
      guard Self.seconds(now - alive) >= threshold else {
        state.stall = .flowing
        return publish(.cameraRecovered(after: Self.seconds(now - since)))
      }
      // A reopened camera has the whole timeout again, from its start.
      let from = state.stall == .reopened(stalledSince: since) ? started : since
      let stalled = Self.seconds(now - max(from, excused))
      if stalled >= read(\.settings.cameraStallTimeout) { giveUpStalledCamera(session, stalledFor: stalled) }
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
    case .stalled(let since):
      debugLog.log(.warning, "reopening the camera after \(seconds) s without a frame", object: session.pipeline)
      stopSession(then: .rebuild)
      state.stall = .reopened(stalledSince: since)
    case .reopened, .flowing:
      state.stall = .flowing
      markDismissed()
      stopSession(then: .nothing)
    }
  }
}
