extension HVTCameraController {
  /// What every getter reads: the machine's state as it stood after the last step, and what the getters
  /// make of it. Made from the state when a getter reads it (``HVTCameraController/read(_:)``), under the
  /// lock the steps take, so that a call's effect on it is visible when the call returns (a
  /// `startVideoCapture()` that returned true makes `isRecording` true before the branch exists); nothing
  /// in it is kept apart from the state, so nothing can disagree with it. A step does not make one: a
  /// copy of the state kept beside it would make every step's change to an array of it copy the array.
  struct Shared {
    private let state: ControllerMachine.State

    /// The snapshot of `state`.
    init(_ state: ControllerMachine.State) {
      self.state = state
    }

    var settings: Settings { state.settings }

    /// Counts changes of ``settings``, so that `present()` can tell whether the settings it built a
    /// pipeline from are still current.
    var settingsVersion: UInt64 { state.settingsVersion }

    /// Between `present()` and `dismiss()` (or a failure that stopped the camera).
    var isPresented: Bool { state.isPresented }

    /// The session being started, running or stopping while presented (``ControllerMachine/Session/id``).
    var session: UInt64? { state.isPresented ? state.phase.session?.id : nil }

    /// What the running camera delivers, while presented.
    var configuration: HVTCaptureConfiguration? { state.isPresented ? state.phase.running?.configuration : nil }

    /// The camera plays (its first frame has arrived) while presented.
    var cameraReady: Bool { configuration != nil }

    /// The recording asked for or running (its number), until it is stopped, and whether it is paused.
    var recording: UInt64? { state.recording?.request.id }
    var recordingPaused: Bool { state.recording?.paused ?? false }

    /// Whether `takePicture()` would take a photo now.
    var isReadyForCapture: Bool { state.isReadyForCapture }

    /// What is on the default controls' review screen.
    var reviewing: HVTMediaType? { state.review.map { $0.movie == nil ? .image : .movie } }

    /// The frame of the reviewed movie asked for last.
    var movieFrameRequest: UInt64? { state.review?.movie?.frameRequest }

    /// The library window is open.
    var showsLibrary: Bool { state.showsLibrary }

    /// The targets streamed to, until stopped, and their secrets (masked in every bus message relayed).
    var streams: [HVTStreamTarget] { state.streams.map(\.target) }
    var streamSecrets: Set<String> { state.streamSecrets }
  }
}
