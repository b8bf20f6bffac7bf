import Foundation
import HVTGStreamer

/// The camera's life: presenting and dismissing, a session built, started, run, stopped.
extension ControllerMachine.Transition {
  // MARK: - Presenting and dismissing

  mutating func present(_ session: Machine.Session, version: UInt64, environment: [String: String]) {
    guard !state.isPresented, version == state.settingsVersion else {
      effects.append(.discardSession(session.id))
      return reply(state.isPresented ? .ignored : .outdated)
    }
    state.environment = environment
    state.isPresented = true
    state.dismissedBy = nil
    startSession(session)
  }

  /// `present()` threw `error` before it had a session: while the camera is not presented, that is why
  /// (``State/dismissedBy``), rather than an earlier failure.
  mutating func presentFailed(_ error: HVTCameraError) {
    guard !state.isPresented else { return }
    state.dismissedBy = error
  }

  mutating func dismiss() {
    if state.showsLibrary {
      state.showsLibrary = false
      effects.append(.closeLibraryWindow)
    }
    state.dismissedBy = nil
    guard state.isPresented else { return }
    state.isPresented = false
    stopSession(then: .nothing)
  }

  /// Why a request fails while the camera is not presented: for a caller (an `async` method), the failure
  /// that dismissed the camera when one did (``State/dismissedBy``); else, and for the delegate, which
  /// `didFailWithError` told of that failure, ``HVTCameraError/notPresented``.
  func notPresented(toCaller: Bool) -> HVTCameraError {
    toCaller ? state.dismissedBy ?? .notPresented : .notPresented
  }

  /// The user's cancel: a photo on the review screen is discarded; the camera stays presented.
  mutating func cancel() {
    endReview(using: false)
    effects += [.publish(.cancelled), .delegateCancelled]
  }

  /// Whether the camera is presented, or still stopping, or the library window is open.
  var isShowingSomething: Bool {
    if state.isPresented || state.showsLibrary { return true }
    if case .idle = state.phase { return false }
    return true
  }

  mutating func resolveReadyWaiters(_ result: Result<Void, HVTCameraError>) {
    guard !state.waiters.ready.isEmpty else { return }
    effects.append(.resumeReady(state.waiters.ready, result))
    state.waiters.ready = []
  }

  // MARK: - The session's life

  /// Starts `session`, or, while the previous one is stopping, starts it once that one has stopped.
  mutating func startSession(_ session: Machine.Session, afterStall: Double? = nil) {
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
  mutating func supersede(_ then: Machine.AfterStop, with session: Machine.Session) -> Machine.AfterStop {
    if case .start(let superseded) = then, superseded.id != session.id {
      effects.append(.discardSession(superseded.id))
    }
    return .start(session)
  }

  /// The pipeline reached PLAYING: frames flow, and what waited for them goes ahead.
  mutating func sessionRunning(_ session: Machine.Session, afterStall: Double?) {
    state.phase = .running(session, stall: afterStall.map { .reopened(stalledFor: $0) } ?? .flowing)
    effects += [
      .cancelTimer(.start(session: session.id)), .cancelTimer(.refusal(session: session.id)),
      .log(.info, "camera started: \(session.configuration)", session: session.id),
      .watchFrames(session.id, interval: session.watchInterval),
    ]
    if session.encoding.preRoll { effects.append(.startPreRollSound(session.id)) }
    effects.append(.publish(.configured(session.configuration)))
    announceReadiness()
    if let early = state.earlyPreviewStart {
      state.earlyPreviewStart = nil
      if early.session == session.id { effects.append(.publish(.previewStarted(at: early.at))) }
    }
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
    armNextRecording()
  }

  /// The camera did not start: reports why, answers what waited for it, and stops what was built.
  mutating func failStart(_ error: HVTCameraError) {
    effects += [.log(.warning, "the camera did not start: \(error)", session: nil), .dumpGraph("error"), .fail(error)]
    resolveReadyWaiters(.failure(error))
    state.isPresented = false
    state.dismissedBy = error
    abandonWaitingRequests(cause: error)
    stopSession(then: .nothing)
  }

  /// Stops the current session: finalizes its recordings, lets its photos finish, then sets the pipeline
  /// to NULL off the queue; `next` says what follows.
  mutating func stopSession(then next: Machine.AfterStop) {
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
  mutating func continueStopping() {
    guard case .stopping(let session, let then) = state.phase, state.recording?.branchSession == nil,
      state.endingRecordings.allSatisfy({ $0.branchSession == nil }), state.photos.inProgress == 0
    else { return }
    state.phase = .closing(session.id, then: then)
    effects.append(.stopSession(session.id))
  }

  /// The pipeline reached NULL: what was to follow follows.
  mutating func stopped(_ id: UInt64) {
    guard case .closing(let session, let then) = state.phase, session == id else { return }
    state.phase = .idle
    state.stopCause = nil
    // A pipeline flushes its bus on the way to NULL, so GStreamer never posts this last change.
    effects.append(.publish(.stateChanged(from: .ready, to: .null)))
    perform(then)
  }

  /// What follows a stop.
  mutating func perform(_ next: Machine.AfterStop) {
    if case .start(let session) = next { return startSession(session) }
    guard case .rebuild(let afterStall) = next else { return }
    guard state.isPresented else { return resolveReadyWaiters(.failure(.notPresented)) }
    state.phase = .building(version: state.settingsVersion, afterStall: afterStall)
    effects.append(.buildSession(state.settings, version: state.settingsVersion, environment: state.environment))
  }

  /// A session for changed settings was built, or could not be.
  mutating func built(_ result: Result<Machine.Session, HVTCameraError>, version: UInt64) {
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
      state.dismissedBy = error
      abandonWaitingRequests(cause: error)
    }
  }

  /// Answers what waits for a camera that will not run: `present()` callers, a recording and photos
  /// asked for while it was starting. `cause` is why the camera will not run, when it failed: the photos
  /// and the recording waiting for it were cut short by it (a recording stopped before the camera came
  /// keeps what it had).
  mutating func abandonWaitingRequests(cause: HVTCameraError? = nil) {
    resolveReadyWaiters(.failure(.notPresented))
    let awaiting = state.photos.awaitingCamera
    state.photos.awaitingCamera = []
    for request in awaiting {
      effects.append(.discard(request.file))
      let error = Machine.failure(to: request.destination, cause: cause, otherwise: .notPresented)
      photoFinished(request, .failure(error), counted: false)
    }
    var requests: [(Machine.RecordingRequest, cause: HVTCameraError?)] = []
    if let recording = state.recording, case .awaitingCamera = recording.stage {
      state.recording = nil
      requests.append((recording.request, cause))
    }
    state.endingRecordings.removeAll { ending in
      guard case .awaitingCamera = ending.stage else { return false }
      requests.append((ending.request, ending.interruption))
      return true
    }
    for (request, cause) in requests {
      let path = request.file.final.path
      let error = Machine.failure(to: request.destination, cause: cause, otherwise: .recordingEmpty(path: path))
      effects += [.discard(request.file), .deliver(.failure(error), to: request.destination, handingOver: nil)]
    }
  }

  mutating func timerFired(_ timer: Machine.TimerID, at moment: Machine.Moment) {
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
}
