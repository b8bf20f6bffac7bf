import Foundation
import HVTGStreamer

/// Recordings: asked for, attached, taking frames, stopped, drained, delivered or given up.
extension ControllerMachine.Transition {
  // MARK: - Recordings

  /// Why a recording cannot start now, if it cannot; `toCaller` when a caller asks (`recordMovie()`),
  /// not the delegate (``notPresented(toCaller:)``).
  func recordingRefusal(toCaller: Bool) -> HVTCameraError? {
    if !state.isPresented { return notPresented(toCaller: toCaller) }
    if !state.settings.mediaTypes.contains(.movie) { return .mediaTypeNotEnabled(.movie) }
    if state.settings.cameraCaptureMode != .video { return .wrongCaptureMode(.video) }
    if state.recording != nil { return .recordingInProgress }
    return nil
  }

  /// Whether a recording may start: a `startVideoCapture()` (`inFlight`) has no effect, as announced,
  /// while a movie it recorded is in flight (``movieInFlight``).
  mutating func askRecording(inFlight: Bool) {
    if inFlight, state.isPresented, movieInFlight {
      ignored("startVideoCapture()", because: "a movie is in flight until it is used or retaken on the review screen")
      return reply(.ignored)
    }
    reply(recordingRefusal(toCaller: !inFlight).map(Machine.Reply.refused) ?? .accepted)
  }

  /// A recording whose file is reserved: it starts now, or when the camera runs; refused, its file is
  /// removed.
  mutating func startRecording(_ request: Machine.RecordingRequest) {
    let refusal: HVTCameraError? =
      !state.isPresented
      ? Machine.failure(to: request.destination, cause: state.dismissedBy, otherwise: .notPresented)
      : state.recording != nil ? .recordingInProgress : nil
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
  func branchName(for id: UInt64) -> String {
    let others = state.endingRecordings.contains { $0.branchSession != nil } || state.recording?.branchSession != nil
    let name = HVTPipelineModel.recordingBranchName
    return others ? "\(name)\(id)" : name
  }

  /// Has the interpreter make the next recording's encoding ready on the running session
  /// (``ArmedRecording``) when one may come there and would encode for itself: in video mode, with no
  /// recording's branch in the pipeline (it would hold the name the next one takes), and neither a
  /// pre-roll nor the streams' encoder to take encoded video from.
  mutating func armNextRecording() {
    guard let session = state.phase.running, state.settings.cameraCaptureMode == .video,
      !session.encoding.preRoll, !session.recordsOnStreamEncoder(among: state.streamEncoders),
      state.recording?.branchSession == nil, state.endingRecordings.allSatisfy({ $0.branchSession == nil })
    else { return }
    effects.append(.armRecording(session.id))
  }

  /// Has the interpreter build and attach the current recording's branch on `session`. With a pre-roll the
  /// movie takes its encoded video; else, while streams run, the streams' encoder's: one encoder for the
  /// movie and the streams.
  mutating func beginRecording(on session: Machine.Session) {
    guard let recording = state.recording else { return }
    let onStreams = session.recordsOnStreamEncoder(among: state.streamEncoders)
    let name = branchName(for: recording.request.id)
    state.recording?.onStreamEncoder = onStreams
    state.recording?.stage = .attaching(session: session.id, branch: nil)
    effects.append(
      .attachRecording(
        recording.request, on: session.id, name: name, paused: recording.paused, onStreamEncoder: onStreams))
  }

  /// Has the interpreter build and attach the branch of a recording stopped before the camera ran.
  mutating func beginEnding(at index: Int, on session: Machine.Session) {
    let ending = state.endingRecordings[index]
    let onStreams = session.recordsOnStreamEncoder(among: state.streamEncoders)
    let name = branchName(for: ending.request.id)
    state.endingRecordings[index].onStreamEncoder = onStreams
    state.endingRecordings[index].stage = .attaching(session: session.id, branch: nil)
    effects.append(
      .attachRecording(ending.request, on: session.id, name: name, paused: false, onStreamEncoder: onStreams))
  }

  mutating func setPaused(_ paused: Bool) {
    guard let recording = state.recording, recording.paused != paused else { return reply(.ignored) }
    state.recording?.paused = paused
    if recording.branchSession != nil { effects.append(.pauseRecording(recording.request.id, paused)) }
    reply(.accepted)
  }

  /// Ends the recording taking frames, if any: it stops and drains (after its first frames). One asked for
  /// while the camera was starting still begins, and stops after its first frames.
  mutating func finishRecording(reason: HVTRecordingStopReason, interruption: HVTCameraError? = nil) {
    guard let recording = state.recording else { return }
    state.recording = nil
    let wasRecording = state.recordingElapsed != nil
    state.recordingElapsed = nil
    var ending = Machine.EndingRecording(
      request: recording.request, reason: reason, interruption: interruption, stage: .awaitingCamera,
      thumbnail: recording.thumbnail, onStreamEncoder: recording.onStreamEncoder,
      reviewed: reviewsCapture(for: recording.request.destination))
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

  /// Sends the end of stream into the branch, after its first ``RecordingClock/minimumFrames`` frames (a
  /// stop right after the start still makes a movie that plays) or two seconds, whichever comes first.
  mutating func endWhenReady(at index: Int) {
    let ending = state.endingRecordings[index]
    guard let branch = ending.branch else { return }
    guard !branch.hasEnoughFrames, ending.reason != .error else { return sendEndOfStream(at: index) }
    state.endingRecordings[index].stage = .waitingForFrames(branch)
    effects.append(.schedule(.frames(recording: ending.request.id), after: 2))
  }

  /// Unlinks the branch from the tee and sends EOS into it; the drain is then watched for progress.
  mutating func sendEndOfStream(at index: Int) {
    let ending = state.endingRecordings[index]
    guard let branch = ending.branch else { return }
    guard case .waitingForFrames = ending.stage else { return }
    let id = ending.request.id
    state.endingRecordings[index].stage = .draining(branch, since: nil, audioEnded: false)
    // The end of stream first: the timer (set only when the stop waited for frames) fires on the queue,
    // which runs both effects in one block.
    effects += [.sendEndOfStream(id, ending.reason), .cancelTimer(.frames(recording: id))]
  }

  /// Gives up a drain that has made no progress for ``HVTCameraController/drainStallTimeout``; checks
  /// again when its time comes while it does. A drain that waits for a microphone that stopped has its
  /// sound ended first, and another period.
  mutating func checkDrain(
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
  mutating func recordingFailed(_ id: UInt64, _ error: HVTCameraError) {
    if state.recording?.request.id == id { finishRecording(reason: .error) }
    guard let index = endingIndex(id), !state.endingRecordings[index].isFinished else { return }
    giveUp(at: index, .failed(error))
  }

  /// Reports a recording that will not be finalized and removes its branch.
  mutating func giveUp(at index: Int, _ abandonment: Machine.Abandonment) {
    let ending = state.endingRecordings[index]
    guard let branch = ending.branch else { return }
    let id = ending.request.id
    state.endingRecordings[index].stage = .removing(branch)
    effects += [
      .cancelTimer(.frames(recording: id)), .cancelTimer(.drain(recording: id)),
      .abandonRecording(id, abandonment, to: ending.request.destination), .removeRecording(id),
    ]
  }

  mutating func recordingBuilt(_ id: UInt64, _ result: Result<Machine.Branch, HVTCameraError>) {
    switch result {
    case .success(let branch):
      if let recording = state.recording, recording.request.id == id,
        case .attaching(let session, nil) = recording.stage
      {
        state.recording?.stage = .attaching(session: session, branch: branch)
        if let reason = state.phase.session?.encoding.silentBecause {
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

  mutating func recordingAttached(_ id: UInt64, _ result: Result<Void, HVTCameraError>) {
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
  mutating func dropUnattached(_ id: UInt64, _ error: HVTCameraError) {
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

  mutating func recordingEvent(_ event: RecordingBranch.Event, of id: UInt64) {
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
    case .framesDropped(let total, let elapsed):
      effects.append(
        .log(
          .warning, "the encoder cannot keep up: \(total) frames left out of the movie, the latest at \(elapsed) s",
          session: nil))
      effects.append(.publish(.recordingFramesDropped(total: total, elapsed: elapsed)))
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
  mutating func markEnoughFrames(_ id: UInt64) {
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
  mutating func startThumbnail(of id: UInt64, fromFile: Bool) {
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

  mutating func thumbnailMade(_ id: UInt64, _ image: HVTImage?) {
    if state.recording?.request.id == id {
      state.recording?.thumbnail = .made(image)
    } else if let index = endingIndex(id) {
      state.endingRecordings[index].thumbnail = .made(image)
      deliverWhenThumbnailMade(at: index)
    }
  }

  /// Finishes a complete movie, unless its thumbnail is still being made; it is delivered (to the review
  /// screen first when it is reviewed), and its branch removed, once it has its final name
  /// (``movieFinished(_:_:_:)``).
  mutating func deliverWhenThumbnailMade(at index: Int) {
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
      .finishMovie(
        ending.request.id,
        .init(
          reason: ending.reason, interruption: ending.interruption, thumbnail: thumbnail,
          destination: ending.request.destination, reviewed: ending.reviewed))
    ]
  }

  mutating func turnTorchOff() {
    guard let lit = state.torchLitOn else { return }
    state.torchLitOn = nil
    if state.phase.session?.id == lit { effects.append(.turnTorchOff(lit)) }
  }

  /// The index of ending recording `id`.
  func endingIndex(_ id: UInt64) -> Int? {
    state.endingRecordings.firstIndex { $0.request.id == id }
  }

  /// Whether recording `id` (taking frames or ending) has a branch.
  func hasBranch(_ id: UInt64) -> Bool {
    if let recording = state.recording, recording.request.id == id { return recording.branch != nil }
    return endingIndex(id).map { state.endingRecordings[$0].branch != nil } ?? false
  }
}

extension ControllerMachine {
  /// What a request that ends without its capture tells whoever asked for it, when `cause` (a failure of
  /// the camera, already reported to the delegate by ``Effect/fail(_:)``) cut it short. A caller
  /// (`recordMovie()`, `capturePhoto()`) receives one error, which must say why: `cause`. The
  /// delegate, which `didFailWithError` has told of `cause`, learns what became of its request:
  /// `otherwise` (``HVTCameraError/recordingEmpty(path:)``, ``HVTCameraError/notPresented``).
  static func failure(to destination: Destination, cause: HVTCameraError?, otherwise: HVTCameraError)
    -> HVTCameraError
  {
    guard case .caller = destination, let cause else { return otherwise }
    return cause
  }
}
