import Dispatch
import Foundation
import HVTGStreamer

extension HVTCameraController {
  // MARK: - Presenting

  /// Starts the camera and returns at once: builds the live pipeline for the current settings and asks
  /// it to play. Does nothing if already presented.
  ///
  /// Throws what can be known before GStreamer runs: no camera, the requested position has no device,
  /// the preset cannot be used here, an element is missing. What happens next arrives as events —
  /// ``HVTCameraEvent/configured(_:)`` and ``HVTCameraEvent/readyForCapture(_:)`` when frames flow, or
  /// `didFailWithError` when the device does not start (after ``startTimeout`` at the latest).
  /// `takePicture()` before then takes the camera's first frame. Finding the camera may take a moment
  /// (GStreamer's device monitor; in a Flatpak sandbox the Camera portal, which may ask the user, and whose
  /// refusal is thrown: ``HVTCameraError/cameraAccessDenied`` and the other portal errors); call it off
  /// the main thread if that matters.
  ///
  /// Not available from `async` code, where ``presentAndWait()`` says what it does: it returns once
  /// frames flow.
  @available(*, noasync, message: "use presentAndWait(), which returns once the camera delivers frames")
  public func present() throws {
    try presentNow()
  }

  /// Starts the camera and waits until it delivers frames (``isReadyForCapture``), or throws why it did
  /// not: the errors of ``present()``, GStreamer's error when the device fails to start (also reported
  /// to the delegate), ``HVTCameraError/startTimedOut(seconds:)``, or ``HVTCameraError/notPresented``
  /// when `dismiss()` came first. Returns at once if already running. For a library ``sourceType``, opens
  /// the library window and returns once it shows.
  public func presentAndWait() async throws {
    if read(\.settings.sourceType) != .camera { return try await presentLibrary() }
    try presentNow()
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      queue.async {
        self.whenRunning { continuation.resume(with: $0.mapError { $0 }) }
      }
    }
  }

  /// Stops the camera and returns at once. A recording in progress is finalized and delivered, and
  /// photos in progress are delivered, before the pipeline stops (off the caller's thread). Does nothing
  /// when not presented.
  ///
  /// Not available from `async` code, where a program that returned from here and exited would lose the
  /// movie being finalized: use ``dismissAndWait()`` there.
  @available(*, noasync, message: "use dismissAndWait(), which returns once the last movie is finalized")
  public func dismiss() {
    dismissNow()
  }

  /// Dismisses (see `dismiss()`): marks the camera dismissed and has the queue stop it.
  private func dismissNow() {
    closeLibraryWindow()
    shared.withLock { shared in
      guard shared.isPresented else { return }
      shared.isPresented = false
      shared.session = nil
      shared.configuration = nil
      shared.cameraReady = false
      shared.recording = nil
      queue.async { self.stopSession(then: .nothing) }
    }
  }

  /// Stops the camera like ``dismiss()``, and returns once it has stopped and every delegate callback of
  /// the session (the last movie, the last photo) has run on the main actor.
  public func dismissAndWait() async {
    dismissNow()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async {
        let done: @Sendable () -> Void = { continuation.resume() }
        if self.state.phase == .idle {
          self.hub.toDelegate({ _ in }, afterwards: done)
        } else {
          self.state.stopWaiters.append(done)
        }
      }
    }
  }

  /// Waits until the camera interface is dismissed — by the delegate (on the user's Cancel, or once it
  /// has what it wanted), by ``dismiss()``, or by a failure that stops the camera — and every delegate
  /// callback of the session has run; for a library ``sourceType``, until its window has closed. Returns
  /// at once when nothing is presented, and when the calling task is cancelled.
  ///
  /// An app with a main loop needs no such wait; a command-line program's top-level code does, to keep
  /// running (and serving the main actor, where the delegate is called) while the user works the camera:
  ///
  /// ```swift
  /// try await camera.presentAndWait()
  /// await camera.waitUntilDismissed()  // the delegate dismisses on Cancel, or after a photo
  /// ```
  public func waitUntilDismissed() async {
    // The waiter's number once registered, and whether the task was cancelled: whichever of the queue's
    // registration and the cancellation comes second answers the waiter.
    let registration = Locked<(number: UInt64?, cancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        queue.async {
          let done: @Sendable () -> Void = { continuation.resume() }
          guard self.isShowingSomething, !registration.withLock({ $0.cancelled }) else {
            return self.hub.toDelegate({ _ in }, afterwards: done)
          }
          self.state.dismissWaiterCount += 1
          let number = self.state.dismissWaiterCount
          self.state.dismissWaiters[number] = done
          let cancelled = registration.withLock { registration in
            registration.number = number
            return registration.cancelled
          }
          if cancelled { self.state.dismissWaiters.removeValue(forKey: number)?() }
        }
      }
    } onCancel: {
      let number = registration.withLock { registration in
        registration.cancelled = true
        return registration.number
      }
      guard let number else { return }
      queue.async { self.state.dismissWaiters.removeValue(forKey: number)?() }
    }
  }

  /// Whether the camera is presented, or still stopping, or the library window is open (on the queue).
  private var isShowingSomething: Bool {
    read { $0.isPresented || $0.libraryWindow != nil } || state.phase != .idle
  }

  /// Answers the `waitUntilDismissed()` callers once nothing is shown any more, after the delegate
  /// callbacks queued so far (on the queue).
  func resolveDismissWaiters() {
    guard !isShowingSomething, !state.dismissWaiters.isEmpty else { return }
    let waiters = state.dismissWaiters.values
    state.dismissWaiters = [:]
    waiters.forEach { hub.toDelegate({ _ in }, afterwards: $0) }
  }

  /// The user's cancel: announces ``HVTCameraEvent/cancelled`` and calls `cameraControllerDidCancel` on
  /// the main actor; a photo on the review screen is discarded. The camera stays presented until
  /// `dismiss()`, as with `UIImagePickerController`.
  public func cancel() {
    queue.async {
      self.endReview(using: false)
      self.publish(.cancelled)
      self.hub.toDelegate { [self] delegate in delegate.cameraControllerDidCancel(self) }
    }
  }

  /// Presents (see `present()`): builds a session for the current settings and hands it to the queue,
  /// unless the camera is presented already.
  private func presentNow() throws {
    while true {
      let (settings, version, presented) = read { ($0.settings, $0.settingsVersion, $0.isPresented) }
      if presented { return }
      guard settings.sourceType == .camera else {
        openLibraryWindow(settings) { result in
          if case .failure(let error) = result { self.queue.async { self.fail(error) } }
        }
        return
      }
      let session = try makeSession(settings)
      let committed = shared.withLock { shared -> Bool in
        guard !shared.isPresented, shared.settingsVersion == version else { return false }
        shared.isPresented = true
        shared.session = session
        queue.async { self.startSession(session) }
        return true
      }
      if committed { return }
      // Presented meanwhile, or the settings changed while the pipeline was being built.
      worker.async { session.stop() }
    }
  }

  // MARK: - Building

  /// The model of the pipeline for `settings` and the camera they select.
  func makeModel(_ settings: Settings) throws -> HVTPipelineModel {
    let cameras = try CameraDiscovery.devices(for: source, environment: ProcessInfo.processInfo.environment)
    guard !cameras.isEmpty else {
      throw HVTCameraError.noCameraAvailable(
        reason:
          "no V4L2 or PipeWire camera was found and the simulated camera is not enabled (set HVT_CAMERA_SOURCE=simulated)"
      )
    }
    guard let camera = cameras.first(where: { $0.position == settings.cameraDevice }) else {
      throw HVTCameraError.cameraDeviceUnavailable(settings.cameraDevice)
    }
    if let failure = camera.failure { throw failure }
    let preset = settings.preset
    // A preset's own source is opened (in READY) to learn what it offers.
    let deviceCaps = try preset.source.map { try CameraDiscovery.probeCaps(of: $0) } ?? camera.caps
    guard
      let choice = try HVTCapsSelection.choose(
        deviceCaps: deviceCaps, size: settings.cameraSize, frameRate: preset.frameRate,
        preferredFormat: preset.format)
    else {
      let source = preset.source.map { "the preset's source '\($0.factory)'" } ?? camera.name
      throw HVTCameraError.unsupportedCameraFormats(camera: source, caps: deviceCaps)
    }
    debugLog.log(
      .info, "\(camera.name): \(choice.caps) for \(settings.videoQuality.commandLineName) (offers \(deviceCaps))")
    let failing: Int? = if case .simulated(let frames) = source.kind { frames } else { nil }
    let built = try HVTPipelineModel.build(
      camera: camera, choice: choice,
      settings: .init(
        preset: preset, quality: settings.videoQuality, failingAfterFrames: failing, preview: settings.preview,
        overlayTargets: settings.overlayBurnsIntoCaptures, encoding: settings.encoding,
        audio: Microphones.request(
          capturesAudio: settings.capturesAudio, microphone: settings.microphone, camera: camera, preset: preset),
        movieSize: settings.photoSize == nil ? nil : settings.movieSize, requestedSize: settings.cameraSize))
    let model =
      settings.preRollDuration > 0
      ? built.withPreRoll(duration: settings.preRollDuration) : built
    debugLog.log(
      .info,
      "preset \(preset.name): photo encoder \(model.photoEncoderFactory), movie encoder \(model.movieEncoder) "
        + "(of \(preset.movieEncoder)), muxer \(model.movieMuxer), "
        + (model.audio.map { "sound from \($0.microphone) by \($0.encoder)" } ?? "no sound"))
    return model
  }

  /// Builds the session for `settings` (in NULL), its bus relayed to the controller queue.
  private func makeSession(_ settings: Settings) throws -> CaptureSession {
    let model = try makeModel(settings)
    // The handler runs on GStreamer threads: it holds the queue and a weak controller, so that the
    // controller is never released (and its pipeline stopped) on a streaming thread.
    let controller = WeakReference(self)
    let session = try CaptureSession(
      model: model, output: settings.shownPreview, name: name,
      simulatedControls: model.configuration.deviceID.flatMap { simulatedCameras[$0] },
      onNavigation: { [queue] event, size in queue.async { controller.target?.handleNavigation(event, size: size) } },
      onPreRollFilled: { [queue] fill in queue.async { controller.target?.publish(.preRollFilled(fill)) } }
    ) { [queue] session, message in
      queue.async { controller.target?.handle(message, fromSession: session) }
    }
    if let rectangle = settings.previewRectangle { session.preview.sink.setRenderRectangle(rectangle) }
    return session
  }

  // MARK: - The state machine (on the queue)

  /// Starts `session`, or, while the previous one is stopping, starts it once that one has stopped.
  func startSession(_ session: CaptureSession) {
    switch state.phase {
    case .idle:
      break
    case .stopping:
      if case .start(let superseded) = state.afterStop, superseded !== session { worker.async { superseded.stop() } }
      state.afterStop = .start(session)
      return
    case .starting, .running:
      if state.session !== session { worker.async { session.stop() } }
      return
    }
    state.phase = .starting
    state.session = session
    state.startRefused = false
    state.lastPipeline = session.pipeline
    state.pipelinePath = session.path
    shared.withLock { $0.session = $0.isPresented ? session : $0.session }
    let controller = WeakReference(self)
    // Weakly: the monitor is the session's, and holding the session from it would keep both alive.
    let monitored = WeakReference(session)
    session.previewMonitor.onFirstFrame { [queue] instant in
      queue.async {
        guard let self = controller.target, let session = monitored.target, self.state.session === session else {
          return
        }
        self.publish(.previewStarted(at: instant))
      }
    }
    let timeout = read(\.settings.startTimeout)
    state.startTimer = schedule(after: timeout) { controller in
      guard controller.state.session === session, controller.state.phase == .starting else { return }
      controller.failStart(HVTCameraError.startTimedOut(seconds: timeout))
    }
    // The values kept for the camera are set before it streams, so that its first frame has them.
    let controls = cameraControls(for: session.model.configuration)
    worker.async {
      let kept = controls?.applyKept()
      let result = session.requestPlaying()
      self.queue.async {
        if let kept, !kept.applied.isEmpty || !kept.failed.isEmpty, self.state.session === session {
          self.publish(.cameraControlsApplied(applied: kept.applied, failed: kept.failed))
        }
        self.playingRequested(session, result: result)
      }
    }
  }

  /// The pipeline answered the request to play. A refusal is reported with the error message that
  /// GStreamer posts with it (a bin fails its state change before the message has reached the bus), or,
  /// if none comes within a second, as a refused state change.
  private func playingRequested(_ session: CaptureSession, result: StateChangeResult) {
    guard state.session === session, state.phase == .starting, result == .failure else { return }
    state.startRefused = true
    state.startTimer?.cancel()
    state.startTimer = schedule(after: 1) { controller in
      guard controller.state.session === session, controller.state.phase == .starting else { return }
      controller.failStart(
        HVTCameraError.pipelineSetupFailed(.stateChangeFailed(element: session.path, target: .playing)))
    }
  }

  /// The pipeline reached PLAYING: frames flow.
  func sessionRunning(_ session: CaptureSession) {
    guard state.session === session, state.phase == .starting else { return }
    state.phase = .running
    state.startTimer?.cancel()
    state.startTimer = nil
    let configuration = session.model.configuration
    shared.withLock { shared in
      guard shared.session === session else { return }
      shared.configuration = configuration
      shared.cameraReady = true
    }
    debugLog.log(.info, "camera started: \(configuration)", object: session.pipeline)
    watchFrames(of: session)
    startPreRollSound(of: session)
    publish(.configured(configuration))
    announceReadiness()
    resolveReadyWaiters(.success(()))
    // Real cameras only: a V4L2 node, or a PipeWire camera (which may have no node).
    if configuration.devicePath != nil || session.model.source.first?.factory == "pipewiresrc" {
      watchDevices(for: session)
    }
    if let pending = state.pendingRecording {
      state.pendingRecording = nil
      beginRecording(pending)
      if let reason = state.pendingStop { finishRecording(id: pending.id, reason: reason) }
      state.pendingStop = nil
    }
    let awaiting = state.photosAwaitingCamera
    state.photosAwaitingCamera = []
    awaiting.forEach(beginPhoto)
    attachStreams(to: session)
  }

  /// Calls `body` once the camera runs (at once if it does), or with the reason it will not.
  private func whenRunning(_ body: @escaping @Sendable (Result<Void, HVTCameraError>) -> Void) {
    if state.phase == .running { return body(.success(())) }
    guard read(\.isPresented) else { return body(.failure(.notPresented)) }
    state.readyWaiters.append(body)
  }

  private func resolveReadyWaiters(_ result: Result<Void, HVTCameraError>) {
    let waiters = state.readyWaiters
    state.readyWaiters = []
    waiters.forEach { $0(result) }
  }

  /// The camera did not start: reports why and stops what was built.
  func failStart(_ error: HVTCameraError) {
    debugLog.log(.warning, "the camera did not start: \(error)")
    state.lastPipeline?.dumpDotFile(named: "\(name)-error")
    fail(error)
    resolveReadyWaiters(.failure(error))
    markDismissed()
    stopSession(then: .nothing)
  }

  /// Answers what waits for a camera that will not run: `present()` callers, a recording and photos
  /// asked for while it was starting.
  func abandonWaitingRequests() {
    resolveReadyWaiters(.failure(.notPresented))
    abandonAwaitingPhotos(.notPresented)
    if let pending = state.pendingRecording {
      state.pendingRecording = nil
      state.pendingStop = nil
      pending.file.discard()
      clearRecordingSnapshot(pending.id)
      deliver(.failure(.recordingEmpty(path: pending.file.final.path)), to: pending.destination)
    }
  }

  /// Records that the camera is no longer presented (a failure stopped it).
  func markDismissed() {
    shared.withLock { shared in
      shared.isPresented = false
      shared.session = nil
      shared.configuration = nil
      shared.cameraReady = false
      shared.recording = nil
    }
  }

  /// Stops the current session: finalizes its recordings, lets its photos finish, then sets the pipeline
  /// to NULL off the queue; `then` says what follows.
  func stopSession(then next: AfterStop) {
    switch state.phase {
    case .idle:
      if case .nothing = next { abandonWaitingRequests() }
      return perform(next)
    case .stopping:
      if case .start(let superseded) = state.afterStop { worker.async { superseded.stop() } }
      state.afterStop = next
      if case .nothing = next { abandonWaitingRequests() }
      return
    case .starting, .running:
      break
    }
    state.phase = .stopping
    state.afterStop = next
    state.startTimer?.cancel()
    state.startTimer = nil
    state.frameWatchdog?.cancel()
    state.frameWatchdog = nil
    state.stall = .flowing
    state.deviceWatcher = nil
    if case .nothing = next { abandonWaitingRequests() }
    endReview(using: false)
    if case .nothing = next { detachStreams(ending: true) } else { detachStreams(ending: false) }
    finishRecording(reason: .cameraStopped)
    announceReadiness()
    // Photos waiting for a frame that will not come are answered now.
    state.session?.tap.cancelWaiters()
    continueStopping()
  }

  /// Once no recording drains and no photo is in progress, stops the pipeline on the worker queue.
  func continueStopping() {
    guard state.phase == .stopping, state.recording == nil, state.draining.isEmpty, state.photosInProgress == 0,
      let session = state.session
    else { return }
    state.session = nil
    worker.async {
      session.stop()
      self.queue.async { self.sessionStopped() }
    }
  }

  /// The pipeline reached NULL.
  private func sessionStopped() {
    guard state.phase == .stopping else { return }
    state.phase = .idle
    // A pipeline flushes its bus on the way to NULL, so GStreamer never posts this last change.
    publish(.stateChanged(from: .ready, to: .null))
    announceReadiness()
    let next = state.afterStop
    state.afterStop = .nothing
    perform(next)
    if state.phase == .idle {
      let waiters = state.stopWaiters
      state.stopWaiters = []
      waiters.forEach { hub.toDelegate({ _ in }, afterwards: $0) }
    }
    resolveDismissWaiters()
  }

  /// What follows a stop.
  private func perform(_ next: AfterStop) {
    switch next {
    case .nothing:
      break
    case .start(let session):
      startSession(session)
    case .rebuild:
      guard read(\.isPresented) else { return resolveReadyWaiters(.failure(.notPresented)) }
      let (settings, version) = read { ($0.settings, $0.settingsVersion) }
      worker.async {
        do {
          let session = try self.makeSession(settings)
          self.queue.async {
            guard self.read(\.isPresented), self.state.phase == .idle else {
              return self.worker.async { session.stop() }
            }
            // Settings that changed while it was built make it stale: build again.
            guard self.read(\.settingsVersion) == version else {
              self.worker.async { session.stop() }
              return self.perform(.rebuild)
            }
            self.startSession(session)
          }
        } catch {
          self.queue.async {
            self.fail(error)
            self.resolveReadyWaiters(.failure(HVTCameraError(error)))
            self.markDismissed()
            self.abandonWaitingRequests()
            self.resolveDismissWaiters()
          }
        }
      }
    }
  }

  /// A one-shot timer on the controller queue that calls `body` with the controller, if it still exists.
  func schedule(after seconds: Double, _ body: @escaping (HVTCameraController) -> Void) -> DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + seconds)
    timer.setEventHandler { [weak self] in
      guard let self else { return }
      body(self)
    }
    timer.resume()
    return timer
  }
}
