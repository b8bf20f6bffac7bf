import Foundation
import HVTGStreamer

/// The controller's behaviour, as one pure function: ``step(_:_:)`` takes the state and one input — a
/// call, a bus message, a timer, the outcome of work done off the queue — makes the state the next one
/// and returns the effects the interpreter runs (``HVTCameraController/run(_:)``). It reads nothing but
/// its arguments and does nothing but change the state it is given and return: it is tested without
/// GStreamer (`ControllerMachineTests`).
///
/// The phases (``Phase``) each carry their session; a recording is either the one taking frames
/// (``Recording``) or one ending (``EndingRecording``), each with the stage it is at. Every step ends the
/// same way (``Transition/conclude()``): a change of the readiness for a photo is announced, and the
/// waits for a stopped camera, or for nothing shown, are answered once that is so. The getters read the
/// new state under the same lock (``HVTCameraController/read(_:)``).
enum ControllerMachine {
  /// Makes `state` the next state after `input`, and returns what to do. The state is moved into the
  /// step and back, not copied: its arrays and dictionaries, held once, change in place (a copy held
  /// meanwhile would make every change to one of them copy it whole).
  static func step(_ state: inout State, _ input: Input) -> [Effect] {
    var transition = Transition(state: consume state)
    transition.apply(input)
    transition.conclude()
    state = transition.state
    return transition.effects
  }
}

extension ControllerMachine {
  /// One step under way: the state as it changes, and the effects so far. Only ``ControllerMachine/step(_:_:)``
  /// makes one; its transitions, by subject, are in the `ControllerMachine+…` files, all pure.
  struct Transition {
    typealias Machine = ControllerMachine
    var state: Machine.State
    var effects: [Machine.Effect] = []
  }
}

extension ControllerMachine.Transition {
  // MARK: - Inputs

  mutating func apply(_ input: Machine.Input) {
    switch input {
    case .present(let session, let version, let environment):
      present(session, version: version, environment: environment)
    case .presentFailed(let error):
      presentFailed(error)
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
    case .askRecording(let inFlight):
      askRecording(inFlight: inFlight)
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
      guard state.isPresented else {
        return effects.append(.resumeReady([waiter], .failure(notPresented(toCaller: true))))
      }
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
      switch state.phase {
      case .running(let session, _) where session.id == id:
        effects.append(.publish(.previewStarted(at: instant)))
      case .starting(let session, _, _) where session.id == id:
        state.earlyPreviewStart = (id, instant)
      default:
        break
      }
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
    case .movieFinished(let id, let result, let delivery):
      movieFinished(id, result, delivery)
    case .movieFrameDecoded(let request, let decoded):
      movieFrameDecoded(request: request, decoded)
    case .cutMovieDelivered:
      state.moviesBeingCut -= 1
    case .thumbnailMade(let id, let image):
      thumbnailMade(id, image)
    case .recordingRemoved(let id):
      guard let index = endingIndex(id) else { return }
      let ending = state.endingRecordings.remove(at: index)
      if ending.onStreamEncoder { releaseStreamEncoder(.movie) }
      continueStopping()
      armNextRecording()
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

  // MARK: - Settings

  mutating func follow(_ consequence: Machine.SettingsChange.Consequence) {
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

  mutating func setMediaTypes(_ types: [HVTMediaType]) {
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
  mutating func setCaptureMode(_ mode: HVTCameraController.CameraCaptureMode) {
    let needed: HVTMediaType = mode == .video ? .movie : .image
    guard state.settings.mediaTypes.contains(needed) else { return effects.append(.fail(.mediaTypeNotEnabled(needed))) }
    if state.settings.cameraCaptureMode != mode {
      state.settings.cameraCaptureMode = mode
      state.settingsVersion &+= 1
      if mode == .video {
        armNextRecording()
      } else if let session = state.phase.running {
        effects.append(.disarmRecording(session.id))
      }
    }
    if mode == .photo { finishRecording(reason: .cameraStopped) }
    refreshControls()
  }

  // MARK: - What every step ends with

  /// Ends a step: announces a change of the readiness, and answers the waits whose time has come (a
  /// stop's once no reviewed movie is being cut either).
  mutating func conclude() {
    announceReadiness()
    if case .idle = state.phase, state.moviesBeingCut == 0, !state.waiters.stopped.isEmpty {
      effects.append(.afterCallbacks(state.waiters.stopped))
      state.waiters.stopped = []
    }
    if !isShowingSomething, !state.waiters.dismissal.isEmpty {
      effects.append(.afterCallbacks(Array(state.waiters.dismissal.values)))
      state.waiters.dismissal = [:]
    }
  }

  // MARK: - Replies

  mutating func reply(_ reply: Machine.Reply) {
    effects.append(.reply(reply))
  }

  /// Says that a call had no effect, and why: in the log, and as an event.
  mutating func ignored(_ call: String, because reason: String) {
    effects += [
      .log(.info, "\(call) had no effect: \(reason)", session: nil), .publish(.callIgnored(call: call, reason: reason)),
    ]
  }
}
