import Dispatch

extension HVTCameraController {
  /// Starts checking, every frame interval on the queue, that `session` still delivers frames (the frame
  /// tap's newest arrival): a camera can stop without an error, and then nothing else would notice.
  func watchFrames(of session: CaptureSession) {
    let interval = max(0.01, 1 / session.model.configuration.frameRate.framesPerSecond)
    let started = ContinuousClock.now
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in
      self?.checkFrames(of: session, interval: interval, startedAt: started)
    }
    timer.resume()
    state.frameWatchdog?.cancel()
    state.frameWatchdog = timer
  }

  /// One check: announces a stall after four frame intervals (at least half a second: a loaded machine
  /// delays frames that much) without a frame, the recovery when frames flow again, and gives the camera
  /// up after ``cameraStallTimeout``.
  private func checkFrames(of session: CaptureSession, interval: Double, startedAt started: ContinuousClock.Instant) {
    guard state.session === session, state.phase == .running else { return }
    let now = ContinuousClock.now
    let last = session.tap.latest?.arrival ?? started
    let silence = Self.seconds(now - last)
    switch state.stall {
    case .flowing:
      guard silence >= max(4 * interval, 0.5) else { return }
      state.stall = .stalled(since: last)
      debugLog.log(.warning, "no frame for \(silence) s", object: session.pipeline)
      publish(.cameraStalled(seconds: silence))
    case .stalled(let since), .reopened(let since):
      guard silence >= max(4 * interval, 0.5) else {
        state.stall = .flowing
        return publish(.cameraRecovered(after: Self.seconds(now - since)))
      }
      // A reopened camera has the whole timeout again, from its start.
      let stalled = Self.seconds(now - (state.stall == .reopened(stalledSince: since) ? started : since))
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
