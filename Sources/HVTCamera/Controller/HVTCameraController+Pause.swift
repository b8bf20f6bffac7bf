extension HVTCameraController {
  /// Whether the recording in progress is paused (``pauseVideoCapture()``); false when nothing records.
  public var isVideoCapturePaused: Bool { read(\.recordingPaused) }

  /// Pauses the recording in progress. From the next frame that reaches the recording branch, the movie
  /// leaves out the camera's frames and the microphone's sound (cut to the sample at the same running
  /// time) until ``resumeVideoCapture()``; then it goes on with its timestamps closed up over the pause,
  /// so the file is one movie that plays as one take. The preview, photos and the camera keep running.
  /// The maximum duration counts the time recorded, not the time paused; a stop while paused finalizes
  /// the movie as it stands. `.recordingPaused` follows (``HVTCameraEvent/recordingPaused(elapsed:)``).
  /// Returns false when nothing is recording or it is already paused. Works on the probe at the branch's
  /// entry (`gst_pad_add_probe`); the encoder and muxer never see the pause. With a pre-roll
  /// (``preRollDuration``), the branch takes encoded frames: the pause ends with the first key frame
  /// after the resume, which the resume asks the encoder for (an upstream force-key-unit event).
  @discardableResult
  public func pauseVideoCapture() -> Bool { setPaused(true) }

  /// Resumes a paused recording, from the next frame; `.recordingResumed` follows with the time left
  /// out. Returns false when nothing is recording or it is not paused.
  @discardableResult
  public func resumeVideoCapture() -> Bool { setPaused(false) }

  /// Asks the machine to pause or resume: it applies to the running branch, or to the branch of a
  /// recording the camera has not begun yet when it begins.
  private func setPaused(_ paused: Bool) -> Bool {
    send(.setPaused(paused)) == .accepted
  }
}
