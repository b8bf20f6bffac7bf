extension ControllerMachine.State {
  // What the controller's getters read, besides the state's own properties: they read the state itself,
  // as it stood after the last step, under the lock the steps take (``HVTCameraController/read(_:)``), so
  // that a call's effect is visible when the call returns (a `startVideoCapture()` that returned true
  // makes `isRecording` true before the branch exists). Nothing is kept apart from the state, so nothing
  // can disagree with it; and no copy of it is kept beside it, which would make every step's change to
  // one of its arrays copy the array.

  /// The session being started, running or stopping while presented (``ControllerMachine/Session/id``).
  var session: UInt64? { isPresented ? phase.session?.id : nil }

  /// What the running camera delivers, while presented.
  var configuration: HVTCaptureConfiguration? { isPresented ? phase.running?.configuration : nil }

  /// The camera plays (its first frame has arrived) while presented.
  var cameraReady: Bool { configuration != nil }

  /// Whether the recording asked for or running, until it is stopped, is paused.
  var recordingPaused: Bool { recording?.paused ?? false }

  /// What is on the default controls' review screen.
  var reviewing: HVTMediaType? { review.map { $0.movie == nil ? .image : .movie } }

  /// The frame of the reviewed movie asked for last.
  var movieFrameRequest: UInt64? { review?.movie?.frameRequest }

  /// The targets streamed to, until stopped.
  var streamTargets: [HVTStreamTarget] { streams.map(\.target) }
}
