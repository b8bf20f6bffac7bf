import HVTGStreamer

extension HVTCameraController {
  /// Handles a bus message of the running pipeline (on `queue`). Messages from a pipeline that has since
  /// been stopped are relayed only as state changes.
  func handle(_ message: BusMessage) {
    hub.publish(HVTBusMessage(message))
    switch message {
    case .stateChanged(let source, let old, let new, _) where source == state.pipelinePath:
      state.lastPipeline?.dumpDotFile(named: "\(name)-\(old)_\(new)")
      if let from = HVTPipelineState(old), let to = HVTPipelineState(new) {
        publish(.stateChanged(from: from, to: to))
      }
    case .error(let report) where state.session != nil:
      handleError(report)
    case .warning(let report) where state.session != nil:
      publish(.warning(HVTGStreamerMessage(report)))
    case .info(let report) where state.session != nil:
      publish(.info(HVTGStreamerMessage(report)))
    case .endOfStream where state.session != nil:
      publish(.endOfStream)
    default:
      break
    }
  }

  /// An element failed. A failure inside the recording branch ends the recording (delivering what was
  /// written) and leaves the camera running; any other failure means the camera stopped: the recording
  /// is finalized and delivered, and the pipeline is stopped (`present()` again to restart).
  private func handleError(_ report: MessageReport) {
    debugLog.log(.warning, "error from \(report.source): \(report.message)")
    state.lastPipeline?.dumpDotFile(named: "\(name)-error")
    fail(HVTCameraError.gstreamer(HVTGStreamerMessage(report)))
    let inRecordingBranch = state.recording.map { report.source.hasPrefix($0.path + "/") } ?? false
    finishRecording(reason: .error)
    if !inRecordingBranch { stopSession() }
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
