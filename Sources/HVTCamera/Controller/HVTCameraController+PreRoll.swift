import HVTGStreamer

extension HVTCameraController {
  /// Seconds of video each movie begins with from before ``startVideoCapture()`` was called (default 0:
  /// none) — a dashcam's or bodycam's pre-roll. While presented, the camera's frames are encoded all the
  /// time and the newest seconds of the encoded stream are kept in memory (a branch of the tee up to a
  /// second tee, `encoded`, whose sink pad a probe keeps buffers at); a recording links to that stream and
  /// writes what was kept first. A movie begins at a key frame between this long and this long plus
  /// ``videoKeyFrameInterval`` (default one second) before the call; ``videoMaximumDuration`` counts the
  /// pre-roll. Memory is bounded by the same span of encoded video (``preRollFill``). With sound
  /// (``capturesAudio``), the microphone runs all the time too, once the camera runs, and its raw sound
  /// from the oldest video kept on is kept (188 KiB a second); each movie encodes the sound it takes,
  /// cut to the sample at its first frame. A pause ends with the encoder's next key frame, which the
  /// resume asks for (``pauseVideoCapture()``). Clamped to
  /// ``HVTCaptureLimits/preRollDuration``; NaN is ignored. Changing it while presented restarts the
  /// camera, as ``videoBitRate`` does.
  public var preRollDuration: Double {
    get { read(\.settings.preRollDuration) }
    set {
      guard !newValue.isNaN else { return }
      change(\.preRollDuration, to: HVTCaptureLimits.preRollDuration.clamp(newValue), then: .restart)
    }
  }

  /// What the pre-roll holds now (``preRollDuration``), or `nil` without one or while the camera is not
  /// running. The event ``HVTCameraEvent/preRollFilled(_:)`` says when it first holds its duration.
  public var preRollFill: HVTPreRollFill? { read(\.cameraReady) ? currentSession?.preRoll?.fill : nil }

  /// Starts the pre-roll's microphone of session `id`, which now runs, on the worker (opening it takes a
  /// moment); one that does not start leaves the movies silent, and an event says why.
  func startPreRollSound(of id: UInt64) {
    guard let session = session(id), let sound = session.preRoll?.sound else { return }
    worker.async {
      guard let reason = sound.start(in: session.pipeline) else { return }
      self.queue.async { self.publish(.audioUnavailable(reason: reason)) }
    }
  }

  /// Takes the pre-roll's microphone of session `id`, which failed, out on the worker; the movie of
  /// `recording` loses its sound from here (its video goes on), and later movies are silent.
  func stopPreRollSound(of id: UInt64, endingSoundOf recording: UInt64?) {
    guard let session = session(id), let sound = session.preRoll?.sound else { return }
    let branch = recording.flatMap { recordingObjects($0)?.branch }
    worker.async {
      if let branch, branch.hasLiveAudio { branch.endAudio() }
      sound.stop(in: session.pipeline)
    }
  }
}
