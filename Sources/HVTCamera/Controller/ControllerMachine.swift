import Foundation
import HVTGStreamer

/// The controller's behaviour, as one pure function: ``step(_:_:)`` takes the state and one input — a
/// call, a bus message, a timer, the outcome of work done off the queue — and returns the next state and
/// the effects the interpreter runs (``HVTCameraController/run(_:)``). It reads nothing but its
/// arguments and does nothing but return: it is tested without GStreamer (`ControllerMachineTests`).
///
/// The phases (``Phase``) each carry their session; a recording is either the one taking frames
/// (``Recording``) or one ending (``EndingRecording``), each with the stage it is at. Every step ends the
/// same way (``Transition/conclude()``): a change of the readiness for a photo is announced, and the
/// waits for a stopped camera, or for nothing shown, are answered once that is so; the getters' snapshot
/// (``HVTCameraController/Shared``) is then derived from the new state.
enum ControllerMachine {
  /// The next state, and what to do, after `input`.
  static func step(_ state: State, _ input: Input) -> (State, [Effect]) {
    var transition = Transition(state: state)
    transition.apply(input)
    transition.conclude()
    return (transition.state, transition.effects)
  }
}

/// One step under way: the state as it changes, and the effects so far.
private struct Transition {
  typealias Machine = ControllerMachine
  var state: Machine.State
  var effects: [Machine.Effect] = []

  init(state: Machine.State) {
    self.state = state
  }

  // MARK: - Inputs

  mutating func apply(_ input: Machine.Input) {
    switch input {
    case .present(let session, let version, let environment):
      present(session, version: version, environment: environment)
    case .dismiss:
      dismiss()
    case .change(let change):
      guard let consequence = change.apply(&state.settings) else { return }
      state.settingsVersion &+= 1
      follow(consequence)
    case .setMediaTypes(let types):
      setMediaTypes(types)
    case .setCaptureMode(let mode):
      setCaptureMode(mode)
    case .askPhoto(let id, let inFlight):
      askPhoto(id, inFlight: inFlight)
    case .photo(let request):
      beginPhoto(request)
    case .photoNotReserved(let id, let error, let inFlight):
      guard inFlight else { return }
      if state.photos.inFlight == id { state.photos.inFlight = nil }
      effects.append(.fail(error))
    case .askRecording:
      reply(recordingRefusal().map(Machine.Reply.refused) ?? .accepted)
    case .startRecording(let request):
      startRecording(request)
    case .stopRecording(let id):
      guard let recording = state.recording, id.map({ $0 == recording.request.id }) ?? true else {
        if id == nil { ignored("stopVideoCapture()", because: "no movie is being recorded") }
        return
      }
      finishRecording(reason: .requested)
    case .setPaused(let paused):
      setPaused(paused)
    case .whenRunning(let waiter):
      if state.phase.running != nil { return effects.append(.resumeReady([waiter], .success(()))) }
      guard state.isPresented else { return effects.append(.resumeReady([waiter], .failure(.notPresented))) }
      state.waiters.ready.append(waiter)
    case .whenStopped(let waiter):
      state.waiters.stopped.append(waiter)
    case .whenDismissed(let id, let waiter):
      state.waiters.dismissal[id] = waiter
    case .cancelDismissalWait(let id):
      guard let waiter = state.waiters.dismissal.removeValue(forKey: id) else { return }
      effects.append(.afterCallbacks([waiter]))
    case .cancel:
      cancel()
    case .startStreaming(let stream, let waiter):
      startStreaming(stream, waiter: waiter)
    case .stopStreaming(let target):
      let ending = state.streams.filter { target == nil || $0.target == target }
      state.streams.removeAll { target == nil || $0.target == target }
      ending.forEach { end($0) }
    case .openLibrary:
      guard !state.showsLibrary else { return reply(.ignored) }
      state.showsLibrary = true
    case .libraryClosed:
      state.showsLibrary = false
    case .navigation(let event, let size):
      navigate(event, size: size)
    case .bus(let session, let message):
      handle(message, from: session)
    case .built(let result, let version):
      built(result, version: version)
    case .playingRequested(let id, let result):
      guard case .starting(let session, _, let afterStall) = state.phase, session.id == id, result == .failure else {
        return
      }
      state.phase = .starting(session, refused: true, afterStall: afterStall)
      effects += [.cancelTimer(.start(session: id)), .schedule(.refusal(session: id), after: 1)]
    case .stopped(let id):
      stopped(id)
    case .previewStarted(let id, let instant):
      guard state.phase.session?.id == id else { return }
      effects.append(.publish(.previewStarted(at: instant)))
    case .controlsApplied(let id, let applied, let failed):
      guard state.phase.session?.id == id, !applied.isEmpty || !failed.isEmpty else { return }
      effects.append(.publish(.cameraControlsApplied(applied: applied, failed: failed)))
    case .watchdog(let id, let now, let aliveAt):
      checkFrames(of: id, now: now, aliveAt: aliveAt)
    case .deviceChanged(let change):
      deviceChanged(change)
    case .timer(let timer, let moment):
      timerFired(timer, at: moment)
    case .torchLit(let id):
      state.torchLitOn = id
    case .photoTaken(let request, let result, let frame):
      photoFinished(request, result, counted: true, frame: frame)
    case .photoHandedOver(let id):
      if state.photos.inFlight == id { state.photos.inFlight = nil }
    case .recordingBuilt(let id, let result):
      recordingBuilt(id, result)
    case .recordingAttached(let id, let result):
      recordingAttached(id, result)
    case .recording(let id, let event):
      recordingEvent(event, of: id)
    case .endOfStreamSent(let id, let instant):
      guard let index = endingIndex(id),
        case .draining(let branch, nil, let audioEnded) = state.endingRecordings[index].stage
      else { return }
      state.endingRecordings[index].stage = .draining(branch, since: instant, audioEnded: audioEnded)
      effects.append(.schedule(.drain(recording: id), after: state.settings.drainStallTimeout))
    case .drainChecked(let id, let lastProgress, let liveAudio, let now):
      checkDrain(id, lastProgress: lastProgress, liveAudio: liveAudio, now: now)
    case .thumbnailMade(let id, let image):
      thumbnailMade(id, image)
    case .recordingRemoved(let id):
      guard let index = endingIndex(id) else { return }
      let ending = state.endingRecordings.remove(at: index)
      if ending.onStreamEncoder { releaseStreamEncoder(.movie) }
      continueStopping()
    case .streamAttached(let number, let name, let result, let moment):
      streamAttached(number, name: name, result, at: moment)
    case .streamFlowing(let number, let name, let moment):
      guard let index = streamIndex(number, attempt: name) else { return }
      state.streams[index].attempt?.flowed = true
      if state.streams[index].attempt?.attached == true, state.streams[index].target.reconnects {
        announce(index, at: moment)
      }
    case .streamEncoderFailed(let encoding):
      state.streamEncoders.remove(encoding)
    }
  }

  // MARK: - Presenting and dismissing

  private mutating func present(_ session: Machine.Session, version: UInt64, environment: [String: String]) {
    guard !state.isPresented, version == state.settingsVersion else {
      effects.append(.discardSession(session.id))
      return reply(state.isPresented ? .ignored : .outdated)
    }
    state.environment = environment
    state.isPresented = true
    startSession(session)
  }

  private mutating func dismiss() {
    if state.showsLibrary {
      state.showsLibrary = false
      effects.append(.closeLibraryWindow)
    }
    guard state.isPresented else { return }
    state.isPresented = false
    stopSession(then: .nothing)
  }

  /// The user's cancel: a photo on the review screen is discarded; the camera stays presented.
  private mutating func cancel() {
    endReview(using: false)
    effects += [.publish(.cancelled), .delegateCancelled]
  }

  /// Whether the camera is presented, or still stopping, or the library window is open.
  private var isShowingSomething: Bool {
    if state.isPresented || state.showsLibrary { return true }
    if case .idle = state.phase { return false }
    return true
  }

  private mutating func resolveReadyWaiters(_ result: Result<Void, HVTCameraError>) {
    guard !state.waiters.ready.isEmpty else { return }
    effects.append(.resumeReady(state.waiters.ready, result))
    state.waiters.ready = []
  }

  // MARK: - Settings

  private mutating func follow(_ consequence: Machine.SettingsChange.Consequence) {
    switch consequence {
    case .none:
      break
    case .restart:
      guard state.isPresented else { return }
      stopSession(then: .rebuild(afterStall: nil))
    case .preview(let rebuilding):
      guard state.isPresented else { return }
      updatePreview(rebuilding: rebuilding, announcing: true)
    case .controls:
      refreshControls()
    }
  }

  private mutating func setMediaTypes(_ types: [HVTMediaType]) {
    state.settings.mediaTypes = types
    if !types.contains(.image) { state.settings.cameraCaptureMode = .video }
    if !types.contains(.movie) {
      state.settings.cameraCaptureMode = .photo
      finishRecording(reason: .cameraStopped)
    }
    state.settingsVersion &+= 1
    refreshControls()
  }

  /// A mode whose media type is not enabled is refused, and reported.
  private mutating func setCaptureMode(_ mode: HVTCameraController.CameraCaptureMode) {
    let needed: HVTMediaType = mode == .video ? .movie : .image
    guard state.settings.mediaTypes.contains(needed) else { return effects.append(.fail(.mediaTypeNotEnabled(needed))) }
    if state.settings.cameraCaptureMode != mode {
      state.settings.cameraCaptureMode = mode
      state.settingsVersion &+= 1
    }
    if mode == .photo { finishRecording(reason: .cameraStopped) }
    refreshControls()
  }

  // MARK: - The session's life

  /// Starts `session`, or, while the previous one is stopping, starts it once that one has stopped.
  private mutating func startSession(_ session: Machine.Session, afterStall: Double? = nil) {
    switch state.phase {
    case .idle, .building:
      break
    case .stopping(let current, let then):
      state.phase = .stopping(current, then: supersede(then, with: session))
      return
    case .closing(let current, let then):
      state.phase = .closing(current, then: supersede(then, with: session))
      return
    case .starting(let current, _, _), .running(let current, _):
      if current.id != session.id { effects.append(.discardSession(session.id)) }
      return
    }
    state.phase = .starting(session, refused: false, afterStall: afterStall)
    state.pipelinePath = session.path
    effects += [.startSession(session), .schedule(.start(session: session.id), after: state.settings.startTimeout)]
  }

  /// `then`, replaced by starting `session`: a session that was to start instead is discarded.
  private mutating func supersede(_ then: Machine.AfterStop, with session: Machine.Session) -> Machine.AfterStop {
    if case .start(let superseded) = then, superseded.id != session.id {
      effects.append(.discardSession(superseded.id))
    }
    return .start(session)
  }

  /// The pipeline reached PLAYING: frames flow, and what waited for them goes ahead.
  private mutating func sessionRunning(_ session: Machine.Session, afterStall: Double?) {
    state.phase = .running(session, stall: afterStall.map { .reopened(stalledFor: $0) } ?? .flowing)
    effects += [
      .cancelTimer(.start(session: session.id)), .cancelTimer(.refusal(session: session.id)),
      .log(.info, "camera started: \(session.configuration)", session: session.id),
      .watchFrames(session.id, interval: session.frameInterval),
    ]
    if session.hasPreRoll { effects.append(.startPreRollSound(session.id)) }
    effects.append(.publish(.configured(session.configuration)))
    announceReadiness()
    resolveReadyWaiters(.success(()))
    if session.isRealCamera { effects.append(.watchDevices(session)) }
    for index in state.endingRecordings.indices {
      if case .awaitingCamera = state.endingRecordings[index].stage { beginEnding(at: index, on: session) }
    }
    if case .awaitingCamera = state.recording?.stage { beginRecording(on: session) }
    let awaiting = state.photos.awaitingCamera
    state.photos.awaitingCamera = []
    awaiting.forEach { beginPhoto($0) }
    attachStreams(to: session)
  }

  /// The camera did not start: reports why and stops what was built.
  private mutating func failStart(_ error: HVTCameraError) {
    effects += [.log(.warning, "the camera did not start: \(error)", session: nil), .dumpGraph("error"), .fail(error)]
    resolveReadyWaiters(.failure(error))
    state.isPresented = false
    stopSession(then: .nothing)
  }

  /// Stops the current session: finalizes its recordings, lets its photos finish, then sets the pipeline
  /// to NULL off the queue; `next` says what follows.
  private mutating func stopSession(then next: Machine.AfterStop) {
    let ends = if case .nothing = next { true } else { false }
    switch state.phase {
    case .idle, .building:
      // A session being built is discarded when it arrives.
      state.phase = .idle
      if ends { abandonWaitingRequests() }
      finishRecording(reason: .cameraStopped)
      return perform(next)
    case .stopping(let session, let then):
      if case .start(let superseded) = then { effects.append(.discardSession(superseded.id)) }
      state.phase = .stopping(session, then: next)
    case .closing(let session, let then):
      if case .start(let superseded) = then { effects.append(.discardSession(superseded.id)) }
      state.phase = .closing(session, then: next)
    case .starting(let session, _, _), .running(let session, _):
      state.phase = .stopping(session, then: next)
      effects += [
        .cancelTimer(.start(session: session.id)), .cancelTimer(.refusal(session: session.id)), .stopWatchingFrames,
        .stopWatchingDevices,
      ]
      if ends { abandonWaitingRequests() }
      endReview(using: false)
      detachStreams(ending: ends)
      finishRecording(reason: .cameraStopped)
      // Photos waiting for a frame that will not come are answered now.
      effects.append(.cancelFrameWaiters(session.id))
      return continueStopping()
    }
    if ends { abandonWaitingRequests() }
  }

  /// Once nothing records on the stopping session and no photo is in progress, stops its pipeline.
  private mutating func continueStopping() {
    guard case .stopping(let session, let then) = state.phase, state.recording?.branchSession == nil,
      state.endingRecordings.allSatisfy({ $0.branchSession == nil }), state.photos.inProgress == 0
    else { return }
    state.phase = .closing(session.id, then: then)
    effects.append(.stopSession(session.id))
  }

  /// The pipeline reached NULL: what was to follow follows.
  private mutating func stopped(_ id: UInt64) {
    guard case .closing(let session, let then) = state.phase, session == id else { return }
    state.phase = .idle
    // A pipeline flushes its bus on the way to NULL, so GStreamer never posts this last change.
    effects.append(.publish(.stateChanged(from: .ready, to: .null)))
    perform(then)
  }

  /// What follows a stop.
  private mutating func perform(_ next: Machine.AfterStop) {
    switch next {
    case .nothing:
      break
    case .start(let session):
      startSession(session)
    case .rebuild(let afterStall):
      guard state.isPresented else { return resolveReadyWaiters(.failure(.notPresented)) }
      state.phase = .building(version: state.settingsVersion, afterStall: afterStall)
      effects.append(
        .buildSession(state.settings, version: state.settingsVersion, environment: state.environment))
    }
  }

  /// A session for changed settings was built, or could not be.
  private mutating func built(_ result: Result<Machine.Session, HVTCameraError>, version: UInt64) {
    guard case .building(let building, let afterStall) = state.phase, building == version, state.isPresented else {
      if case .success(let session) = result { effects.append(.discardSession(session.id)) }
      return
    }
    state.phase = .idle
    switch result {
    case .success(let session):
      // Settings that changed while it was built make it stale: it is built again.
      guard version == state.settingsVersion else {
        effects.append(.discardSession(session.id))
        return perform(.rebuild(afterStall: afterStall))
      }
      startSession(session, afterStall: afterStall)
    case .failure(let error):
      effects.append(.fail(error))
      resolveReadyWaiters(.failure(error))
      state.isPresented = false
      abandonWaitingRequests()
    }
  }

  /// Answers what waits for a camera that will not run: `present()` callers, a recording and photos
  /// asked for while it was starting.
  private mutating func abandonWaitingRequests() {
    resolveReadyWaiters(.failure(.notPresented))
    let awaiting = state.photos.awaitingCamera
    state.photos.awaitingCamera = []
    for request in awaiting {
      effects.append(.discard(request.file))
      photoFinished(request, .failure(.notPresented), counted: false)
    }
    var requests: [Machine.RecordingRequest] = []
    if let recording = state.recording, case .awaitingCamera = recording.stage {
      state.recording = nil
      requests.append(recording.request)
    }
    state.endingRecordings.removeAll { ending in
      guard case .awaitingCamera = ending.stage else { return false }
      requests.append(ending.request)
      return true
    }
    for request in requests {
      effects += [
        .discard(request.file),
        .deliver(.failure(.recordingEmpty(path: request.file.final.path)), to: request.destination, handingOver: nil),
      ]
    }
  }

  private mutating func timerFired(_ timer: Machine.TimerID, at moment: Machine.Moment) {
    switch timer {
    case .start(let id):
      guard case .starting(let session, _, _) = state.phase, session.id == id else { return }
      failStart(.startTimedOut(seconds: state.settings.startTimeout))
    case .refusal(let id):
      guard case .starting(let session, _, _) = state.phase, session.id == id else { return }
      failStart(.pipelineSetupFailed(.stateChangeFailed(element: session.path, target: .playing)))
    case .frames(let id):
      guard let index = endingIndex(id), case .waitingForFrames = state.endingRecordings[index].stage else { return }
      sendEndOfStream(at: index)
    case .drain:
      // The interpreter reads the drain's progress first (``ControllerMachine/Input/drainChecked(id:lastProgress:liveAudio:at:)``).
      break
    case .streamDeadline(let number, let name):
      guard let index = streamIndex(number, attempt: name) else { return }
      let seconds = Int(HVTStreamTarget.startTimeout)
      let target = state.streams[index].target.description
      streamFailed(index, .streamFailed(target: target, reason: "nothing reached it within \(seconds) s"), at: moment)
    case .streamRetry(let number):
      guard let index = state.streams.firstIndex(where: { $0.number == number }) else { return }
      state.streams[index].retryScheduled = false
      guard let session = state.phase.running else { return }
      attach(index, to: session)
    }
  }

  // MARK: - The bus

  private mutating func handle(_ message: Machine.Bus, from id: UInt64) {
    let current = state.phase.session?.id == id
    switch message {
    case .stateChanged(let source, let old, let new) where source == state.pipelinePath:
      effects.append(.dumpGraph("\(old)_\(new)"))
      // First the running camera's facts (configuration, readiness), so that whoever sees PLAYING sees them.
      if current, new == .playing, case .starting(let session, _, let afterStall) = state.phase {
        sessionRunning(session, afterStall: afterStall)
      }
      if let from = HVTPipelineState(old), let to = HVTPipelineState(new) {
        effects.append(.publish(.stateChanged(from: from, to: to)))
      }
    case .error(let report, let origin, let vanished, let moment) where current:
      handleError(report, origin: origin, vanished: vanished, at: moment)
    case .warning(let report) where current:
      effects.append(.publish(.warning(HVTGStreamerMessage(report))))
    case .info(let report) where current:
      effects.append(.publish(.info(HVTGStreamerMessage(report))))
    case .endOfStream where current:
      effects.append(.publish(.endOfStream))
    default:
      break
    }
  }

  /// An element failed. A failure inside a stream's branch ends that stream (or has it tried again) and
  /// touches nothing else; one from a branch already taken out is only logged. A failure of a recording's
  /// microphone costs the movie its sound; one inside a recording branch ends that recording (what
  /// reached the file is kept) and leaves the camera running. A failure while starting means the camera
  /// did not start; any other means the camera stopped: the recording is finalized and delivered, and the
  /// pipeline stopped. Errors that follow while it stops are logged.
  private mutating func handleError(
    _ report: MessageReport, origin: Machine.ErrorOrigin, vanished: HVTCameraController.DeviceChange?,
    at moment: Machine.Moment
  ) {
    // A stream's sink may quote its URL.
    let said = HVTStreamTarget.masking(report.message, secrets: state.streamSecrets)
    effects.append(.log(.warning, "error from \(report.source): \(said)", session: nil))
    let error = HVTCameraError.gstreamer(HVTGStreamerMessage(report))
    if let session = state.phase.session, origin == .preRollMicrophone {
      let reason = "the pre-roll's microphone failed: \(HVTCameraController.cause(of: error))"
      return effects += [
        .publish(.audioUnavailable(reason: reason)),
        .stopPreRollSound(session.id, recording: state.recording?.branch == nil ? nil : state.recording?.request.id),
      ]
    }
    if state.phase.session != nil, let index = stream(containing: report.source) {
      return streamFailed(index, error, at: moment)
    }
    if StreamBranch.isInside(report.source) {
      // A stream's branch already taken out (it failed, or was stopped): its failure was handled.
      return effects.append(.log(.info, "error from a stream branch taken out, ignored: \(said)", session: nil))
    }
    switch origin {
    case .microphone(let id) where hasBranch(id):
      return effects.append(.microphoneFailed(id, error))
    case .recording(let id) where hasBranch(id):
      return recordingFailed(id, error)
    case .preRollMicrophone, .microphone, .recording, .pipeline:
      break
    }
    switch state.phase {
    case .starting:
      failStart(error)
    case .running(let session, _):
      if let vanished { return deviceChanged(vanished) }
      effects += [.dumpGraph("error"), .fail(error)]
      // A recording stopped on request that still waits for its second frame will not get it: it too was
      // cut short.
      for index in state.endingRecordings.indices where state.endingRecordings[index].interruption == nil {
        if case .waitingForFrames = state.endingRecordings[index].stage {
          state.endingRecordings[index].interruption = error
        }
      }
      cameraLost(session, error)
    case .idle, .building, .stopping, .closing:
      // The camera is stopping, after a failure or on request: what fails now (a source's "internal data
      // stream error" behind the element that failed first) is a consequence, already reported.
      effects.append(.log(.info, "while stopping: \(said) (\(report.source))", session: nil))
    }
  }

  /// The camera stopped working (`error`, already reported): the recording is finalized and delivered, and
  /// the camera dismissed.
  private mutating func cameraLost(_ session: Machine.Session, _ error: HVTCameraError) {
    finishRecording(reason: .error, interruption: error)
    state.isPresented = false
    stopSession(then: .nothing)
  }

  /// Reports a camera coming or going; when the camera in use goes, finalizes and delivers a recording,
  /// reports ``HVTCameraError/cameraDisconnected(name:path:)`` and stops the camera.
  private mutating func deviceChanged(_ change: HVTCameraController.DeviceChange) {
    switch change {
    case .connected(let name, let path, let serial):
      effects += [
        .log(.info, "camera connected: \(name) \(path ?? "") \(serial.map { "serial \($0)" } ?? "")", session: nil),
        .publish(.cameraConnected(name: name, path: path)),
      ]
    case .disconnected(let name, let path, let serial):
      effects += [
        .log(.info, "camera disconnected: \(name) \(path ?? "") \(serial.map { "serial \($0)" } ?? "")", session: nil),
        .publish(.cameraDisconnected(name: name, path: path)),
      ]
      guard let session = state.phase.session, session.identity.matches(name: name, path: path, serial: serial)
      else { return }
      let error = HVTCameraError.cameraDisconnected(name: name, path: path)
      effects.append(.fail(error))
      cameraLost(session, error)
    }
  }

  // MARK: - The frame watchdog

  /// One check: announces a stall after four frame intervals (at least half a second: a loaded machine
  /// delays frames that much) without a frame, the recovery when frames flow again, and gives the camera
  /// up after ``HVTCameraController/cameraStallTimeout``; all on the watchdog's clock.
  private mutating func checkFrames(of id: UInt64, now: Double, aliveAt: Double) {
    guard case .running(let session, let stall) = state.phase, session.id == id else { return }
    let silence = now - aliveAt
    let stalled = silence >= max(4 * session.frameInterval, 0.5)
    let timeout = state.settings.cameraStallTimeout
    switch stall {
    case .flowing:
      guard stalled else { return }
      state.phase = .running(session, stall: .stalled(since: aliveAt))
      effects += [
        .log(.warning, "no frame for \(silence) s", session: id), .publish(.cameraStalled(seconds: silence)),
      ]
    case .stalled(let since):
      guard stalled else {
        state.phase = .running(session, stall: .flowing)
        return effects.append(.publish(.cameraRecovered(after: now - since)))
      }
      if now - since >= timeout { giveUpStalledCamera(session, stalledFor: now - since, reopened: false) }
    case .reopened(let before):
      // A reopened camera has the whole timeout again, from its start (its clock's zero).
      guard stalled else {
        state.phase = .running(session, stall: .flowing)
        return effects.append(.publish(.cameraRecovered(after: before + now)))
      }
      if now >= timeout { giveUpStalledCamera(session, stalledFor: now, reopened: true) }
    }
  }

  /// The camera delivered nothing for ``HVTCameraController/cameraStallTimeout``: the recording is
  /// finalized and delivered, the error reported, and the camera reopened — once; stalled again, it is
  /// stopped.
  private mutating func giveUpStalledCamera(_ session: Machine.Session, stalledFor seconds: Double, reopened: Bool) {
    let error = HVTCameraError.cameraStalled(name: session.configuration.deviceName, seconds: seconds)
    effects.append(.fail(error))
    guard !reopened else { return cameraLost(session, error) }
    finishRecording(reason: .error, interruption: error)
    effects.append(.log(.warning, "reopening the camera after \(seconds) s without a frame", session: session.id))
    stopSession(then: .rebuild(afterStall: seconds))
  }

  // MARK: - What every step ends with

  /// Ends a step: announces a change of the readiness, and answers the waits whose time has come.
  mutating func conclude() {
    announceReadiness()
    if case .idle = state.phase, !state.waiters.stopped.isEmpty {
      effects.append(.afterCallbacks(state.waiters.stopped))
      state.waiters.stopped = []
    }
    if !isShowingSomething, !state.waiters.dismissal.isEmpty {
      effects.append(.afterCallbacks(Array(state.waiters.dismissal.values)))
      state.waiters.dismissal = [:]
    }
  }

  // MARK: - Readiness and the preview

  /// Announces a change of ``HVTCameraController/isReadyForCapture``.
  private mutating func announceReadiness() {
    let ready = state.isReadyForCapture
    guard ready != state.announcedReadiness else { return }
    state.announcedReadiness = ready
    effects.append(.publish(.readyForCapture(ready)))
  }

  /// The preview as it should look now: the settings, with the record button's time and the review.
  private var currentPreview: HVTPipelineModel.PreviewSettings {
    var preview = state.settings.preview(environment: state.environment)
    preview.controls?.recording = state.recordingElapsed.map { ($0, state.settings.videoMaximumDuration) }
    preview.controls?.paused = state.recording?.paused ?? false
    if let review = state.review {
      preview.controls?.review = CameraControls.Review(crop: review.crop)
      preview.reviewing = true
    }
    return preview
  }

  /// Brings the running preview's controls up to date.
  private mutating func refreshControls() {
    guard state.settings.showsCameraControls, state.settings.shownPreview(environment: state.environment).hasWindow
    else { return }
    updatePreview(rebuilding: false, announcing: false)
  }

  /// Changes the starting or running session's preview to the current settings and state.
  private mutating func updatePreview(rebuilding: Bool, announcing: Bool) {
    let session: Machine.Session
    switch state.phase {
    case .starting(let starting, _, _): session = starting
    case .running(let running, _): session = running
    case .idle, .building, .stopping, .closing: return
    }
    effects.append(
      .updatePreview(
        session.id,
        .init(
          preview: currentPreview, preset: state.settings.preset, rectangle: state.settings.previewRectangle,
          rebuilding: rebuilding, announcing: announcing)))
  }

  // MARK: - Photos

  /// Whether photo `id` may be taken: the camera is presented, takes photos, and — for a `takePicture()`
  /// photo — none is in flight (which it becomes).
  private mutating func askPhoto(_ id: UInt64, inFlight: Bool) {
    let refusal: HVTCameraError?
    if !state.isPresented {
      refusal = .notPresented
    } else if inFlight, state.photos.inFlight != nil {
      ignored("takePicture()", because: "a photo is in flight until the delegate receives it")
      return reply(.ignored)
    } else if !state.settings.mediaTypes.contains(.image) {
      refusal = .mediaTypeNotEnabled(.image)
    } else {
      refusal = nil
    }
    if let refusal {
      // A `takePicture()` reports to the delegate; an `async` capture throws.
      if inFlight { effects.append(.fail(refusal)) }
      return reply(.refused(refusal))
    }
    if inFlight { state.photos.inFlight = id }
    reply(.accepted)
  }

  /// Starts a photo: on the camera of its moment if that still runs, else — while the camera (re)starts —
  /// on the next camera's first frame.
  private mutating func beginPhoto(_ request: Machine.PhotoRequest) {
    guard state.isPresented else {
      effects.append(.discard(request.file))
      return photoFinished(request, .failure(.notPresented), counted: false)
    }
    guard let session = state.phase.running else { return state.photos.awaitingCamera.append(request) }
    state.photos.inProgress += 1
    effects.append(.takePhoto(request, on: session.id))
  }

  /// Hands the photo over — to the review screen first with the default controls on a window, edited
  /// with ``HVTCameraController/allowsEditing`` —; a `takePicture()` photo stays in flight until the
  /// delegate receives it.
  private mutating func photoFinished(
    _ request: Machine.PhotoRequest, _ result: Result<HVTCapture, HVTCameraError>, counted: Bool,
    frame: FrameTap.Frame? = nil
  ) {
    if counted { state.photos.inProgress -= 1 }
    let handingOver = request.isInFlight ? request.id : nil
    switch result {
    case .success(let capture) where reviewsPhoto(for: request.destination):
      beginReview(capture, frame: frame, destination: request.destination, handingOver: handingOver)
    case .success(let capture):
      deliverPhoto(capture, frame: frame, to: request.destination, crop: nil, handingOver: handingOver)
    case .failure:
      effects.append(.deliver(result, to: request.destination, handingOver: handingOver))
    }
    continueStopping()
  }

  /// Delivers a photo; with ``HVTCameraController/allowsEditing``, with its edited image of `crop`, or of
  /// ``HVTCameraController/editingCropRect`` made square.
  private mutating func deliverPhoto(
    _ capture: HVTCapture, frame: FrameTap.Frame?, to destination: Machine.Destination, crop: HVTRect?,
    handingOver: UInt64?
  ) {
    guard state.settings.allowsEditing, let image = capture.image else {
      return effects.append(.deliver(.success(capture), to: destination, handingOver: handingOver))
    }
    let square = crop ?? EditedPhoto.square(state.settings.editingCropRect, width: image.width, height: image.height)
    effects.append(.deliverEdited(capture, frame: frame, crop: square, to: destination, handingOver: handingOver))
  }

  // MARK: - The review screen

  /// Whether a finished photo goes to the review screen: a `takePicture()` photo with the default
  /// controls on a window or embedded preview.
  private func reviewsPhoto(for destination: Machine.Destination) -> Bool {
    guard case .delegate = destination, state.phase.running != nil else { return false }
    return state.settings.showsCameraControls && state.settings.shownPreview(environment: state.environment).hasWindow
  }

  /// Shows `capture` for review: its frame held still on the preview, the review's buttons, and the crop
  /// box with editing.
  private mutating func beginReview(
    _ capture: HVTCapture, frame: FrameTap.Frame?, destination: Machine.Destination, handingOver: UInt64?
  ) {
    endReview(using: false)
    let settings = state.settings
    let mirrored = settings.mirrorsFrontPreview && capture.metadata.configuration.device == .front
    let crop = capture.image.map { image in
      let square = EditedPhoto.square(settings.editingCropRect, width: image.width, height: image.height)
      return mirrored ? square.mirrored(within: image.width) : square
    }
    state.review = Machine.Review(
      capture: capture, frame: frame, destination: destination, handingOver: handingOver,
      crop: settings.allowsEditing ? crop : nil, mirrored: mirrored)
    if let session = state.phase.session { effects.append(.showStillFrame(session.id, frame)) }
    refreshControls()
    effects.append(.publish(.reviewStarted(url: capture.url)))
  }

  /// Closes the review screen, if one is open: `using` delivers the photo (edited, with editing),
  /// otherwise its file is removed and it stops being in flight. The live preview comes back.
  private mutating func endReview(using: Bool) {
    guard let review = state.review else { return }
    state.review = nil
    state.cropDrag = nil
    if let session = state.phase.session { effects.append(.showStillFrame(session.id, nil)) }
    refreshControls()
    effects.append(.publish(.reviewEnded(used: using)))
    guard using else {
      effects.append(.removeFile(review.capture.url))
      if let id = review.handingOver, state.photos.inFlight == id { state.photos.inFlight = nil }
      return
    }
    deliverPhoto(
      review.capture, frame: review.frame, to: review.destination, crop: review.photoCrop,
      handingOver: review.handingOver)
  }

  /// A key or mouse action in the preview's window: the default controls act on it, or, without them,
  /// the app receives it.
  private mutating func navigate(_ event: NavigationEvent, size: HVTFrameSize) {
    guard state.phase.running != nil else { return }
    guard state.settings.showsCameraControls else { return effects.append(.publish(.navigation(event))) }
    guard let look = currentPreview.controls else { return }
    switch event {
    case .keyPress(let key):
      CameraControls.action(key: key, look: look, size: size).map { perform($0) }
    case .mouseButtonPress(1, let x, let y):
      if let crop = state.review?.crop, crop.contains(x: x, y: y) {
        state.cropDrag = Machine.CropDrag(x: x, y: y, crop: crop)
      } else {
        CameraControls.action(clickAt: x, y, size: size, look: look).map { perform($0) }
      }
    case .mouseMove(let x, let y):
      dragCrop(to: x, y)
    case .mouseButtonRelease(1, let x, let y):
      // Sinks may report the pointer's motion before the press (ximagesink coalesces motion first), so the
      // release's place counts too.
      dragCrop(to: x, y)
      state.cropDrag = nil
    case .mouseButtonPress(4, _, _), .scroll(_, _, _, ..<0):
      perform(.scaleCrop(1.1))
    case .mouseButtonPress(5, _, _), .scroll(_, _, _, 0.000_001...):
      perform(.scaleCrop(1 / 1.1))
    default:
      break
    }
  }

  /// Does what a control asks for: the review's own buttons and crop box here, the rest through the
  /// public API.
  private mutating func perform(_ action: CameraControls.Action) {
    switch action {
    case .cancel:
      cancel()
    case .retake:
      endReview(using: false)
    case .use:
      endReview(using: true)
    case .moveCrop(let dx, let dy):
      guard let crop = state.review?.crop else { return }
      moveCrop(to: HVTRect(x: crop.x + dx, y: crop.y + dy, width: crop.width, height: crop.height))
    case .scaleCrop(let factor):
      guard let crop = state.review?.crop else { return }
      let side = Int((Double(crop.width) * factor).rounded())
      moveCrop(
        to: HVTRect(
          x: crop.x + (crop.width - side) / 2, y: crop.y + (crop.height - side) / 2, width: side, height: side))
    case .shutter, .pauseOrResume, .flash, .switchCamera, .switchMode:
      effects.append(.perform(action))
    }
  }

  /// Moves the crop box being dragged by the pointer's way from where the button went down.
  private mutating func dragCrop(to x: Double, _ y: Double) {
    guard let drag = state.cropDrag else { return }
    moveCrop(
      to: HVTRect(
        x: drag.crop.x + Int((x - drag.x).rounded()), y: drag.crop.y + Int((y - drag.y).rounded()),
        width: drag.crop.width, height: drag.crop.height))
  }

  /// Puts the review's crop box at `rect`, made square and kept inside the photo.
  private mutating func moveCrop(to rect: HVTRect) {
    guard let review = state.review, let image = review.capture.image else { return }
    state.review?.crop = EditedPhoto.square(rect, width: image.width, height: image.height)
    refreshControls()
  }

  // MARK: - Recordings

  /// Why a recording cannot start now, if it cannot.
  private func recordingRefusal() -> HVTCameraError? {
    if !state.isPresented { return .notPresented }
    if !state.settings.mediaTypes.contains(.movie) { return .mediaTypeNotEnabled(.movie) }
    if state.settings.cameraCaptureMode != .video { return .wrongCaptureMode(.video) }
    if state.recording != nil { return .recordingInProgress }
    return nil
  }

  /// A recording whose file is reserved: it starts now, or when the camera runs; refused, its file is
  /// removed.
  private mutating func startRecording(_ request: Machine.RecordingRequest) {
    let refusal: HVTCameraError? =
      !state.isPresented ? .notPresented : state.recording != nil ? .recordingInProgress : nil
    if let refusal {
      effects.append(.discard(request.file))
      return reply(.refused(refusal))
    }
    state.recording = Machine.Recording(request: request, stage: .awaitingCamera)
    if let session = state.phase.running { beginRecording(on: session) }
    reply(.accepted)
  }

  /// The name of a new recording branch: `recording`, unless another recording's branch is in the
  /// pipeline.
  private func branchName(for id: UInt64) -> String {
    let others = state.endingRecordings.contains { $0.branchSession != nil } || state.recording?.branchSession != nil
    return others ? "recording\(id)" : "recording"
  }

  /// Has the interpreter build and attach the current recording's branch on `session`. With a pre-roll the
  /// movie takes its encoded video; else, while streams run, the streams' encoder's: one encoder for the
  /// movie and the streams.
  private mutating func beginRecording(on session: Machine.Session) {
    guard let recording = state.recording else { return }
    let onStreams = !session.hasPreRoll && session.recordsOnStreams && state.streamEncoders.contains(.movie)
    let name = branchName(for: recording.request.id)
    state.recording?.onStreamEncoder = onStreams
    state.recording?.stage = .attaching(session: session.id, branch: nil)
    effects.append(
      .attachRecording(
        recording.request, on: session.id, name: name, paused: recording.paused, onStreamEncoder: onStreams))
  }

  /// Has the interpreter build and attach the branch of a recording stopped before the camera ran.
  private mutating func beginEnding(at index: Int, on session: Machine.Session) {
    let ending = state.endingRecordings[index]
    let onStreams = !session.hasPreRoll && session.recordsOnStreams && state.streamEncoders.contains(.movie)
    let name = branchName(for: ending.request.id)
    state.endingRecordings[index].onStreamEncoder = onStreams
    state.endingRecordings[index].stage = .attaching(session: session.id, branch: nil)
    effects.append(
      .attachRecording(ending.request, on: session.id, name: name, paused: false, onStreamEncoder: onStreams))
  }

  private mutating func setPaused(_ paused: Bool) {
    guard let recording = state.recording, recording.paused != paused else { return reply(.ignored) }
    state.recording?.paused = paused
    if recording.branchSession != nil { effects.append(.pauseRecording(recording.request.id, paused)) }
    reply(.accepted)
  }

  /// Ends the recording taking frames, if any: it stops and drains (after its first frames). One asked for
  /// while the camera was starting still begins, and stops after its first frames.
  private mutating func finishRecording(reason: HVTRecordingStopReason, interruption: HVTCameraError? = nil) {
    guard let recording = state.recording else { return }
    state.recording = nil
    let wasRecording = state.recordingElapsed != nil
    state.recordingElapsed = nil
    var ending = Machine.EndingRecording(
      request: recording.request, reason: reason, interruption: interruption, stage: .awaitingCamera,
      thumbnail: recording.thumbnail, onStreamEncoder: recording.onStreamEncoder)
    switch recording.stage {
    case .awaitingCamera:
      state.endingRecordings.append(ending)
      return
    case .attaching(let session, let branch):
      ending.stage = .attaching(session: session, branch: branch)
      state.endingRecordings.append(ending)
    case .recording(let branch):
      ending.stage = .waitingForFrames(branch)
      state.endingRecordings.append(ending)
      endWhenReady(at: state.endingRecordings.count - 1)
    }
    turnTorchOff()
    if wasRecording { refreshControls() }
  }

  /// Sends the end of stream into the branch, after its first ``RecordingBranch/minimumFrames`` frames (a
  /// stop right after the start still makes a movie that plays) or two seconds, whichever comes first.
  private mutating func endWhenReady(at index: Int) {
    let ending = state.endingRecordings[index]
    guard let branch = ending.branch else { return }
    guard !branch.hasEnoughFrames, ending.reason != .error else { return sendEndOfStream(at: index) }
    state.endingRecordings[index].stage = .waitingForFrames(branch)
    effects.append(.schedule(.frames(recording: ending.request.id), after: 2))
  }

  /// Unlinks the branch from the tee and sends EOS into it; the drain is then watched for progress.
  private mutating func sendEndOfStream(at index: Int) {
    let ending = state.endingRecordings[index]
    guard let branch = ending.branch else { return }
    guard case .waitingForFrames = ending.stage else { return }
    let id = ending.request.id
    state.endingRecordings[index].stage = .draining(branch, since: nil, audioEnded: false)
    effects += [.cancelTimer(.frames(recording: id)), .sendEndOfStream(id, ending.reason)]
  }

  /// Gives up a drain that has made no progress for ``HVTCameraController/drainStallTimeout``; checks
  /// again when its time comes while it does. A drain that waits for a microphone that stopped has its
  /// sound ended first, and another period.
  private mutating func checkDrain(
    _ id: UInt64, lastProgress: ContinuousClock.Instant?, liveAudio: Bool, now: ContinuousClock.Instant
  ) {
    guard let index = endingIndex(id),
      case .draining(let branch, let since?, let audioEnded) = state.endingRecordings[index].stage
    else { return }
    let stall = state.settings.drainStallTimeout
    let remaining = stall - HVTCameraController.seconds(now - max(lastProgress ?? since, since))
    guard remaining <= 0 else { return effects.append(.schedule(.drain(recording: id), after: remaining)) }
    if liveAudio, !audioEnded {
      // The muxer waits for sound that does not come (a microphone that stopped without an error): the
      // sound ends here, and the drain gets another period to finish the movie.
      state.endingRecordings[index].stage = .draining(branch, since: now, audioEnded: true)
      return effects += [
        .log(.warning, "the recording drain made no progress for \(stall) s: ending its sound", session: nil),
        .endAudio(id), .schedule(.drain(recording: id), after: stall),
      ]
    }
    effects.append(.log(.warning, "the recording drain made no progress for \(stall) s", session: nil))
    giveUp(at: index, .drainStalled(seconds: stall))
  }

  /// An element of the recording branch failed: nothing more reaches the file, which cannot be finalized.
  private mutating func recordingFailed(_ id: UInt64, _ error: HVTCameraError) {
    if state.recording?.request.id == id { finishRecording(reason: .error) }
    guard let index = endingIndex(id), !state.endingRecordings[index].isFinished else { return }
    giveUp(at: index, .failed(error))
  }

  /// Reports a recording that will not be finalized and removes its branch.
  private mutating func giveUp(at index: Int, _ abandonment: Machine.Abandonment) {
    let ending = state.endingRecordings[index]
    guard let branch = ending.branch else { return }
    let id = ending.request.id
    state.endingRecordings[index].stage = .removing(branch)
    effects += [
      .cancelTimer(.frames(recording: id)), .cancelTimer(.drain(recording: id)),
      .abandonRecording(id, abandonment, to: ending.request.destination), .removeRecording(id),
    ]
  }

  private mutating func recordingBuilt(_ id: UInt64, _ result: Result<Machine.Branch, HVTCameraError>) {
    switch result {
    case .success(let branch):
      if let recording = state.recording, recording.request.id == id,
        case .attaching(let session, nil) = recording.stage
      {
        state.recording?.stage = .attaching(session: session, branch: branch)
        if let reason = state.phase.session?.audioUnavailableReason {
          effects.append(.publish(.audioUnavailable(reason: reason)))
        }
        effects.append(.lightTorch(session, state.settings.cameraFlashMode))
      } else if let index = endingIndex(id), case .attaching(let session, nil) = state.endingRecordings[index].stage {
        state.endingRecordings[index].stage = .attaching(session: session, branch: branch)
      }
    case .failure(let error):
      dropUnattached(id, error)
    }
  }

  private mutating func recordingAttached(_ id: UInt64, _ result: Result<Void, HVTCameraError>) {
    switch result {
    case .success:
      if let recording = state.recording, recording.request.id == id, case .attaching(_, let branch?) = recording.stage
      {
        state.recording?.stage = .recording(branch)
        effects.append(
          .log(.info, "recording branch added, writing \(recording.request.file.partial.path)", session: branch.session)
        )
      } else if let index = endingIndex(id), case .attaching(_, let branch?) = state.endingRecordings[index].stage {
        state.endingRecordings[index].stage = .waitingForFrames(branch)
        // A stop that came while the branch was being attached goes ahead now.
        endWhenReady(at: index)
      }
    case .failure(let error):
      dropUnattached(id, error)
    }
  }

  /// A recording whose branch could not be built or attached: its file is removed and the error delivered.
  private mutating func dropUnattached(_ id: UInt64, _ error: HVTCameraError) {
    let request: Machine.RecordingRequest
    let onStreams: Bool
    if let recording = state.recording, recording.request.id == id {
      state.recording = nil
      (request, onStreams) = (recording.request, recording.onStreamEncoder)
      turnTorchOff()
    } else if let index = endingIndex(id), !state.endingRecordings[index].isFinished {
      let ending = state.endingRecordings.remove(at: index)
      (request, onStreams) = (ending.request, ending.onStreamEncoder)
    } else {
      return
    }
    effects += [
      .forgetRecording(id), .discard(request.file),
      .deliver(.failure(error), to: request.destination, handingOver: nil),
    ]
    if onStreams { releaseStreamEncoder(.movie) }
    continueStopping()
  }

  private mutating func recordingEvent(_ event: RecordingBranch.Event, of id: UInt64) {
    let current = state.recording?.request.id == id
    guard let request = current ? state.recording?.request : endingIndex(id).map({ state.endingRecordings[$0].request })
    else { return }
    switch event {
    case .started:
      effects.append(.publish(.recordingStarted(url: request.file.partial)))
      if current {
        state.recordingElapsed = 0
        refreshControls()
      }
      startThumbnail(of: id, fromFile: false)
    case .enoughFrames:
      markEnoughFrames(id)
    case .progress(let elapsed):
      guard current else { return }
      state.recordingElapsed = elapsed
      effects.append(.publish(.recordingProgress(elapsed: elapsed, limit: request.limit)))
      refreshControls()
    case .limitReached:
      effects.append(.log(.info, "maximum duration \(request.limit) s reached", session: nil))
      markEnoughFrames(id)
      if current { finishRecording(reason: .maximumDurationReached) }
    case .audioUnavailable(let reason):
      effects.append(.publish(.audioUnavailable(reason: reason)))
    case .paused(let elapsed):
      effects.append(.publish(.recordingPaused(elapsed: elapsed)))
      refreshControls()
    case .resumed(let elapsed, let pausedFor):
      effects.append(.publish(.recordingResumed(elapsed: elapsed, pausedFor: pausedFor)))
      refreshControls()
    case .drained:
      // An end of stream that came from upstream ends the recording taking frames too.
      if current { finishRecording(reason: .cameraStopped) }
      guard let index = endingIndex(id), !state.endingRecordings[index].isFinished,
        let branch = state.endingRecordings[index].branch
      else { return }
      // A recording given up (its branch failed, its drain stalled) stays given up.
      state.endingRecordings[index].stage = .completing(branch)
      effects += [.cancelTimer(.frames(recording: id)), .cancelTimer(.drain(recording: id))]
      if branch.takesEncodedVideo, case .none = state.endingRecordings[index].thumbnail {
        startThumbnail(of: id, fromFile: true)
      }
      deliverWhenThumbnailMade(at: index)
    }
  }

  /// The branch holds enough frames for a stop to make a movie that plays (the report may come before the
  /// worker's that it is attached); one waiting for them ends now.
  private mutating func markEnoughFrames(_ id: UInt64) {
    if var recording = state.recording, recording.request.id == id {
      switch recording.stage {
      case .attaching(let session, var branch?):
        branch.hasEnoughFrames = true
        recording.stage = .attaching(session: session, branch: branch)
      case .recording(var branch):
        branch.hasEnoughFrames = true
        recording.stage = .recording(branch)
      case .awaitingCamera, .attaching(_, nil):
        return
      }
      state.recording = recording
    } else if let index = endingIndex(id) {
      switch state.endingRecordings[index].stage {
      case .attaching(let session, var branch?):
        branch.hasEnoughFrames = true
        state.endingRecordings[index].stage = .attaching(session: session, branch: branch)
      case .waitingForFrames(var branch):
        branch.hasEnoughFrames = true
        state.endingRecordings[index].stage = .waitingForFrames(branch)
        sendEndOfStream(at: index)
      case .awaitingCamera, .attaching(_, nil), .draining, .completing, .removing:
        break
      }
    }
  }

  /// Has the thumbnail of recording `id` made: from its first frame (a branch that takes the camera's
  /// frames) or, once complete, from its file.
  private mutating func startThumbnail(of id: UInt64, fromFile: Bool) {
    if state.recording?.request.id == id {
      guard let branch = state.recording?.branch, !branch.takesEncodedVideo || fromFile else { return }
      state.recording?.thumbnail = .making
    } else if let index = endingIndex(id), let branch = state.endingRecordings[index].branch {
      guard !branch.takesEncodedVideo || fromFile else { return }
      state.endingRecordings[index].thumbnail = .making
    } else {
      return
    }
    effects.append(.makeThumbnail(id, fromFile: fromFile))
  }

  private mutating func thumbnailMade(_ id: UInt64, _ image: HVTImage?) {
    if state.recording?.request.id == id {
      state.recording?.thumbnail = .made(image)
    } else if let index = endingIndex(id) {
      state.endingRecordings[index].thumbnail = .made(image)
      deliverWhenThumbnailMade(at: index)
    }
  }

  /// Delivers a complete movie, unless its thumbnail is still being made; then removes its branch.
  private mutating func deliverWhenThumbnailMade(at index: Int) {
    let ending = state.endingRecordings[index]
    guard case .completing(let branch) = ending.stage else { return }
    let thumbnail: HVTImage?
    switch ending.thumbnail {
    case .making: return
    case .none: thumbnail = nil
    case .made(let image): thumbnail = image
    }
    state.endingRecordings[index].stage = .removing(branch)
    effects += [
      .deliverMovie(
        ending.request.id,
        .init(
          reason: ending.reason, interruption: ending.interruption, thumbnail: thumbnail,
          destination: ending.request.destination)),
      .removeRecording(ending.request.id),
    ]
  }

  private mutating func turnTorchOff() {
    guard let lit = state.torchLitOn else { return }
    state.torchLitOn = nil
    if state.phase.session?.id == lit { effects.append(.turnTorchOff(lit)) }
  }

  /// The index of ending recording `id`.
  private func endingIndex(_ id: UInt64) -> Int? {
    state.endingRecordings.firstIndex { $0.request.id == id }
  }

  /// Whether recording `id` (taking frames or ending) has a branch.
  private func hasBranch(_ id: UInt64) -> Bool {
    if let recording = state.recording, recording.request.id == id { return recording.branch != nil }
    return endingIndex(id).map { state.endingRecordings[$0].branch != nil } ?? false
  }

  // MARK: - Streams

  private mutating func startStreaming(
    _ stream: HVTStream, waiter: @escaping @Sendable (Result<String, HVTCameraError>) -> Void
  ) {
    // Checked as hvtcam stream and presets check theirs, with the streams asked for before it.
    let asked = state.streams.map { HVTStream(target: $0.target) }
    if let issue = HVTStream.issues(in: asked + [stream]).last(where: { $0.stream == asked.count }) {
      return reply(.refused(.invalidStreamTarget(target: stream.target.description, reason: issue.reason)))
    }
    state.streamCount += 1
    state.streams.append(Machine.Stream(number: state.streamCount, request: stream, waiter: waiter))
    state.streamSecrets.formUnion(stream.target.secrets)
    if let session = state.phase.running { attach(state.streams.count - 1, to: session) }
    reply(.accepted)
  }

  /// Starts every stream's try in a camera that now runs.
  private mutating func attachStreams(to session: Machine.Session) {
    for index in state.streams.indices where state.streams[index].attempt == nil && !state.streams[index].retryScheduled
    {
      attach(index, to: session)
    }
  }

  /// Starts a try of the stream: its server (once) and its branch; the encoder too, for the first stream
  /// of its encoding (but the movies' with a pre-roll, whose encoder runs). The branch's name is the
  /// stream's from here on, so that no error posted from inside it is missed, and the try fails unless
  /// the stream runs within ``HVTStreamTarget/startTimeout``.
  private mutating func attach(_ index: Int, to session: Machine.Session) {
    state.streams[index].tries += 1
    let stream = state.streams[index]
    let name = "\(StreamBranch.namePrefix)\(stream.number)-\(stream.tries)"
    state.streams[index].attempt = Machine.Stream.Attempt(name: name)
    let use: Machine.StreamEncoderUse
    if !session.needsStreamEncoder(for: stream.encoding) {
      use = .preRoll
    } else if state.streamEncoders.insert(stream.encoding).inserted {
      use = .make
    } else {
      use = .existing
    }
    effects += [
      .schedule(.streamDeadline(stream: stream.number, name: name), after: HVTStreamTarget.startTimeout),
      .attachStream(number: stream.number, name: name, stream.request, on: session.id, encoder: use),
    ]
  }

  /// The try `name` of stream `number` was attached, or failed to be. A try that ended meanwhile (its
  /// error came first, it was stopped, the camera stopped) is taken out.
  private mutating func streamAttached(
    _ number: Int, name: String, _ result: Result<String?, HVTCameraError>, at moment: Machine.Moment
  ) {
    guard let index = streamIndex(number, attempt: name) else {
      if case .success = result { effects.append(.removeStreamBranch(name: name)) }
      return
    }
    switch result {
    case .success(let url):
      state.streams[index].attempt?.attached = true
      if let url { state.streams[index].serverURL = url }
      // A server of the process's own (RTSP, an SRT listener) or a folder runs once started; a push target
      // once its sink took data without failing.
      let stream = state.streams[index]
      if stream.attempt?.flowed == true || !stream.target.reconnects { announce(index, at: moment) }
    case .failure(let error):
      streamFailed(index, error, at: moment)
    }
  }

  /// Says that the stream runs, and answers the caller still waiting for it.
  private mutating func announce(_ index: Int, at moment: Machine.Moment) {
    guard let name = state.streams[index].attempt?.name else { return }
    let number = state.streams[index].number
    let attempts = state.streams[index].retries.back(at: moment.uptime)
    let stream = state.streams[index]
    state.streams[index].waiter = nil
    effects += [
      .cancelTimer(.streamDeadline(stream: number, name: name)),
      .log(.info, "streaming to \(stream.target) (\(stream.url))", session: state.phase.session?.id),
      .publish(
        attempts > 0
          ? .streamReconnected(stream.target, attempts: attempts) : .streamStarted(stream.target, url: stream.url)
      ),
    ]
    if let waiter = stream.waiter { effects.append(.answerStream(waiter, .success(stream.url))) }
  }

  /// The stream's current try failed, or did not start: its branch is taken out; a push target that ran
  /// once is tried again later, anything else ends (and a caller still waiting gets the error).
  private mutating func streamFailed(_ index: Int, _ error: HVTCameraError, at moment: Machine.Moment) {
    let stream = state.streams[index]
    let cause = if case .streamFailed(_, let own) = error { own } else { HVTCameraController.cause(of: error) }
    // GStreamer's message may quote the target's URL.
    let reason = stream.target.masking(cause)
    effects.append(.log(.warning, "the stream to \(stream.target) failed: \(reason)", session: nil))
    endTry(index, removing: true)
    let next =
      stream.target.reconnects && stream.waiter == nil
      ? state.streams[index].retries.lost(at: moment.uptime, jitter: moment.jitter) : nil
    effects.append(.publish(.streamDisconnected(stream.target, reason: reason, retry: next)))
    guard let next else {
      var ended = state.streams.remove(at: index)
      if let waiter = ended.waiter {
        effects.append(
          .answerStream(waiter, .failure(.streamFailed(target: stream.target.description, reason: reason))))
        ended.waiter = nil
      }
      return end(ended, announcing: false)
    }
    state.streams[index].retryScheduled = true
    effects.append(.schedule(.streamRetry(stream: stream.number), after: next.delay))
  }

  /// Ends the current try of stream `index`: its branch is no longer the stream's; an attached one is
  /// removed (`removing`) or left to its stopping pipeline.
  private mutating func endTry(_ index: Int, removing: Bool) {
    guard let attempt = state.streams[index].attempt else { return }
    state.streams[index].attempt = nil
    effects.append(.cancelTimer(.streamDeadline(stream: state.streams[index].number, name: attempt.name)))
    guard attempt.attached else { return }
    effects.append(removing ? .removeStreamBranch(name: attempt.name) : .dropStreamBranch(name: attempt.name))
  }

  /// Ends a stream taken out of the list: its branch and server stop, and the encoder with the last
  /// stream.
  private mutating func end(_ stream: Machine.Stream, announcing: Bool = true) {
    effects.append(.cancelTimer(.streamRetry(stream: stream.number)))
    if let waiter = stream.waiter {
      effects.append(
        .answerStream(waiter, .failure(.streamFailed(target: stream.target.description, reason: "stopped"))))
    }
    if let attempt = stream.attempt {
      effects.append(.cancelTimer(.streamDeadline(stream: stream.number, name: attempt.name)))
      if attempt.attached { effects.append(.removeStreamBranch(name: attempt.name)) }
    }
    effects.append(.stopStreamServer(number: stream.number))
    releaseStreamEncoder(stream.encoding)
    if announcing { effects.append(.publish(.streamStopped(stream.target))) }
  }

  /// Stops a streams' encoder once nothing takes its video any more: no stream of its encoding, and no
  /// recording that is still in the pipeline.
  private mutating func releaseStreamEncoder(_ encoding: HVTStreamEncoding) {
    let recordings = [state.recording?.onStreamEncoder ?? false] + state.endingRecordings.map(\.onStreamEncoder)
    guard state.streamEncoders.contains(encoding), !state.streams.contains(where: { $0.encoding == encoding }),
      !(encoding.isMovie && recordings.contains(true))
    else { return }
    state.streamEncoders.remove(encoding)
    effects.append(.removeStreamEncoder(encoding))
  }

  /// The camera stops: the streams' branches and encoders go with its pipeline. With `ending` (the camera
  /// is dismissed) the streams end too; else they start again with the next camera.
  private mutating func detachStreams(ending: Bool) {
    state.streamEncoders = []
    effects.append(.forgetStreamEncoders)
    for index in state.streams.indices {
      endTry(index, removing: false)
      if state.streams[index].retryScheduled {
        state.streams[index].retryScheduled = false
        effects.append(.cancelTimer(.streamRetry(stream: state.streams[index].number)))
      }
    }
    guard ending else { return }
    let streams = state.streams
    state.streams = []
    streams.forEach { end($0) }
  }

  /// The stream whose current try's branch `source` (an element's path) is inside: known from the moment
  /// the try began, before its branch is attached.
  private func stream(containing source: String) -> Int? {
    state.streams.firstIndex { $0.attempt.map { StreamBranch.path(source, isInside: $0.name) } ?? false }
  }

  /// The index of stream `number`, if `name` is its current try.
  private func streamIndex(_ number: Int, attempt name: String) -> Int? {
    state.streams.firstIndex { $0.number == number && $0.attempt?.name == name }
  }

  // MARK: - Replies

  private mutating func reply(_ reply: Machine.Reply) {
    effects.append(.reply(reply))
  }

  /// Says that a call had no effect, and why: in the log, and as an event.
  private mutating func ignored(_ call: String, because reason: String) {
    effects += [
      .log(.info, "\(call) had no effect: \(reason)", session: nil), .publish(.callIgnored(call: call, reason: reason)),
    ]
  }
}
