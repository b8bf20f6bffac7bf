import Dispatch
import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// What the app configures. Lives in ``Shared``: set and read from any thread without waiting.
  struct Settings: Sendable {
    var mediaTypes: [HVTMediaType] = [.image]
    var videoQuality = QualityType.type1920x1080
    var videoSize: HVTCaptureSize?
    var photoSize: HVTCaptureSize?
    var videoMaximumDuration: Double = 600
    var preRollDuration: Double = 0
    var encoding = EncoderTuning.Request()
    var capturesAudio = true
    var microphone: HVTMicrophone?
    var thumbnailMaximumDimension = 320
    var location: HVTLocation?
    var mediaTags = HVTMediaTags()
    var cameraDevice = CameraDevice.rear
    var cameraCaptureMode = CameraCaptureMode.photo
    var cameraFlashMode = CameraFlashMode.auto
    var outputDirectory = CaptureFiles.defaultDirectory
    var previewOutput = HVTPreviewOutput.automatic
    var mirrorsFrontPreview = true
    var previewRectangle: HVTRect?
    var cameraViewTransform = HVTAffineTransform.identity
    var cameraOverlays: [HVTCameraOverlay] = []
    /// ``cameraOverlays`` with app-drawn pixels replaced by their image files: what is drawn.
    var drawnOverlays: [HVTCameraOverlay] = []
    var overlayBurnsIntoCaptures: HVTOverlayTargets = []
    var showsCameraControls = true
    var allowsEditing = false
    var sourceType = HVTCameraController.SourceType.camera
    var editingCropRect: HVTRect?
    var preset: HVTPreset
    var drainStallTimeout: Double = 10
    var startTimeout: Double = 10
    var cameraSettingsStore = HVTCameraSettingsStore.standard
    var cameraStallTimeout: Double = 3

    /// The size asked of the camera: the photo size when one is set, else the movies'; `nil` for the
    /// largest it offers (or the ``QualityType/typeHigh`` quality's).
    var cameraSize: HVTFrameSize? {
      photoSize.map(\.requested) ?? movieSize
    }

    /// The movies' size: ``videoSize``'s, else the quality's; `nil` for the camera's largest.
    var movieSize: HVTFrameSize? {
      videoSize.map(\.requested) ?? videoQuality.requestedSize
    }

    /// Where the preview goes: ``previewOutput`` with ``HVTPreviewOutput/automatic`` resolved for the
    /// preset and this process's display.
    var shownPreview: HVTPreviewOutput {
      previewOutput.resolved(presetPreview: preset.preview, environment: ProcessInfo.processInfo.environment)
    }

    /// What the preview branch is built from, with the controls as they look while nothing is recorded
    /// or reviewed (the controller queue adds those: ``HVTCameraController/currentPreview(_:)``).
    var preview: HVTPipelineModel.PreviewSettings {
      .init(
        output: shownPreview, mirrorsFront: mirrorsFrontPreview, transform: cameraViewTransform,
        overlays: drawnOverlays,
        controls: showsCameraControls
          ? CameraControls.Look(
            mode: cameraCaptureMode, flash: cameraFlashMode,
            canSwitchMode: mediaTypes.contains(.image) && mediaTypes.contains(.movie), editing: allowsEditing,
            recording: nil, review: nil)
          : nil)
    }
  }

  /// The lock-protected snapshot every getter reads: the settings, and what the camera is doing as far
  /// as a caller can tell. Calls update it at once (a `startVideoCapture()` that returned true makes
  /// `isRecording` true before the branch exists); the controller queue keeps it current as events
  /// arrive.
  struct Shared: Sendable {
    var settings: Settings {
      didSet { settingsVersion &+= 1 }
    }
    /// Counts changes of ``settings``, so that `present()` can tell whether the settings it built a
    /// pipeline from are still current.
    var settingsVersion: UInt64 = 0
    /// Between `present()` and `dismiss()` (or a failure that stopped the camera).
    var isPresented = false
    /// The session being started or running.
    var session: CaptureSession?
    /// What the running camera delivers; set once it plays.
    var configuration: HVTCaptureConfiguration?
    /// The recording asked for or running (its number), until it is stopped.
    var recording: UInt64? {
      didSet { if recording != oldValue { recordingPaused = false } }
    }
    /// The recording is paused (``HVTCameraController/pauseVideoCapture()``); false when none runs.
    var recordingPaused = false
    /// Numbers recordings.
    var recordingCount: UInt64 = 0
    /// A `takePicture()` photo is on its way to the delegate.
    var photoInFlight = false
    /// The camera plays and its first frame has arrived.
    var cameraReady = false
    /// A photo is on the default controls' review screen.
    var isReviewing = false
    /// The library window `present()` opened for a library ``HVTCameraController/sourceType``, while open.
    var libraryWindow: HVTLibraryWindow?
    /// The targets streamed to (``HVTCameraController/startStreaming(to:)``), until stopped.
    var streams: [HVTStreamTarget] = []

    /// Whether `takePicture()` would take a photo now.
    var isReadyForCapture: Bool { isPresented && cameraReady && !photoInFlight }
  }

  /// Where the camera is in its life. Only the controller queue moves it.
  enum Phase: Equatable {
    /// Not presented.
    case idle
    /// The pipeline was asked to play; waiting for PLAYING (or an error, or the start timeout).
    case starting
    /// Frames flow.
    case running
    /// Recordings drain and photos finish; then the pipeline goes to NULL off the queue.
    case stopping
  }

  /// What the frame watchdog knows about the camera; times are on the watchdog's clock (seconds since
  /// the session's watch began, see ``HVTCameraController/WatchClock``).
  enum StallState: Equatable {
    /// Frames arrive.
    case flowing
    /// No frame since this time, for longer than a few frame intervals.
    case stalled(since: Double)
    /// The camera stalled past ``HVTCameraController/cameraStallTimeout``, for `stalledFor` seconds, and
    /// was reopened; no frame yet.
    case reopened(stalledFor: Double)
  }

  /// What happens once the stopping session has reached NULL.
  enum AfterStop {
    /// Nothing: the camera stays dismissed.
    case nothing
    /// A session `present()` built meanwhile starts.
    case start(CaptureSession)
    /// A session is built with the current settings (a change of device, quality or preset).
    case rebuild
  }

  /// Who receives a capture: the delegate (`takePicture()`, `startVideoCapture()`), or the caller of an
  /// `async` capture.
  enum Destination: Sendable {
    case delegate
    case caller(@Sendable (Result<HVTCapture, HVTCameraError>) -> Void)
  }

  /// Everything the controller queue owns. Read and written only there (asserted in debug builds).
  struct State {
    var phase = Phase.idle
    /// The session of `phase` (nil when idle).
    var session: CaptureSession?
    /// Fires when the camera takes too long to reach PLAYING.
    var startTimer: DispatchSourceTimer?
    /// The pipeline refused PLAYING; its error message is awaited (it follows at once) before reporting.
    var startRefused = false
    /// Checks every frame interval that the running camera still delivers frames.
    var frameWatchdog: DispatchSourceTimer?
    /// Where the watchdog stands: frames flowing, the camera stalled, or reopened after a stall.
    var stall = StallState.flowing
    var afterStop = AfterStop.nothing
    /// The recording taking frames.
    var recording: Recording?
    /// A recording asked for while the camera was starting; it begins when the camera plays.
    var pendingRecording: RecordingRequest?
    /// Why the pending recording was stopped before it began: it stops right after its first frames.
    var pendingStop: HVTRecordingStopReason?
    /// Recordings finishing (draining their branch) on the running or stopping session.
    var draining: [Recording] = []
    /// Photos started and not yet handed over; the session stops only after them.
    var photosInProgress = 0
    /// Photos asked for while the camera was (re)starting; they take its first frame when it runs.
    var photosAwaitingCamera: [PhotoRequest] = []
    /// `present()` callers waiting for the camera to be ready.
    var readyWaiters: [@Sendable (Result<Void, HVTCameraError>) -> Void] = []
    /// `dismiss()` callers waiting for the camera to be stopped.
    var stopWaiters: [@Sendable () -> Void] = []
    /// `waitUntilDismissed()` callers, by number, until the camera is no longer presented.
    var dismissWaiters: [UInt64: @Sendable () -> Void] = [:]
    /// Numbers `dismissWaiters`.
    var dismissWaiterCount: UInt64 = 0
    /// The readiness last announced with ``HVTCameraEvent/readyForCapture(_:)``.
    var announcedReadiness = false
    /// The object path of the pipeline (the same name for every session), to recognise its own messages.
    var pipelinePath = ""
    /// Reports cameras coming and going while presented on real cameras: a `DeviceWatcher` or a
    /// ``DeviceNodeWatcher``, held only to keep it watching.
    var deviceWatcher: (any AnyObject & Sendable)?
    /// The last session's pipeline, kept after it stops so that its last state changes can still be
    /// dumped to `GST_DEBUG_DUMP_DOT_DIR`.
    var lastPipeline: Pipeline?
    var torchLit = false
    /// The photo on the review screen of the default controls.
    var review: Review?
    /// Seconds recorded, for the record button's clock (from the recording's progress events).
    var recordingElapsed: Double?
    /// A drag of the crop box: where the button went down, and the box then.
    var cropDrag: (x: Double, y: Double, crop: HVTRect)?
    /// The streams asked for, running or waiting for the camera or for their next try.
    var streams: [Stream] = []
    /// The encoders the streams share in the running camera, by encoding (none for the movies' encoding
    /// with a pre-roll, whose encoder the streams take).
    var streamEncoders: [HVTStreamEncoding: StreamEncoder] = [:]
    /// The secrets of every stream asked for (``HVTStreamTarget/secrets``), masked in the bus messages
    /// relayed and logged, also those that come after the stream ended.
    var streamSecrets: Set<String> = []
  }

  /// A photo the user is reviewing: delivered when used, its file removed when retaken.
  struct Review {
    let capture: HVTCapture
    /// The photo's frame, shown still on the preview and cropped for the edited image.
    let frame: FrameTap.Frame
    let destination: Destination
    /// Runs once the photo is handed over or discarded (it stops being in flight).
    let handedOver: (@Sendable () -> Void)?
    /// The crop box, with editing, in the pixels of the review screen: those of the photo, mirrored
    /// when the front camera's preview is.
    var crop: HVTRect?
    /// Whether the review screen shows the photo mirrored.
    let mirrored: Bool

    /// The crop box in the photo's own pixels.
    var photoCrop: HVTRect? { crop.map { mirrored ? $0.mirrored(within: capture.image?.width ?? 0) : $0 } }
  }

  /// A recording asked for: its number, its file, where it goes, and when it stops by itself.
  struct RecordingRequest {
    let id: UInt64
    let destination: Destination
    /// The movie's file, reserved when the recording was asked for.
    let file: CaptureFiles.Reservation
    /// Seconds after which it stops by itself.
    let limit: Double
    /// The app's location and tags when it was asked for, written into the movie.
    let location: HVTLocation?
    let mediaTags: HVTMediaTags
  }

  /// A recording in progress or draining, as the controller queue tracks it. Its variables are read and
  /// written only on the controller queue; other queues only carry it back there.
  final class Recording: @unchecked Sendable {
    let request: RecordingRequest
    let branch: RecordingBranch
    let session: CaptureSession
    /// Whether `RecordingBranch.attach` has returned (EOS can only be sent into a linked branch).
    var attached = false
    /// Why it ended, once it did.
    var stopReason: HVTRecordingStopReason?
    /// The error that cut it short, if one did.
    var interruption: HVTCameraError?
    /// A stop waits for ``RecordingBranch/minimumFrames`` before the end of stream is sent.
    var waitingForFrames = false
    /// When the end of stream was sent: the drain's progress is judged from then.
    var endOfStreamSent: ContinuousClock.Instant?
    /// Delivered or given up: nothing happens to it any more but the removal of its branch.
    var finished = false
    /// The drain stalled once and the movie's sound was ended by hand (``RecordingBranch/endAudio()``).
    var audioEndForced = false
    /// The thumbnail of the movie's first frame, once made.
    var thumbnail: HVTImage?
    /// The thumbnail is being made on the photo queue.
    var makingThumbnail = false
    /// The delivery of a movie complete before its thumbnail was made, to run when it is.
    var whenThumbnailMade: (() -> Void)?
    /// Watches a drain's progress, or a stop waiting for its frames.
    var timer: DispatchSourceTimer?
    /// The streams' encoder the movie takes its video from (``EncodedFeed/streams(_:)``): it runs until
    /// the branch is removed, also when the last stream stops first.
    let streamEncoder: StreamEncoder?

    init(request: RecordingRequest, branch: RecordingBranch, session: CaptureSession, streamEncoder: StreamEncoder?) {
      self.request = request
      self.branch = branch
      self.session = session
      self.streamEncoder = streamEncoder
    }
  }
}
