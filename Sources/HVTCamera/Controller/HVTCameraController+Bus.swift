import HVTGStreamer

extension HVTCameraController {
  /// Handles a bus message of session `id`'s pipeline (on the queue). Every message goes to
  /// ``busMessages``; the pipeline's own state changes become events; errors, warnings, infos and EOS of
  /// the current session advance the state machine and reach the delegate. Messages of a session that
  /// has since been replaced are relayed only.
  func handle(_ message: BusMessage, fromSession id: UInt64) {
    hub.publish(HVTBusMessage(message).masking(state.streamSecrets))
    let current = state.session.map { $0.id == id } ?? false
    switch message {
    case .stateChanged(let source, let old, let new, _) where source == state.pipelinePath:
      state.lastPipeline?.dumpDotFile(named: "\(name)-\(old)_\(new)")
      // First the running camera's facts (configuration, readiness), so that whoever sees PLAYING sees them.
      if current, new == .playing, let session = state.session { sessionRunning(session) }
      if let from = HVTPipelineState(old), let to = HVTPipelineState(new) {
        publish(.stateChanged(from: from, to: to))
      }
    case .error(let report) where current:
      handleError(report)
    case .warning(let report) where current:
      publish(.warning(HVTGStreamerMessage(report)))
    case .info(let report) where current:
      publish(.info(HVTGStreamerMessage(report)))
    case .endOfStream where current:
      publish(.endOfStream)
    default:
      break
    }
  }

  /// An element failed. A failure inside a stream's branch ends that stream (or has it tried again,
  /// ``streamFailed(_:_:in:)``) and touches nothing else; one from a branch already taken out is only
  /// logged. A failure inside a recording branch ends that recording (what reached the file is kept) and leaves the camera running; a failure while starting means the camera did not start;
  /// any other failure means the camera stopped: the recording is finalized and delivered, and the
  /// pipeline is stopped (`present()` again to restart). Errors that follow while it stops are logged.
  private func handleError(_ report: MessageReport) {
    // A stream's sink may quote its URL.
    let said = HVTStreamTarget.masking(report.message, secrets: state.streamSecrets)
    debugLog.log(.warning, "error from \(report.source): \(said)")
    let error = HVTCameraError.gstreamer(HVTGStreamerMessage(report))
    if let session = state.session, let sound = session.preRoll?.sound, report.source.hasPrefix(sound.path + "/") {
      return preRollSoundFailed(sound, error, in: session)
    }
    if let session = state.session, let stream = stream(containing: report.source) {
      return streamFailed(stream, error, in: session)
    }
    if StreamBranch.isInside(report.source) {
      // A stream's branch already taken out (it failed, or was stopped): its failure was handled.
      return debugLog.log(.info, "error from a stream branch taken out, ignored: \(said)")
    }
    let recordings = ([state.recording] + state.draining).compactMap { $0 }
    if let recording = recordings.first(where: {
      $0.branch.audioPath.map { report.source.hasPrefix($0 + "/") } ?? false
    }) {
      return audioFailed(recording, error)
    }
    if let recording = recordings.first(where: { report.source.hasPrefix($0.branch.path + "/") }) {
      return recordingFailed(recording, error)
    }
    switch state.phase {
    case .starting:
      failStart(error)
    case .running:
      if let gone = vanishedCamera(report) { return handleDeviceChange(gone) }
      state.lastPipeline?.dumpDotFile(named: "\(name)-error")
      fail(error)
      state.recording?.interruption = error
      // A recording stopped on request that still waits for its second frame will not get it: it too
      // was cut short.
      for draining in state.draining where draining.waitingForFrames && draining.interruption == nil {
        draining.interruption = error
      }
      finishRecording(reason: .error)
      markDismissed()
      stopSession(then: .nothing)
    case .idle, .stopping:
      // The camera is stopping, after a failure or on request: what fails now (a source's "internal
      // data stream error" behind the element that failed first) is a consequence, already reported.
      debugLog.log(.info, "while stopping: \(said) (\(report.source))")
    }
  }
}

extension HVTCameraController {
  /// The running camera's disconnection, when `report` comes from its source element and its V4L2 node
  /// says the device is gone (``V4L2Failure/deviceIsGone``). A camera pulled out fails its `v4l2src` before
  /// (or without) a device monitor's removal: vivid's `disconnect` control keeps the node and answers
  /// `ENODEV`, a UVC camera's node vanishes once udev or devtmpfs catches up.
  func vanishedCamera(_ report: MessageReport) -> DeviceChange? {
    guard report.source.hasSuffix(":\(HVTPipelineModel.sourceName)"),
      let configuration = state.session?.model.configuration, let path = configuration.devicePath
    else { return nil }
    do {
      _ = try V4L2Node(path: path).identity()
      return nil
    } catch {
      return error.deviceIsGone ? .disconnected(name: configuration.deviceName, path: path) : nil
    }
  }
}

extension HVTPipelineState {
  init?(_ state: ElementState) {
    switch state {
    case .null: self = .null
    case .ready: self = .ready
    case .paused: self = .paused
    case .playing: self = .playing
    case .voidPending: return nil
    }
  }
}
