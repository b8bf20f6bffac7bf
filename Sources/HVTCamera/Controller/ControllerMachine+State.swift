import Foundation
import HVTGStreamer

extension ControllerMachine {
  /// Everything the controller decides from: the settings, where the camera is in its life, the captures
  /// asked for and in progress, who waits for what. A value: ``ControllerMachine/step(_:_:)`` makes the
  /// next one. GStreamer's objects are not in it: the interpreter holds them
  /// (``HVTCameraController/resources``), under the numbers this state knows them by.
  struct State {
    var settings: HVTCameraController.Settings
    /// Counts changes of ``settings``, so that a session built from older settings is known to be stale.
    var settingsVersion: UInt64 = 0
    /// The process's environment as the last `present()` read it: it resolves the automatic preview.
    var environment: [String: String]
    /// Between `present()` and `dismiss()` (or a failure that stopped the camera).
    var isPresented = false
    /// The library window `present()` opened for a library ``HVTCameraController/sourceType`` is open.
    var showsLibrary = false
    var phase = Phase.idle
    /// The failure that is stopping the camera, until its pipeline reaches NULL: a photo that waited for a
    /// frame of that camera is answered with it (``ControllerMachine/Transition/photoFinished(_:_:counted:frame:)``).
    var stopCause: HVTCameraError?
    /// The failure that dismissed the camera (it was lost, or did not start, or `present()` threw), until
    /// the app presents or dismisses it again: what a caller asks of the camera meanwhile fails with it,
    /// which says why, rather than with ``HVTCameraError/notPresented``
    /// (``ControllerMachine/Transition/notPresented(toCaller:)``).
    var dismissedBy: HVTCameraError?
    /// The first preview frame of the session starting, when it came before the pipeline's PLAYING: its
    /// ``HVTCameraEvent/previewStarted(at:)`` waits for the session to run, so that whoever receives it
    /// sees the camera's configuration and readiness.
    var earlyPreviewStart: (session: UInt64, at: ContinuousClock.Instant)?
    /// The recording asked for and not stopped: at most one.
    var recording: Recording?
    /// Recordings stopped and not yet delivered (or given up) and removed, in the order they stopped.
    var endingRecordings: [EndingRecording] = []
    var photos = Photos()
    var waiters = Waiters()
    /// The readiness last announced with ``HVTCameraEvent/readyForCapture(_:)``.
    var announcedReadiness = false
    /// The photo or movie on the default controls' review screen.
    var review: Review?
    /// A drag of the crop box: where the button went down, and the box then.
    var cropDrag: CropDrag?
    /// The trim handle of a reviewed movie's timeline being dragged.
    var handleDrag: CameraControls.Handle?
    /// Reviewed movies being cut after Use Video: in flight until delivered; a stop is waited for with them.
    var moviesBeingCut = 0
    /// Seconds recorded, for the record button's clock (from the recording's progress).
    var recordingElapsed: Double?
    /// The session whose simulated torch a recording lit.
    var torchLitOn: UInt64?
    /// The streams asked for, running or waiting for the camera or for their next try, in order.
    var streams: [Stream] = []
    /// Numbers the streams, in this controller.
    var streamCount = 0
    /// The encodings whose streams' encoder runs in the current session (none for the movies' encoding
    /// with a pre-roll, whose encoder the streams take).
    var streamEncoders: Set<HVTStreamEncoding> = []
    /// The secrets of every stream asked for (``HVTStreamTarget/secrets``), masked in the bus messages
    /// relayed and logged, also those that come after the stream ended.
    var streamSecrets: Set<String> = []
    /// The object path of the pipeline (the same for every session), to recognise its own state changes.
    var pipelinePath = ""

    /// Whether `takePicture()` would take a photo now: the camera is presented and delivering frames, and
    /// no photo is in flight.
    var isReadyForCapture: Bool { isPresented && phase.running != nil && photos.inFlight == nil }

    init(settings: HVTCameraController.Settings, environment: [String: String]) {
      self.settings = settings
      self.environment = environment
    }
  }

  /// What the machine knows of a capture session, read once when it is built: its number
  /// (``CaptureSession/id``), its pipeline's object path (the same for every session of a controller),
  /// its camera, and how it encodes.
  struct Session: Sendable, Equatable {
    let id: UInt64
    let path: String
    let camera: Camera
    let encoding: Encoding

    /// What the camera delivers.
    var configuration: HVTCaptureConfiguration { camera.configuration }

    /// How a session encodes: what the recordings' and the streams' decisions take.
    struct Encoding: Sendable, Equatable {
      /// It encodes all the time for a pre-roll (``HVTCameraController/preRollDuration``).
      var preRoll = false
      /// A recording can take its video from the streams' encoder (the model has a muxer for it).
      var recordsOnStreams = true
      /// Why its movies are silent, when they are.
      var silentBecause: String?
    }

    /// A real camera (a V4L2 node, a PipeWire stream), watched for going away.
    var isRealCamera: Bool { configuration.devicePath != nil || camera.isPipeWire }

    /// The expected time between frames, in seconds (at least 10 ms).
    var frameInterval: Double { max(0.01, 1 / configuration.frameRate.framesPerSecond) }

    /// The silence that makes the camera stalled: four frame intervals, and at least half a second (a
    /// loaded machine delays frames that much).
    var stallThreshold: Double { max(4 * frameInterval, 0.5) }

    /// How often the frame watchdog looks: four times within ``stallThreshold``, so that a stall is
    /// announced at most a quarter of it late, without waking a thread at every frame (at 30 fps, 8
    /// ticks a second rather than 30).
    var watchInterval: Double { stallThreshold / 4 }

    /// Whether a stream of `encoding` needs an encoder of its own here: all but the movies' encoding with
    /// a pre-roll, whose encoder runs anyway (``HVTPipelineModel/needsStreamEncoder(for:)``).
    func needsStreamEncoder(for encoding: HVTStreamEncoding) -> Bool { !self.encoding.preRoll || !encoding.isMovie }

    /// Whether a recording begun now takes its video from the streams' encoder of the movies' encoding,
    /// when one runs (`encoders`): not after a pre-roll, whose encoder it takes.
    func recordsOnStreamEncoder(among encoders: Set<HVTStreamEncoding>) -> Bool {
      !encoding.preRoll && encoding.recordsOnStreams && encoders.contains(.movie)
    }
  }

  /// The camera a session runs: what it delivers, and, for a PipeWire stream, which node.
  struct Camera: Sendable, Equatable {
    let configuration: HVTCaptureConfiguration
    /// The camera is a PipeWire stream (`pipewiresrc`), which may have no V4L2 node.
    var isPipeWire = false
    /// The PipeWire node's serial its `pipewiresrc` targets (`target-object`).
    var pipewireSerial: String?

    /// Whether the camera that went (`name`, `path`, `serial` as
    /// ``HVTCameraController/DeviceChange/disconnected(name:path:serial:)`` gives them) is this one: by
    /// PipeWire serial when the source targets one (two virtual cameras can share a name, and have no node);
    /// else by V4L2 node; else, with no node known, by name.
    func matches(name: String, path: String?, serial: String?) -> Bool {
      if let pipewireSerial, let serial { return serial == pipewireSerial }
      if let path { return path == configuration.devicePath }
      return name == configuration.deviceName
    }
  }

  /// Where the camera is in its life. Each phase that has a session carries it.
  enum Phase {
    /// No session.
    case idle
    /// A session for changed settings is being built off the queue, from the settings of `version`;
    /// `afterStall` when it reopens a camera that stalled (``HVTCameraController/cameraStallTimeout``).
    case building(version: UInt64, afterStall: Double?)
    /// The pipeline was asked to play; waiting for PLAYING, an error or the start timeout. `refused`
    /// once it refused PLAYING: its error message is awaited (it follows at once) before reporting.
    case starting(Session, refused: Bool, afterStall: Double?)
    /// Frames flow; `stall` is what the frame watchdog found.
    case running(Session, stall: Stall)
    /// Recordings drain and photos finish; then the pipeline goes to NULL, and `then` follows.
    case stopping(Session, then: AfterStop)
    /// The pipeline of session `UInt64` goes to NULL off the queue; then `then` follows.
    case closing(UInt64, then: AfterStop)

    /// The session being started, running or stopping.
    var session: Session? {
      switch self {
      case .starting(let session, _, _), .running(let session, _), .stopping(let session, _): session
      case .idle, .building, .closing: nil
      }
    }

    /// The running session.
    var running: Session? {
      if case .running(let session, _) = self { session } else { nil }
    }
  }

  /// What follows once a stopping session has reached NULL.
  enum AfterStop {
    /// Nothing: the camera stays dismissed.
    case nothing
    /// A session `present()` built meanwhile starts.
    case start(Session)
    /// A session is built with the current settings (a change of device, quality or preset); `afterStall`
    /// when it reopens a camera that stalled for that many seconds.
    case rebuild(afterStall: Double?)
  }

  /// What the frame watchdog knows about the running camera; times are on the watchdog's clock (seconds
  /// since the session's watch began, see ``HVTCameraController/WatchClock``).
  enum Stall: Equatable {
    /// Frames arrive.
    case flowing
    /// No frame since this time, for longer than a few frame intervals.
    case stalled(since: Double)
    /// The camera stalled for `stalledFor` seconds and was reopened; no frame yet.
    case reopened(stalledFor: Double)
  }

  /// Who receives a capture: the delegate (`takePicture()`, `startVideoCapture()`), or the caller of an
  /// `async` capture.
  enum Destination: Sendable {
    case delegate
    case caller(@Sendable (Result<HVTCapture, HVTCameraError>) -> Void)
  }

  /// The photos asked for.
  struct Photos {
    /// The `takePicture()` photo, by number, from the call until the delegate receives it (or it is
    /// discarded on the review screen).
    var inFlight: UInt64?
    /// Asked for while the camera was (re)starting: each takes the next camera's first frame.
    var awaitingCamera: [PhotoRequest] = []
    /// Taken and not yet handed over; a session stops only after them.
    var inProgress = 0
  }

  /// Who waits for what, each answered exactly once.
  struct Waiters {
    /// `presentAndWait()` callers, until the camera runs or will not.
    var ready: [@Sendable (Result<Void, HVTCameraError>) -> Void] = []
    /// `dismissAndWait()` callers, until the camera has stopped.
    var stopped: [@Sendable () -> Void] = []
    /// `waitUntilDismissed()` callers, by number, until nothing is shown.
    var dismissal: [UInt64: @Sendable () -> Void] = [:]
  }

  /// A photo asked for: the frame of its moment (taken at the call), and where it goes.
  struct PhotoRequest: Sendable {
    /// Tells photos apart (a `takePicture()` photo's number is ``Photos/inFlight``).
    let id: UInt64
    /// The session at the call, or `nil` while the camera was (re)starting: then the next camera's first
    /// frame is taken.
    let session: UInt64?
    /// The newest frame at the call, or `nil` when none had arrived yet (the first one is taken).
    let frame: FrameTap.Frame?
    /// The pipeline's running time at the call, to tell the frame's age (`nil` before it plays).
    let requestTime: UInt?
    /// The moment of the call, for the frame's age when the running time is not known yet.
    let requestInstant: ContinuousClock.Instant
    /// The moment of the call on the wall clock, for the capture date.
    let requestDate: Date
    let flashMode: HVTCameraController.CameraFlashMode
    /// The app's location and tags at the call, written into the photo.
    let location: HVTLocation?
    let mediaTags: HVTMediaTags
    /// Photo mode: the flash may fire on a camera with a light.
    let inPhotoMode: Bool
    let file: CaptureFiles.Reservation
    let destination: Destination
    /// A `takePicture()` photo, which keeps ``HVTCameraController/isReadyForCapture`` false until the
    /// delegate has it.
    let isInFlight: Bool
  }

  /// A recording asked for: its number, its file, where it goes, and when it stops by itself.
  struct RecordingRequest: Sendable {
    let id: UInt64
    let destination: Destination
    /// The movie's file, reserved when the recording was asked for.
    let file: CaptureFiles.Reservation
    /// Seconds after which it stops by itself.
    let limit: Double
    /// The app's location and tags when it was asked for, written into the movie.
    let location: HVTLocation?
    let mediaTags: HVTMediaTags
    /// Whether frames the encoder has no room for are left out (``HVTSlowEncoderPolicy``).
    var slowEncoderPolicy = HVTSlowEncoderPolicy.leaveFramesOut
  }

  /// What the machine knows of a recording's branch once it is built.
  struct Branch: Equatable {
    /// The session it is added to.
    let session: UInt64
    /// It takes encoded video (a pre-roll's, the streams' encoder's): its thumbnail is made from the file.
    let takesEncodedVideo: Bool
    /// It holds ``RecordingClock/minimumFrames`` frames, or reached its limit: a stop can end it at once.
    var hasEnoughFrames = false
  }

  /// How far a recording's thumbnail is.
  enum Thumbnail {
    case none
    /// Being made on the photo queue.
    case making
    /// Made, or `nil` when it could not be.
    case made(HVTImage?)
  }

  /// The recording taking frames, or about to.
  struct Recording {
    let request: RecordingRequest
    var paused = false
    var stage: Stage
    var thumbnail = Thumbnail.none
    /// It takes its video from the streams' encoder of the movies' encoding, which runs until the branch
    /// is removed.
    var onStreamEncoder = false

    enum Stage {
      /// Asked for while the camera (re)starts: it begins when the camera runs.
      case awaitingCamera
      /// Its branch is being built and attached to `session` off the queue.
      case attaching(session: UInt64, branch: Branch?)
      /// Its branch takes frames.
      case recording(Branch)
    }

    /// Its branch, once built.
    var branch: Branch? {
      switch stage {
      case .awaitingCamera: nil
      case .attaching(_, let branch): branch
      case .recording(let branch): branch
      }
    }

    /// The session its branch is being attached to or is in.
    var branchSession: UInt64? {
      switch stage {
      case .awaitingCamera: nil
      case .attaching(let session, _): session
      case .recording(let branch): branch.session
      }
    }
  }

  /// A recording that was stopped, from the stop until its branch is removed.
  struct EndingRecording {
    let request: RecordingRequest
    let reason: HVTRecordingStopReason
    /// The error that cut it short, if one did.
    var interruption: HVTCameraError?
    var stage: Stage
    var thumbnail: Thumbnail
    /// It takes its video from the streams' encoder of the movies' encoding.
    var onStreamEncoder: Bool
    /// A `startVideoCapture()` movie stopped on the default controls: it goes to the review screen, and
    /// stays in flight until it is used or retaken.
    var reviewed = false

    enum Stage {
      /// Stopped before the camera ran: it still begins, and stops after its first frames.
      case awaitingCamera
      /// Its branch is being built and attached off the queue; the end follows once it is.
      case attaching(session: UInt64, branch: Branch?)
      /// It waits for its first ``RecordingClock/minimumFrames`` frames (or two seconds), so that the
      /// movie plays, before its end of stream.
      case waitingForFrames(Branch)
      /// The end of stream is sent: the muxer finishes the file. `since` is when the drain's progress is
      /// judged from (the end of stream once it was sent, or the sound ended by hand: `audioEnded`).
      case draining(Branch, since: ContinuousClock.Instant?, audioEnded: Bool)
      /// The file is complete: it is delivered once its thumbnail is made.
      case completing(Branch)
      /// Being delivered (the file given its final name, then handed on: ``Transition/movieFinished(_:_:_:)``)
      /// or given up: only its branch's removal is left.
      case removing(Branch)
    }

    /// Its branch, once built.
    var branch: Branch? {
      switch stage {
      case .awaitingCamera: nil
      case .attaching(_, let branch): branch
      case .waitingForFrames(let branch), .draining(let branch, _, _), .completing(let branch),
        .removing(let branch):
        branch
      }
    }

    /// The session its branch is being attached to or is in.
    var branchSession: UInt64? {
      if case .attaching(let session, _) = stage { return session }
      return branch?.session
    }

    /// Whether it is delivered or given up.
    var isFinished: Bool {
      switch stage {
      case .completing, .removing: true
      case .awaitingCamera, .attaching, .waitingForFrames, .draining: false
      }
    }
  }

  /// A photo or movie the user is reviewing: delivered when used, its file removed when retaken.
  struct Review {
    let capture: HVTCapture
    /// The photo's frame, shown still on the preview and cropped for the edited image (`nil` for a
    /// movie, whose frames are decoded from its file).
    let frame: FrameTap.Frame?
    let destination: Destination
    /// The `takePicture()` photo it is, which stays in flight until handed over or discarded.
    let handingOver: UInt64?
    /// The crop box, with editing, in the pixels of the review screen: those of the photo, mirrored
    /// when the front camera's preview is.
    var crop: HVTRect?
    /// Whether the review screen shows the photo mirrored.
    let mirrored: Bool
    /// A movie's timeline and the frame shown of it; `nil` for a photo.
    var movie: MovieReview?

    /// The crop box in the photo's own pixels.
    var photoCrop: HVTRect? { crop.map { mirrored ? $0.mirrored(within: capture.image?.width ?? 0) : $0 } }
  }

  /// A reviewed movie: its timeline, and the frame of its playhead asked for.
  struct MovieReview {
    var timeline: CameraControls.Timeline
    /// Numbers the frames asked for at the playhead: only the one asked last is shown.
    var frameRequest: UInt64 = 0
  }

  /// A drag of the review's crop box: where the button went down, and the box then.
  struct CropDrag {
    let x: Double
    let y: Double
    let crop: HVTRect
  }

  /// A stream asked for: its request, the tries to reach its target, and the caller still waiting.
  struct Stream {
    /// Tells streams' branches apart, in this controller.
    let number: Int
    let request: HVTStream
    /// The tries made so far, to name each one's branch.
    var tries = 0
    /// The current try, from its start until it ends; `nil` between tries.
    var attempt: Attempt?
    /// The tries to reach a push target's server again since it last ran.
    var retries = StreamRetries()
    /// A next try is scheduled (``TimerID/streamRetry(_:)``).
    var retryScheduled = false
    /// Where to watch it, once its RTSP server runs (else the target).
    var serverURL: String?
    /// The caller of ``HVTCameraController/startStreaming(_:)``, until the stream first runs or fails.
    var waiter: (@Sendable (Result<String, HVTCameraError>) -> Void)?

    var target: HVTStreamTarget { request.target }
    var encoding: HVTStreamEncoding { request.encoding }
    /// Where to watch it: its RTSP server's URL, else the target.
    var url: String { serverURL ?? target.description }

    /// One try: its branch's name (an error from inside it is this stream's whenever it arrives, also
    /// before the branch is attached), whether its sink took data, and whether its branch is attached.
    struct Attempt {
      let name: String
      var flowed = false
      var attached = false
    }
  }
}
