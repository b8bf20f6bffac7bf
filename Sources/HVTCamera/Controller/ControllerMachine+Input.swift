import Foundation
import HVTGStreamer

extension ControllerMachine {
  /// Everything that moves the controller: the app's calls, GStreamer's bus, timers, and the outcome of
  /// work done off the controller's queue. Each carries the facts the machine decides from (a time, a
  /// random number, what a branch reports), so that ``ControllerMachine/step(_:_:)`` reads nothing else.
  enum Input {
    // MARK: The app's calls

    /// `present()` built `session` from the settings of `version`.
    case present(Session, version: UInt64, environment: [String: String])
    /// `present()` could not build a session, and threw `error`.
    case presentFailed(HVTCameraError)
    /// `dismiss()`: the camera, or the library window, is no longer shown.
    case dismiss
    /// A settings change (``SettingsChange``).
    case change(SettingsChange)
    /// `setMediaTypes(_:)`.
    case setMediaTypes([HVTMediaType])
    /// The ``HVTCameraController/cameraCaptureMode`` setter.
    case setCaptureMode(HVTCameraController.CameraCaptureMode)
    /// `takePicture()` (`inFlight`) or `capturePhoto()` asks to take photo `id`: the reply says whether
    /// the caller may go on and reserve its file.
    case askPhoto(id: UInt64, inFlight: Bool)
    /// The photo asked for, with its frame of the moment and its file.
    case photo(PhotoRequest)
    /// The file of photo `id` could not be reserved.
    case photoNotReserved(id: UInt64, HVTCameraError, inFlight: Bool)
    /// `startVideoCapture()` (`inFlight`: not while a movie it recorded is in flight, stopped and not yet
    /// used or retaken on the review screen) or `recordMovie()` asks whether a recording can start
    /// (before its file is reserved).
    case askRecording(inFlight: Bool)
    /// The recording asked for, with its reserved file; the reply says whether it starts.
    case startRecording(RecordingRequest)
    /// `stopVideoCapture()` (any recording) or a cancelled `recordMovie()` (recording `id`).
    case stopRecording(id: UInt64?)
    /// `pauseVideoCapture()`, `resumeVideoCapture()`.
    case setPaused(Bool)
    /// `presentAndWait()` waits for the camera to run.
    case whenRunning(@Sendable (Result<Void, HVTCameraError>) -> Void)
    /// `dismissAndWait()` waits for the camera to stop.
    case whenStopped(@Sendable () -> Void)
    /// `waitUntilDismissed()` waits, as waiter `id`, until nothing is shown.
    case whenDismissed(id: UInt64, @Sendable () -> Void)
    /// The task of waiter `id` was cancelled.
    case cancelDismissalWait(id: UInt64)
    /// `cancel()`, the Cancel button or Escape.
    case cancel
    /// `startStreaming(_:)`.
    case startStreaming(HVTStream, waiter: @Sendable (Result<String, HVTCameraError>) -> Void)
    /// `stopStreaming(_:)`: every stream when `nil`.
    case stopStreaming(HVTStreamTarget?)
    /// `present()` for a library source type opens its window, unless one is open.
    case openLibrary
    /// The library window closed by itself (a pick, a cancel, or it could not show).
    case libraryClosed
    /// A key or mouse action in the preview's window, which is `size`.
    case navigation(NavigationEvent, size: HVTFrameSize)

    // MARK: GStreamer and the work done off the queue

    /// A message from the bus of session `session` (which may have been replaced since).
    case bus(session: UInt64, Bus)
    /// A session for changed settings was built from the settings of `version`, or could not be.
    case built(Result<Session, HVTCameraError>, version: UInt64)
    /// The pipeline answered the request to play.
    case playingRequested(session: UInt64, StateChangeResult)
    /// The pipeline reached NULL.
    case stopped(session: UInt64)
    /// The preview's first frame reached its sink.
    case previewStarted(session: UInt64, at: ContinuousClock.Instant)
    /// The camera controls' kept values were applied to the starting camera.
    case controlsApplied(session: UInt64, applied: [String: Int64], failed: [String: String])
    /// A tick of the frame watchdog: its clock's time now, and that of the camera's last sign of life.
    case watchdog(session: UInt64, now: Double, aliveAt: Double)
    /// A camera came or went.
    case deviceChanged(HVTCameraController.DeviceChange)
    /// A timer ran out.
    case timer(TimerID, at: Moment)
    /// The simulated torch was lit for a recording on `session`.
    case torchLit(session: UInt64)
    /// A photo is taken (encoded and written, or failed); `frame` is the frame it shows.
    case photoTaken(PhotoRequest, Result<HVTCapture, HVTCameraError>, frame: FrameTap.Frame?)
    /// The delegate receives (or the caller is handed) `takePicture()` photo `id`.
    case photoHandedOver(id: UInt64)
    /// The branch of recording `id` was built (its facts), or could not be.
    case recordingBuilt(id: UInt64, Result<Branch, HVTCameraError>)
    /// The branch of recording `id` was linked to the tee, or could not be.
    case recordingAttached(id: UInt64, Result<Void, HVTCameraError>)
    /// What the branch of recording `id` reports from its streaming threads.
    case recording(id: UInt64, RecordingBranch.Event)
    /// The end of stream was sent into the branch of recording `id`: its drain is judged from then.
    case endOfStreamSent(id: UInt64, at: ContinuousClock.Instant)
    /// The drain of recording `id` is checked: when a buffer last entered its encoder or file sink, and
    /// whether its microphone delivers.
    case drainChecked(id: UInt64, lastProgress: ContinuousClock.Instant?, liveAudio: Bool, at: ContinuousClock.Instant)
    /// The complete movie of recording `id` has its final name (or could not be finalized): it goes to its
    /// destination, or first to the review screen, and then its branch is removed.
    case movieFinished(id: UInt64, Result<HVTCapture, HVTCameraError>, MovieDelivery)
    /// The frame of a reviewed movie asked for as `request` was decoded (converted for the preview); `nil`
    /// when it could not be.
    case movieFrameDecoded(request: UInt64, Buffer?)
    /// A reviewed movie cut after Use Video (or, failing that, the uncut one) was delivered.
    case cutMovieDelivered
    /// The thumbnail of recording `id` was made (or could not be).
    case thumbnailMade(id: UInt64, HVTImage?)
    /// The branch of recording `id` was removed from its session.
    case recordingRemoved(id: UInt64)
    /// A try of stream `number` (branch `name`) was attached, with its RTSP server's URL, or failed.
    case streamAttached(number: Int, name: String, Result<String?, HVTCameraError>, at: Moment)
    /// The sink of stream `number`'s try `name` took data.
    case streamFlowing(number: Int, name: String, at: Moment)
    /// The streams' encoder of `encoding` could not be made or attached.
    case streamEncoderFailed(HVTStreamEncoding)
  }

  /// A bus message, as the machine needs it.
  enum Bus {
    /// An element changed state; `source` is its object path.
    case stateChanged(source: String, old: ElementState, new: ElementState)
    /// An element failed, inside `origin`. `vanished` is set when the failure is the running camera's
    /// source and its V4L2 node says the device is gone (``HVTCameraController/vanishedCamera(_:of:)``).
    case error(MessageReport, origin: ErrorOrigin, vanished: HVTCameraController.DeviceChange?, at: Moment)
    case warning(MessageReport)
    case info(MessageReport)
    case endOfStream
  }

  /// Where a failing element is, as the interpreter finds it by its object path among the objects it
  /// holds (a stream's branch the machine knows by name).
  enum ErrorOrigin: Sendable, Equatable {
    /// The pre-roll's microphone: the movies lose their sound.
    case preRollMicrophone
    /// Recording `id`'s microphone: its movie loses its sound.
    case microphone(of: UInt64)
    /// Recording `id`'s branch: that recording ends.
    case recording(UInt64)
    /// The next recording's encoding, ready and unused (``ArmedRecording``): it is taken out.
    case armedRecording
    /// Anywhere else in the pipeline (the camera, the preview, a stream's branch).
    case pipeline
  }

  /// The moment an input happened, with a random number: what a push stream's next try is computed from.
  struct Moment: Sendable {
    /// Seconds on the system's monotonic clock.
    var uptime: Double
    /// A number from 0 up to 1, the jitter of a retry's delay.
    var jitter: Double

    /// Now, with a fresh random number.
    static func now() -> Moment {
      Moment(uptime: Double(DispatchTime.now().uptimeNanoseconds) / 1e9, jitter: Double.random(in: 0..<1))
    }
  }

  /// A change of the settings: what it does to them, and what follows.
  struct SettingsChange: Sendable {
    /// Applies the change; returns what follows, or `nil` when nothing changed.
    let apply: @Sendable (inout HVTCameraController.Settings) -> Consequence?

    /// What a change of the settings does to a presented camera.
    enum Consequence: Sendable {
      /// Nothing until the next capture or `present()`.
      case none
      /// The camera restarts with them (a recording in progress is finalized and delivered first).
      case restart
      /// The running preview changes: its branch is replaced when `rebuilding`, else only its adjustable
      /// elements' properties change.
      case preview(rebuilding: Bool)
      /// The default controls are drawn again.
      case controls
    }

    /// Sets one setting to `value`; `consequence` follows when it changed.
    static func set<Value: Equatable & Sendable>(
      _ setting: WritableKeyPath<HVTCameraController.Settings, Value> & Sendable, to value: Value,
      then consequence: Consequence = .none
    ) -> SettingsChange {
      SettingsChange { settings in
        guard settings[keyPath: setting] != value else { return nil }
        settings[keyPath: setting] = value
        return consequence
      }
    }
  }
}
