extension HVTCameraController {
  /// What every getter reads: the settings, and what the camera is doing as far as a caller can tell.
  /// Derived from the machine's state after each step (``init(_:)``, the one place it is made) and read
  /// under the same lock, so that a call's effect on it is visible when the call returns (a
  /// `startVideoCapture()` that returned true makes `isRecording` true before the branch exists).
  struct Shared: Sendable {
    let settings: Settings
    /// Counts changes of ``settings``, so that `present()` can tell whether the settings it built a
    /// pipeline from are still current.
    let settingsVersion: UInt64
    /// Between `present()` and `dismiss()` (or a failure that stopped the camera).
    let isPresented: Bool
    /// The session being started, running or stopping while presented (``ControllerMachine/Session/id``).
    let session: UInt64?
    /// What the running camera delivers.
    let configuration: HVTCaptureConfiguration?
    /// The recording asked for or running (its number), until it is stopped.
    let recording: UInt64?
    /// The recording is paused; false when none runs.
    let recordingPaused: Bool
    /// The camera plays (its first frame has arrived) while presented.
    let cameraReady: Bool
    /// Whether `takePicture()` would take a photo now.
    let isReadyForCapture: Bool
    /// A photo is on the default controls' review screen.
    let isReviewing: Bool
    /// The library window is open.
    let showsLibrary: Bool
    /// The targets streamed to, until stopped.
    let streams: [HVTStreamTarget]
    /// The streams' secrets, masked in every bus message relayed.
    let streamSecrets: Set<String>

    /// The snapshot of `state`.
    init(_ state: ControllerMachine.State) {
      settings = state.settings
      settingsVersion = state.settingsVersion
      isPresented = state.isPresented
      session = state.isPresented ? state.phase.session?.id : nil
      let running = state.isPresented ? state.phase.running : nil
      configuration = running?.configuration
      cameraReady = running != nil
      recording = state.recording?.request.id
      recordingPaused = state.recording?.paused ?? false
      isReadyForCapture = state.isReadyForCapture
      isReviewing = state.review != nil
      showsLibrary = state.showsLibrary
      streams = state.streams.map(\.target)
      streamSecrets = state.streamSecrets
    }
  }
}
