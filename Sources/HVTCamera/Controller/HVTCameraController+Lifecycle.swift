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
      send(.whenRunning { continuation.resume(with: $0.mapError { $0 }) })
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

  /// Dismisses (see `dismiss()`): closes the library window, and marks the camera dismissed and stops it.
  private func dismissNow() {
    send(.dismiss)
  }

  /// Stops the camera like ``dismiss()``, and returns once it has stopped and every delegate callback of
  /// the session (the last movie, the last photo, a movie being cut after **Use Video**) has run on the
  /// main actor.
  public func dismissAndWait() async {
    dismissNow()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      send(.whenStopped { continuation.resume() })
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
    let id = nextRequestID()
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        send(.whenDismissed(id: id) { continuation.resume() })
        // Cancelled before the wait was registered: the handler below found nothing to answer.
        if Task.isCancelled { send(.cancelDismissalWait(id: id)) }
      }
    } onCancel: {
      send(.cancelDismissalWait(id: id))
    }
  }

  /// The user's cancel: announces ``HVTCameraEvent/cancelled`` and calls `cameraControllerDidCancel` on
  /// the main actor; a photo on the review screen is discarded. The camera stays presented until
  /// `dismiss()`, as with `UIImagePickerController`.
  public func cancel() {
    send(.cancel)
  }

  /// Presents (see `present()`): builds a session for the current settings and hands it to the machine,
  /// unless the camera is presented already; builds again when the settings changed meanwhile.
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
      let environment = ProcessInfo.processInfo.environment
      debugLog.log(.debug, "present: building the pipeline")
      let session: ControllerMachine.Session
      do {
        session = try makeSession(settings, environment: environment)
      } catch {
        send(.presentFailed(HVTCameraError(error)))
        throw error
      }
      debugLog.log(.debug, "present: pipeline built")
      if send(.present(session, version: version, environment: environment)) != .outdated { return }
    }
  }

  // MARK: - Building

  /// The model of the pipeline for `settings` and the camera they select, its preview resolved for the
  /// display `environment` names.
  func makeModel(_ settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) throws
    -> HVTPipelineModel
  {
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
        preset: preset, quality: settings.videoQuality, failingAfterFrames: failing,
        preview: settings.preview(environment: environment),
        overlayTargets: settings.overlayBurnsIntoCaptures, encoding: settings.encoding,
        audio: Microphones.request(
          capturesAudio: settings.capturesAudio, microphone: settings.microphone, camera: camera, preset: preset),
        movieSize: settings.photoSize == nil ? nil : settings.movieSize, requestedSize: settings.cameraSize))
    var model =
      settings.preRollDuration > 0
      ? built.withPreRoll(duration: settings.preRollDuration) : built
    // The pre-roll's and the streams' encoders follow the policy the camera starts with.
    model.continuousBacklog = settings.slowEncoderPolicy.backlog
    debugLog.log(
      .info,
      "preset \(preset.name): photo encoder \(model.photoEncoderFactory), movie encoder \(model.movieEncoder) "
        + "(of \(preset.movieEncoder)), muxer \(model.movieMuxer), "
        + (model.audio.map { "sound from \($0.microphone) by \($0.encoder)" } ?? "no sound"))
    return model
  }

  /// Builds the session for `settings` (in NULL), its bus relayed to the machine, and holds it in
  /// ``resources``; returns what the machine knows of it.
  private func makeSession(_ settings: Settings, environment: [String: String]) throws -> ControllerMachine.Session {
    let model = try makeModel(settings, environment: environment)
    // The handlers run on GStreamer threads.
    let relay = ControllerRelay(self)
    let session = try CaptureSession(
      model: model, output: settings.shownPreview(environment: environment), name: name,
      simulatedControls: model.configuration.deviceID.flatMap { simulatedCameras[$0] },
      onNavigation: { event, size in relay.post(.navigation(event, size: size)) },
      onPreRollFilled: { fill in relay.run { $0.publish(.preRollFilled(fill)) } }
    ) { session, message in
      relay.run { $0.handle(message, fromSession: session) }
    }
    if let rectangle = settings.previewRectangle { session.preview.sink.setRenderRectangle(rectangle) }
    resources.withLock { $0.sessions[session.id] = session }
    return ControllerMachine.Session(session)
  }

  // MARK: - Effects

  /// Builds a session for changed settings on the worker, for ``ControllerMachine/Input/built(_:version:)``.
  func buildSession(_ settings: Settings, version: UInt64, environment: [String: String]) {
    worker.async {
      let result = Result { try self.makeSession(settings, environment: environment) }
      self.post(.built(result.mapError(HVTCameraError.init), version: version))
    }
  }

  /// Starts session `id`: its preview's first frame is reported, the values kept for its camera are set
  /// before it streams (so that its first frame has them), and it is asked to play, on the worker.
  func start(_ description: ControllerMachine.Session) {
    guard let session = session(description.id) else { return }
    resources.withLock { $0.lastPipeline = session.pipeline }
    let relay = ControllerRelay(self)
    let id = session.id
    // The pipeline's name, not the pipeline: a camera that never gives a frame keeps the handler, and
    // the monitor's probe, which the pipeline holds, holds it.
    session.previewMonitor.onFirstFrame { [name = session.pipeline.name] instant in
      debugLog.log(.debug, "\(name): start: the first frame reached the preview sink")
      relay.post(.previewStarted(session: id, at: instant))
    }
    let controls = cameraControls(for: description.configuration)
    worker.async {
      let kept = controls?.applyKept()
      debugLog.log(.debug, "start: asking the pipeline to play", object: session.pipeline)
      let result = session.requestPlaying()
      debugLog.log(.debug, "start: the pipeline answered \(result)", object: session.pipeline)
      if let kept { self.post(.controlsApplied(session: id, applied: kept.applied, failed: kept.failed)) }
      self.post(.playingRequested(session: id, result))
    }
  }

  /// Sets session `id`'s pipeline to NULL on the worker, for ``ControllerMachine/Input/stopped(session:)``.
  func stopSession(_ id: UInt64) {
    guard let session = session(id) else { return }
    worker.async {
      _ = session.stop()
      self.resources.withLock { _ = $0.sessions.removeValue(forKey: id) }
      self.post(.stopped(session: id))
      AllocatorPolicy.releaseFreedMemory(after: "the camera pipeline")
    }
  }
}

extension ControllerMachine.Session {
  /// What the machine knows of `session`, read from its model.
  init(_ session: CaptureSession) {
    let model = session.model
    self.init(
      id: session.id, path: session.path, camera: .init(model),
      encoding: .init(
        preRoll: session.preRoll != nil, recordsOnStreams: model.recordingOnStreams != nil,
        silentBecause: model.audioUnavailableReason))
  }
}
