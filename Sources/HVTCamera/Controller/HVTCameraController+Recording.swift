import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// Starts recording a movie: adds the recording branch to the running pipeline (the source and preview
  /// keep running). Returns false when already recording, in `.photo` mode, when `mediaTypes` lacks
  /// `.movie`, when not presented, or when the branch cannot be built (the delegate gets the error).
  public func startVideoCapture() -> Bool {
    queue.sync {
      guard let session = state.session, state.recording == nil,
        state.cameraCaptureMode == .video, state.mediaTypes.contains(.movie)
      else { return false }
      do {
        let file = try CaptureFiles.reserve(
          in: state.outputDirectory, prefix: "MOV", extension: session.model.movieExtension, movie: true)
        let branch = try RecordingBranch(chain: session.model.recording, file: file, name: "recording")
        let frameRate = session.model.configuration.frameRate.framesPerSecond
        let (controller, recording) = (WeakReference(self), WeakReference(branch))
        try branch.attach(to: session, limit: state.videoMaximumDuration, frameInterval: 1 / frameRate) {
          [queue] event in
          queue.async {
            guard let self = controller.target, let branch = recording.target, self.state.recording === branch
            else { return }
            self.handleRecordingEvent(event, of: branch)
          }
        }
        state.recording = branch
        debugLog.log(.info, "recording branch added, writing \(file.partial.path)", object: session.pipeline)
        if session.canLight, let frame = session.tap.latest, HVTFlashDecision.fires(state.cameraFlashMode, for: frame) {
          try session.setLight(true)
          state.torchLit = true
        }
        return true
      } catch {
        fail(error)
        return false
      }
    }
  }

  /// Stops recording: the branch is drained with EOS, the movie finalized, and the delegate receives it
  /// (`info[.mediaURL]`). Does nothing when not recording.
  public func stopVideoCapture() {
    queue.async { self.finishRecording(reason: .requested) }
  }

  private func handleRecordingEvent(_ event: RecordingBranch.Event, of branch: RecordingBranch) {
    switch event {
    case .started:
      publish(.recordingStarted(url: branch.file.partial))
    case .progress(let elapsed):
      publish(.recordingProgress(elapsed: elapsed, limit: state.videoMaximumDuration))
    case .limitReached:
      debugLog.log(.info, "maximum duration \(state.videoMaximumDuration) s reached")
      finishRecording(reason: .maximumDurationReached)
    }
  }

  /// Ends the recording in progress, if any (on `queue`): drains the branch with EOS (waiting for the
  /// muxer to finish), renames the file to its final name and delivers it, then removes the branch. If
  /// the branch does not drain (one of its elements failed), the file still holds every fragment written
  /// so far and is delivered as it is.
  func finishRecording(reason: HVTRecordingStopReason) {
    guard let branch = state.recording, let session = state.session else { return }
    state.recording = nil
    // A stop right after the start still makes a movie that plays: let the first frames in first.
    if reason != .error { _ = branch.waitForMinimumFrames(timeout: 2) }
    publish(.recordingStopped(elapsed: branch.summary.duration, reason: reason))
    branch.sendEndOfStream()
    let drained = branch.waitUntilDrained(stalledAfter: 3, limit: 10)
    // The file sink writes unbuffered: once the end of stream reached it, the file is complete, so the
    // movie is delivered before the branch is torn down (closing the encoder takes a few milliseconds).
    deliverMovie(of: branch, session: session, reason: reason, drained: drained)
    branch.remove(from: session)
    debugLog.log(
      .info, "recording branch removed (\(reason.rawValue), drained: \(drained)): \(branch.summary.frames) frames",
      object: session.pipeline)
    if state.torchLit {
      state.torchLit = false
      do { try session.setLight(false) } catch { fail(error) }
    }
  }

  /// Renames a drained recording's file to its final name and delivers it with its metadata; reports a
  /// recording without frames (and removes its file), or one that did not drain, as an error.
  private func deliverMovie(
    of branch: RecordingBranch, session: CaptureSession, reason: HVTRecordingStopReason, drained: Bool
  ) {
    let summary = branch.summary
    guard summary.frames > 0 else {
      try? FileManager.default.removeItem(at: branch.file.partial)
      return fail(
        HVTCameraError.fileWriteFailed(
          path: branch.file.final.path, reason: "the recording stopped before any frame was captured"))
    }
    if !drained {
      fail(
        HVTCameraError.fileWriteFailed(
          path: branch.file.final.path,
          reason:
            "the recording branch did not finish writing; the movie holds the fragments written before the failure"))
    }
    do {
      try branch.file.complete()
    } catch {
      return fail(error)
    }
    let firstTimestamp = summary.firstTimestamp.map(ClockTime.seconds) ?? 0
    let age = branch.linkTime.map { ClockTime.seconds($0) - firstTimestamp }
    let metadata = HVTMediaMetadata(
      captureDate: branch.linkDate.addingTimeInterval(-(age ?? 0)), configuration: session.model.configuration,
      frameTimestamp: firstTimestamp, frameAge: age, flashFired: nil,
      duration: summary.duration, frameCount: summary.frames, encoder: session.model.movieEncoder,
      muxer: session.model.movieMuxer, stopReason: reason, fileSize: CaptureFiles.size(of: branch.file.final),
      encodingStartedAt: summary.encodingStartedAt)
    deliver([.mediaType: HVTMediaType.movie, .mediaURL: branch.file.final, .mediaMetadata: metadata])
  }
}
