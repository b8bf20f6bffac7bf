import Dispatch
import Foundation
import HVTGStreamer
import HVTSupport

/// A camera for Linux apps, with the semantics of `UIImagePickerController`: configure it, `present()`
/// it, take pictures and record movies, and receive them through a delegate — or `await` them.
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
/// Every method and property may be called from any thread, and none of them waits for GStreamer:
/// getters read a snapshot, and a call takes one step of the controller's state machine — one pure
/// function of its state and the call, as GStreamer's events and the work done are too — and leaves what
/// that step asks for to the controller's private serial queue. What takes time (the camera starting, a
/// movie draining) arrives as events and as delegate callbacks on the main actor, never on a GStreamer
/// thread (<doc:LifecycleAndThreading>, <doc:Architecture>).
///
/// The UIKit-named calls (``present()``, ``dismiss()``, ``takePicture()``, ``startVideoCapture()``,
/// ``stopVideoCapture()``) return at once, as UIKit's do. The calls that wait have names of their own:
/// ``presentAndWait()``, ``dismissAndWait()``, ``capturePhoto(to:replacingExisting:)`` and
/// ``recordMovie(to:replacingExisting:maximumDuration:)``. `present()` and `dismiss()` cannot be called
/// from `async` code (the compiler says so): there, a call that returns before the camera runs, or before
/// a movie is finalized, is a trap, so only the waiting forms are offered.
public final class HVTCameraController: Sendable {
  /// The cameras this controller uses.
  public let source: HVTCameraSource

  /// Runs the effects of the controller's steps, in order (``run(_:)``); never waits for GStreamer.
  let queue: DispatchQueue
  /// Runs the GStreamer calls that take time — starting and stopping pipelines, attaching and removing
  /// recording branches — so that the controller queue never waits for them.
  let worker: DispatchQueue
  /// Encodes and writes photos.
  let photoQueue: DispatchQueue
  /// Decodes a reviewed movie's frames and cuts it: file work that may take seconds, off the other queues.
  let editingQueue: DispatchQueue
  let hub = EventHub()
  /// The files the app-drawn overlays are drawn from.
  let overlayImages = OverlayImages()
  /// The machine's state and the snapshot derived from it, stepped by ``send(_:)``.
  let core: Locked<Core>
  /// The GStreamer objects the effects work with.
  let resources = Locked(ControllerResources())
  let name: String
  /// The controls of this controller's simulated cameras, by ``HVTCameraDeviceInfo/uniqueID``: each
  /// controller's simulated cameras are devices of their own.
  let simulatedCameras = ["simulated:rear": SimulatedCameraControls(), "simulated:front": SimulatedCameraControls()]
  /// Numbers the photos and recordings asked for, and the `waitUntilDismissed()` callers.
  private let requests = Locked<UInt64>(0)

  private static let instances = Locked(0)

  /// Creates a controller for a source (by default `.automatic`: `HVT_CAMERA_SOURCE`, else real cameras).
  ///
  /// Throws when a GStreamer element the engine itself needs is not installed (naming it), when the
  /// built-in `default` preset cannot be read, or when `source` names a device node that does not exist.
  /// Having no camera is not an error here: check ``isSourceTypeAvailable(_:source:)``; `present()` throws
  /// then. The first controller of a process pins glibc's mmap threshold (see
  /// ``HVTCameraRuntime/pinsMmapThreshold``).
  public init(source: HVTCameraSource = .automatic) throws {
    GStreamer.initialize()
    AllocatorPolicy.apply()
    let required = [
      "videotestsrc", "v4l2src", "jpegdec", "jpegenc", "tee", "queue", "capsfilter", "videoconvert", "videobalance",
      "identity", "fakesink", "appsrc", "appsink", "filesink",
    ]
    if let missing = required.first(where: { !GStreamer.hasElement($0) }) {
      throw HVTCameraError.pipelineSetupFailed(.missingElement(factory: missing, suggestion: nil))
    }
    if case .device(let path) = source.kind, !FileManager.default.fileExists(atPath: path) {
      throw HVTCameraError.noCameraAvailable(reason: "no device node \(path)")
    }
    self.source = source
    let state = ControllerMachine.State(
      settings: Settings(preset: try HVTPreset.default), environment: ProcessInfo.processInfo.environment)
    core = Locked(Core(state: state))
    let number = Self.instances.withLock { count in
      count += 1
      return count
    }
    name = "hvtcamera\(number)"
    HVTCameraRuntime.activeControllers.enter()
    queue = DispatchQueue(label: "hvtcamera.controller.\(number)")
    worker = DispatchQueue(label: "hvtcamera.pipeline.\(number)")
    photoQueue = DispatchQueue(label: "hvtcamera.photo.\(number)")
    editingQueue = DispatchQueue(label: "hvtcamera.editing.\(number)")
  }

  deinit {
    // Nothing can reach the controller any more. What is still running stops on the worker queue, which
    // keeps the sessions alive until they have; then the controller no longer counts as active for
    // `HVTCameraRuntime.shutDown()`. The last pipeline is released there with the rest, before that: a
    // pipeline finalized after `gst_deinit` is reported by the leaks tracer, and with `glimagesink` its GL
    // display (and Mesa's threads) would outlive the process's exit.
    let leftovers = Locked(resources.withLock { $0.takeAll() })
    let overlayImages = overlayImages
    worker.async {
      Self.stop(leftovers.withLock { $0.takeAll() })
      overlayImages.removeAll()
      HVTCameraRuntime.activeControllers.leave()
    }
    hub.finish()
  }

  /// Removes the recordings' branches and stops the sessions; they are released when this returns.
  private static func stop(_ leftovers: ControllerResources) {
    for recording in leftovers.recordings.values { recording.branch.remove(from: recording.session) }
    for session in leftovers.sessions.values { _ = session.stop() }
  }

  /// What ``core`` holds: the machine's state, and the effects the queue has yet to run.
  struct Core {
    var state: ControllerMachine.State
    /// The effects of the steps so far that have not run yet, in order.
    var pending: [ControllerMachine.Effect] = []
    /// The queue is running them (``runPending()``), or is about to.
    var running = false
  }

  /// Traps in debug builds when called off the controller queue.
  func assertOnQueue() {
    HVTSupport.assertOnQueue(queue)
  }

  /// A new number for a photo, a recording or a waiter.
  func nextRequestID() -> UInt64 {
    requests.withLock { count in
      count += 1
      return count
    }
  }

  /// The session being started, running or stopping while presented.
  var currentSession: CaptureSession? {
    read(\.session).flatMap { id in resources.withLock { $0.sessions[id] } }
  }

  /// Reads the machine's state as it stands after the last step, under the lock the steps take, without
  /// copying it (what the getters read: `ControllerSnapshot.swift`).
  func read<Value>(_ body: (ControllerMachine.State) -> Value) -> Value {
    core.withLock { body($0.state) }
  }

  // MARK: - Delegate and events

  /// The delegate, held weakly. Its methods run on the main actor (see ``HVTCameraControllerDelegate``
  /// for when the main actor runs them in a program without an app's main loop).
  public var cameraDelegate: (any HVTCameraControllerDelegate)? {
    get { hub.delegate }
    set { hub.delegate = newValue }
  }

  /// Every event from now on, as a stream; it ends when the controller is released. Each access
  /// returns a new stream. Errors also arrive here, as ``HVTCameraEvent/error(_:)``. The stream holds up
  /// to ``eventBufferLimit`` events its reader has not taken yet; when the reader falls further behind,
  /// the oldest are dropped (the newest kept) and counted in ``droppedEventCount``.
  public var events: AsyncStream<HVTCameraEvent> { hub.events.stream() }

  /// Every message of the camera pipeline's bus from now on, as `gst-launch-1.0 -m` prints them (state
  /// changes of each element, stream starts, latency, QoS, errors…), in order. Each access returns a new
  /// stream; it ends when the controller is released. The stream holds up to ``busMessageBufferLimit``
  /// messages its reader has not taken yet; when the reader falls further behind, the oldest are dropped
  /// (the newest kept) and counted in ``droppedBusMessageCount``.
  public var busMessages: AsyncStream<HVTBusMessage> { hub.busMessages.stream() }

  /// How many events each stream of ``events`` holds for its reader (1024): a reader that stops reading
  /// costs at most that many, and never holds the camera up.
  public static let eventBufferLimit = 1024

  /// How many messages each stream of ``busMessages`` holds for its reader (4096).
  public static let busMessageBufferLimit = 4096

  /// Events dropped so far, over every stream of ``events``, because their readers fell more than
  /// ``eventBufferLimit`` behind (also logged to the `hvtcamera` debug category).
  public var droppedEventCount: Int { hub.events.dropped }

  /// Bus messages dropped so far, over every stream of ``busMessages``, because their readers fell more
  /// than ``busMessageBufferLimit`` behind.
  public var droppedBusMessageCount: Int { hub.busMessages.dropped }

  /// GStreamer's own DOT description of the live pipeline (with the recording branch while recording),
  /// or `nil` when not presented; render it with graphviz `dot`. Wraps `gst_debug_bin_to_dot_data`.
  public func pipelineGraph() -> String? {
    currentSession?.pipeline.dotGraph()
  }

  /// GStreamer's own DOT description of the live photo pipeline (`appsrc ! … ! appsink`, into which each
  /// photo's frame is pushed), or `nil` when not presented (or before the camera was asked to play, which
  /// starts it). Wraps `gst_debug_bin_to_dot_data`.
  public func photoPipelineGraph() -> String? {
    currentSession?.startedPhotoEncoder?.dotGraph()
  }

  // MARK: - State

  /// Whether the camera is presented: from `present()` until `dismiss()`, or until a failure stops it.
  public var isPresented: Bool { read(\.isPresented) }

  /// Whether a movie is being recorded: from a `startVideoCapture()` that returned true until the
  /// recording stops (the movie may still be finishing; the delegate receives it when it is).
  public var isRecording: Bool { read { $0.recording != nil } }

  /// Whether `takePicture()` would take a photo now: the camera is presented and delivering frames, and
  /// no photo is in flight. Changes are announced with ``HVTCameraEvent/readyForCapture(_:)``, like
  /// camerabin's `ready-for-capture`.
  public var isReadyForCapture: Bool { read(\.isReadyForCapture) }

  /// What the running camera delivers (device, size, frame rate, format), or `nil` until it plays.
  public var configuration: HVTCaptureConfiguration? { read(\.configuration) }

  /// Frames the camera has delivered since it last (re)started; 0 when not presented.
  public var sourceFrameCount: UInt64 { currentSession?.tap.frameCount ?? 0 }

  /// What has reached the preview sink since the camera last (re)started — frames and the timestamps of
  /// the first and newest — or `nil` when not presented. Two readings tell how many preview frames were
  /// lost between them (see ``HVTPreviewStatistics``).
  public var previewStatistics: HVTPreviewStatistics? { currentSession?.previewMonitor.statistics }

  /// The pipeline this controller runs (or would run, if not presented) for its current settings:
  /// the model that ``HVTPipelineModel/launchCommand(mode:output:frames:streams:)`` renders as `gst-launch-1.0`.
  /// Finding the camera may take a moment (GStreamer's device monitor).
  public func pipelineModel() throws -> HVTPipelineModel {
    if let session = currentSession { return session.model }
    return try makeModel(read(\.settings))
  }

  // MARK: - Reporting

  /// Sends an event to the streams and the delegate (on the queue).
  func publish(_ event: HVTCameraEvent) {
    hub.publish(event) { [self] delegate in delegate.cameraController(self, didReceive: event) }
  }

  /// Reports an error to the delegate and the streams (on the queue).
  func fail(_ error: any Error) {
    let cameraError = HVTCameraError(error)
    publish(.error(cameraError))
    hub.toDelegate { [self] delegate in delegate.cameraController(self, didFailWithError: cameraError) }
  }

  /// Hands a capture (or why there is none) to its destination. A `takePicture()` photo (`handingOver`)
  /// stops being in flight as it is handed over: for the delegate on the main actor right before the
  /// delegate's method, so that the delegate may take the next one from there; for a caller before it
  /// resumes.
  func deliver(
    _ result: Result<HVTCapture, HVTCameraError>, to destination: ControllerMachine.Destination,
    handingOver: UInt64?
  ) {
    let handedOver: @Sendable () -> Void = { [self] in
      if let handingOver { send(.photoHandedOver(id: handingOver)) }
    }
    switch (destination, result) {
    case (.delegate, .success(let capture)):
      let info = capture.info
      hub.toDelegate(before: handedOver) { [self] delegate in
        delegate.cameraController(self, didFinishCapturingMediaWithInfo: info)
      }
    case (.delegate, .failure(let error)):
      publish(.error(error))
      hub.toDelegate(before: handedOver) { [self] delegate in delegate.cameraController(self, didFailWithError: error) }
    case (.caller(let resume), _):
      handedOver()
      resume(result)
    }
  }
}
