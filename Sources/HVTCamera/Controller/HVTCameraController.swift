import Dispatch
import Foundation
import HVTGStreamer
import Synchronization

/// A camera for Linux apps, with the semantics of `UIImagePickerController`: configure it, `present()`
/// it, take pictures and record movies, and receive them through a delegate.
///
/// Under it runs a live GStreamer pipeline — camera (`v4l2src` or the simulated `videotestsrc`) → `tee` →
/// preview, photo tap (`jpegenc`), and, while recording, `x264enc ! h264parse ! mp4mux ! filesink` —
/// built from one ``HVTPipelineModel`` that also renders as a `gst-launch-1.0` line.
///
/// ```swift
/// let camera = try HVTCameraController(source: .simulated)
/// camera.cameraDelegate = self
/// try camera.setMediaTypes([.image, .movie])
/// try camera.present()
/// camera.takePicture()
/// ```
///
/// Every method and property may be called from any thread: one private serial queue owns all state and
/// every change to the pipeline. Delegate callbacks arrive on ``delegateQueue``, never on a GStreamer
/// thread.
public final class HVTCameraController: @unchecked Sendable {
  /// The cameras this controller uses.
  public let source: HVTCameraSource

  let queue: DispatchQueue
  /// Encodes and writes photos, off the controller queue.
  let photoQueue: DispatchQueue
  let hub = EventHub()
  /// All mutable state; read and written on `queue` only.
  var state: State
  let name: String

  struct State {
    var mediaTypes: [HVTMediaType] = [.image]
    var videoQuality = QualityType.type1920x1080
    var videoMaximumDuration: Double = 600
    var cameraDevice = CameraDevice.rear
    var cameraCaptureMode = CameraCaptureMode.photo
    var cameraFlashMode = CameraFlashMode.auto
    var outputDirectory = CaptureFiles.defaultDirectory
    var previewOutput = HVTPreviewOutput.preset
    var preset: HVTPreset
    var session: CaptureSession?
    var recording: RecordingBranch?
    var photoInFlight = false
    /// The object path of the pipeline (the same name for every session), to recognise its own messages.
    var pipelinePath = ""
    /// Reports cameras coming and going while presented on real cameras.
    var deviceWatcher: DeviceWatcher?
    /// The last session's pipeline, kept after it stops so that its last state changes can still be
    /// dumped to `GST_DEBUG_DUMP_DOT_DIR`.
    var lastPipeline: Pipeline?
    var torchLit = false
  }

  private static let instances = Mutex(0)

  /// Creates a controller for a source (by default `.automatic`: `HVT_CAMERA_SOURCE`, else real cameras).
  ///
  /// Throws when a GStreamer element the engine itself needs is not installed (naming it), when the
  /// built-in `default` preset cannot be read, or when `source` names a device node that does not exist.
  /// Having no camera is not an error here: check ``isSourceTypeAvailable(_:)``; `present()` throws then.
  /// The first controller of a process pins glibc's mmap threshold (see
  /// ``HVTCameraRuntime/pinsMmapThreshold``).
  public init(source: HVTCameraSource = .automatic) throws {
    GStreamer.initialize()
    AllocatorPolicy.apply()
    let required = [
      "videotestsrc", "v4l2src", "jpegdec", "jpegenc", "tee", "queue", "capsfilter", "videoconvert", "videobalance",
      "identity", "fakesink", "appsrc", "appsink", "filesink",
    ]
    if let missing = required.first(where: { !GStreamer.hasElement($0) }) {
      throw HVTCameraError.pipelineSetupFailed(
        String(describing: GStreamerError.missingElement(factory: missing, suggestion: nil)))
    }
    if case .device(let path) = source.kind, !FileManager.default.fileExists(atPath: path) {
      throw HVTCameraError.noCameraAvailable(reason: "no device node \(path)")
    }
    self.source = source
    state = State(preset: try HVTPreset.default)
    let number = Self.instances.withLock { count in
      count += 1
      return count
    }
    name = "hvtcamera\(number)"
    queue = DispatchQueue(label: "hvtcamera.controller.\(number)")
    photoQueue = DispatchQueue(label: "hvtcamera.photo.\(number)")
  }

  deinit {
    if let session = state.session {
      state.recording?.remove(from: session)
      session.stop()
    }
    hub.finish()
  }

  // MARK: - Delegate and events

  /// The delegate, held weakly.
  public var cameraDelegate: (any HVTCameraControllerDelegate)? {
    get { hub.delegate }
    set { hub.delegate = newValue }
  }

  /// The queue delegate callbacks run on (default: the main queue). Use a serial queue.
  public var delegateQueue: DispatchQueue {
    get { hub.queue }
    set { hub.queue = newValue }
  }

  /// Every event from now on, as a stream; it ends when the controller is released. Each access
  /// returns a new stream. Errors also arrive here, as ``HVTCameraEvent/error(_:)``.
  public var events: AsyncStream<HVTCameraEvent> { hub.stream() }

  /// Every message of the camera pipeline's bus from now on, as `gst-launch-1.0 -m` prints them (state
  /// changes of each element, stream starts, latency, QoS, errors…), in order. Each access returns a new
  /// stream; it ends when the controller is released.
  public var busMessages: AsyncStream<HVTBusMessage> { hub.busStream() }

  /// GStreamer's own DOT description of the live pipeline (with the recording branch while recording), or
  /// `nil` when not presented; render it with graphviz `dot`. Wraps `gst_debug_bin_to_dot_data`.
  public func pipelineGraph() -> String? {
    queue.sync { state.session?.pipeline.dotGraph() }
  }

  // MARK: - Configuration

  /// The media types the user may capture (default `[.image]`). Set with ``setMediaTypes(_:)``.
  public var mediaTypes: [HVTMediaType] { queue.sync { state.mediaTypes } }

  /// Sets the media types. Throws for an empty list, or when none of them can be captured from this
  /// source (``availableMediaTypes(for:)``). Without `.movie`, `startVideoCapture()` returns false;
  /// without `.image`, `takePicture()` has no effect.
  public func setMediaTypes(_ types: [HVTMediaType]) throws {
    guard !types.isEmpty else { throw HVTCameraError.emptyMediaTypes }
    let available = Self.availableMediaTypes(for: .camera, source: source) ?? []
    guard types.contains(where: available.contains) else {
      throw HVTCameraError.mediaTypesUnavailable(requested: types, available: available)
    }
    queue.sync {
      state.mediaTypes = types
      if !types.contains(.movie) { finishRecording(reason: .cameraStopped) }
    }
  }

  /// The size of photos and movies (default `.type1920x1080`). Changing it while presented restarts the
  /// camera with the new size (a recording in progress is finalized and delivered first).
  public var videoQuality: QualityType {
    get { queue.sync { state.videoQuality } }
    set { update(\.videoQuality, to: newValue, onChange: restartIfPresented) }
  }

  /// The longest a recording may last, in seconds (default 600). The recording stops by itself when a
  /// frame's timestamp reaches it, so the movie lasts exactly this long. Values below one frame interval
  /// (1/30 s) are raised to it.
  public var videoMaximumDuration: Double {
    get { queue.sync { state.videoMaximumDuration } }
    set { queue.sync { state.videoMaximumDuration = newValue.isNaN ? 600 : max(newValue, 1.0 / 30) } }
  }

  /// Which camera to use (default `.rear`). Changing it while presented switches cameras (a recording in
  /// progress is finalized and delivered first).
  public var cameraDevice: CameraDevice {
    get { queue.sync { state.cameraDevice } }
    set { update(\.cameraDevice, to: newValue, onChange: restartIfPresented) }
  }

  /// Photo or video (default `.photo`). Switching never stops the camera; switching to `.photo` while
  /// recording finalizes and delivers the movie.
  public var cameraCaptureMode: CameraCaptureMode {
    get { queue.sync { state.cameraCaptureMode } }
    set {
      update(\.cameraCaptureMode, to: newValue) {
        if newValue == .photo { finishRecording(reason: .cameraStopped) }
      }
    }
  }

  /// Flash (photo mode) or torch (video mode) setting (default `.auto`). Only cameras with a flash use
  /// it (see ``isFlashAvailable(for:source:)``).
  public var cameraFlashMode: CameraFlashMode {
    get { queue.sync { state.cameraFlashMode } }
    set { queue.sync { state.cameraFlashMode = newValue } }
  }

  /// Where captures are written (default: a folder of this process's own in the temporary directory).
  /// Created when needed. Names are unique (`IMG_…jpg`, `MOV_…mp4`).
  public var outputDirectory: URL {
    get { queue.sync { state.outputDirectory } }
    set { queue.sync { state.outputDirectory = newValue } }
  }

  /// The pipeline preset (default: the built-in `default`): formats, encoders, muxer, preview sink.
  /// Setting it also sets ``videoQuality`` to the preset's quality; while presented, the camera restarts
  /// with it (a recording in progress is finalized and delivered first).
  public var preset: HVTPreset {
    get { queue.sync { state.preset } }
    set {
      queue.sync {
        let changed = state.preset != newValue || state.videoQuality != newValue.quality
        state.preset = newValue
        state.videoQuality = newValue.quality
        if changed { restartIfPresented() }
      }
    }
  }

  /// Where the live preview goes (default `.preset`: the preset's sink). Takes effect at the next
  /// `present()`.
  public var previewOutput: HVTPreviewOutput {
    get { queue.sync { state.previewOutput } }
    set { queue.sync { state.previewOutput = newValue } }
  }

  /// Changes a setting on the queue and, if its value changed, runs `onChange` there too.
  private func update<Value: Equatable>(
    _ setting: WritableKeyPath<State, Value>, to value: Value, onChange: () -> Void = {}
  ) {
    queue.sync {
      guard state[keyPath: setting] != value else { return }
      state[keyPath: setting] = value
      onChange()
    }
  }

  // MARK: - State

  /// Whether the camera is running (between `present()` and `dismiss()`).
  public var isPresented: Bool { queue.sync { state.session != nil } }

  /// Whether a movie is being recorded.
  public var isRecording: Bool { queue.sync { state.recording != nil } }

  /// What the running camera delivers (device, size, frame rate, format), or `nil` when not presented.
  public var configuration: HVTCaptureConfiguration? { queue.sync { state.session?.model.configuration } }

  /// Frames the camera has delivered since it last (re)started; 0 when not presented.
  public var sourceFrameCount: UInt64 { queue.sync { state.session?.tap.frameCount ?? 0 } }

  /// What has reached the preview sink since the camera last (re)started — frames and the timestamps of
  /// the first and newest — or `nil` when not presented. Two readings tell how many preview frames were
  /// lost between them (see ``HVTPreviewStatistics``).
  public var previewStatistics: HVTPreviewStatistics? { queue.sync { state.session?.previewMonitor.statistics } }

  /// The pipeline this controller runs (or would run, if not presented) for its current settings:
  /// the model that ``HVTPipelineModel/launchCommand(mode:output:frames:)`` renders as `gst-launch-1.0`.
  public func pipelineModel() throws -> HVTPipelineModel {
    try queue.sync { try state.session?.model ?? makeModel() }
  }

  // MARK: - Presenting

  /// Starts the camera: builds the live pipeline and sets it to PLAYING (preview running).
  /// Does nothing if already presented. Throws when there is no camera, the requested device does not
  /// exist, or GStreamer cannot start it (with GStreamer's message).
  public func present() throws {
    try queue.sync {
      guard state.session == nil else { return }
      do {
        try startSession()
      } catch {
        throw HVTCameraError(error)
      }
    }
  }

  /// Stops the camera. A recording in progress is finalized and delivered first, and a photo being
  /// encoded is delivered. Does nothing when not presented. When it returns, every callback of the
  /// session (down to the pipeline's state change to NULL) is queued on the delegate queue.
  public func dismiss() {
    queue.sync { stopSession() }
    queue.sync {}  // the bus messages of the shutdown were handed to the queue during stopSession()
  }

  /// The user's cancel: calls `cameraControllerDidCancel` on the delegate queue. The camera stays
  /// presented until `dismiss()`, as with `UIImagePickerController`.
  public func cancel() {
    hub.toDelegate { [self] delegate in delegate.cameraControllerDidCancel(self) }
  }

  // MARK: - Internals (on `queue`)

  /// The model of the pipeline for the current settings and camera.
  func makeModel() throws -> HVTPipelineModel {
    let cameras = CameraDiscovery.devices(for: source, environment: ProcessInfo.processInfo.environment)
    guard !cameras.isEmpty else {
      throw HVTCameraError.noCameraAvailable(
        reason: "no V4L2 camera was found and the simulated camera is not enabled (set HVT_CAMERA_SOURCE=simulated)")
    }
    guard let camera = cameras.first(where: { $0.position == state.cameraDevice }) else {
      throw HVTCameraError.cameraDeviceUnavailable(state.cameraDevice)
    }
    if let failure = camera.failure { throw failure }
    let preset = state.preset
    // A preset's own source is opened (in READY) to learn what it offers.
    let deviceCaps = try preset.source.map { try CameraDiscovery.probeCaps(of: $0) } ?? camera.caps
    guard
      let choice = try HVTCapsSelection.choose(
        deviceCaps: deviceCaps, size: state.videoQuality.requestedSize, frameRate: preset.frameRate,
        preferredFormat: preset.format)
    else {
      throw HVTCameraError.pipelineSetupFailed("\(camera.name) offers no raw or JPEG video (caps: \(deviceCaps))")
    }
    debugLog.log(
      .info, "\(camera.name): \(choice.caps) for \(state.videoQuality.commandLineName) (offers \(deviceCaps))")
    let failing: Int? = if case .simulated(let frames) = source.kind { frames } else { nil }
    let model = try HVTPipelineModel.build(
      camera: camera, choice: choice,
      settings: .init(
        preset: preset, quality: state.videoQuality, failingAfterFrames: failing, preview: state.previewOutput))
    debugLog.log(
      .info,
      "preset \(preset.name): photo encoder \(model.photoEncoderFactory), movie encoder \(model.movieEncoder) "
        + "(of \(preset.movieEncoder)), muxer \(model.movieMuxer)")
    return model
  }

  private func startSession() throws {
    let model = try makeModel()
    // The handler runs on GStreamer threads: it holds the queue, never the controller, so that the
    // controller is never released (and its pipeline stopped) on a streaming thread.
    let controller = WeakReference(self)
    let session = try CaptureSession(model: model, name: name) { [queue] message in
      queue.async { controller.target?.handle(message) }
    }
    state.session = session
    state.lastPipeline = session.pipeline
    state.pipelinePath = session.path
    let current = WeakReference(session)
    session.previewMonitor.onFirstFrame { [queue] instant in
      queue.async {
        guard let self = controller.target, let session = current.target, self.state.session === session else { return }
        self.publish(.previewStarted(at: instant))
      }
    }
    do {
      try session.start()
    } catch {
      state.session = nil
      throw error
    }
    debugLog.log(.info, "camera started: \(model.configuration)", object: session.pipeline)
    publish(.configured(model.configuration))
    if model.configuration.devicePath != nil { watchDevices(for: session) }
  }

  /// Finalizes a recording, lets a photo in progress finish, and stops the pipeline.
  func stopSession() {
    guard let session = state.session else { return }
    finishRecording(reason: .cameraStopped)
    photoQueue.sync {}
    state.session = nil
    state.deviceWatcher = nil
    session.stop()
    // A pipeline flushes its bus on the way to NULL, so GStreamer never posts this last change.
    queue.async { self.publish(.stateChanged(from: .ready, to: .null)) }
  }

  /// Restarts the camera with the current settings after a change of device or quality.
  private func restartIfPresented() {
    guard state.session != nil else { return }
    stopSession()
    do {
      try startSession()
    } catch {
      fail(HVTCameraError(error))
    }
  }

  /// Sends an event to the streams and the delegate.
  func publish(_ event: HVTCameraEvent) {
    hub.publish(event) { [self] delegate in delegate.cameraController(self, didReceive: event) }
  }

  /// Reports an error to the delegate and the streams; `afterwards` runs on the delegate queue after it.
  func fail(_ error: any Error, afterwards: (@Sendable () -> Void)? = nil) {
    let cameraError = HVTCameraError(error)
    publish(.error(cameraError))
    hub.toDelegate(
      { [self] delegate in delegate.cameraController(self, didFailWithError: cameraError) }, afterwards: afterwards)
  }

  /// Hands a capture to the delegate; `afterwards` runs on the delegate queue after it.
  func deliver(_ info: [InfoKey: any Sendable], afterwards: (@Sendable () -> Void)? = nil) {
    hub.toDelegate(
      { [self] delegate in delegate.cameraController(self, didFinishCapturingMediaWithInfo: info) },
      afterwards: afterwards)
  }
}
