import Foundation
import HVTGStreamer

/// What the pipeline reports: its bus (errors routed to what they cost), cameras coming and going, the frame watchdog.
extension ControllerMachine.Transition {
  // MARK: - The bus

  mutating func handle(_ message: Machine.Bus, from id: UInt64) {
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
  mutating func handleError(
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
    case .armedRecording:
      effects.append(.log(.info, "the next recording's encoding failed: a recording builds its own", session: nil))
      if let session = state.phase.session { effects.append(.disarmRecording(session.id)) }
      return
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
  mutating func cameraLost(_ session: Machine.Session, _ error: HVTCameraError) {
    finishRecording(reason: .error, interruption: error)
    state.isPresented = false
    (state.stopCause, state.dismissedBy) = (error, error)
    stopSession(then: .nothing)
  }

  /// Reports a camera coming or going; when the camera in use goes, finalizes and delivers a recording,
  /// reports ``HVTCameraError/cameraDisconnected(name:path:)`` and stops the camera.
  mutating func deviceChanged(_ change: HVTCameraController.DeviceChange) {
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
      guard let session = state.phase.session, session.camera.matches(name: name, path: path, serial: serial)
      else { return }
      let error = HVTCameraError.cameraDisconnected(name: name, path: path)
      effects.append(.fail(error))
      cameraLost(session, error)
    }
  }

  // MARK: - The frame watchdog

  /// One check: announces a stall after the session's ``ControllerMachine/Session/stallThreshold``
  /// without a frame, the recovery when frames flow again, and gives the camera up after
  /// ``HVTCameraController/cameraStallTimeout``; all on the watchdog's clock.
  mutating func checkFrames(of id: UInt64, now: Double, aliveAt: Double) {
    guard case .running(let session, let stall) = state.phase, session.id == id else { return }
    let silence = now - aliveAt
    let stalled = silence >= session.stallThreshold
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
  mutating func giveUpStalledCamera(_ session: Machine.Session, stalledFor seconds: Double, reopened: Bool) {
    let error = HVTCameraError.cameraStalled(name: session.configuration.deviceName, seconds: seconds)
    effects.append(.fail(error))
    guard !reopened else { return cameraLost(session, error) }
    finishRecording(reason: .error, interruption: error)
    effects.append(.log(.warning, "reopening the camera after \(seconds) s without a frame", session: session.id))
    state.stopCause = error
    stopSession(then: .rebuild(afterStall: seconds))
  }
}
