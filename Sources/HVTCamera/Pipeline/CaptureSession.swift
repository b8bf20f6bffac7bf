import Foundation
import HVTGStreamer
import HVTSupport

/// One camera pipeline, built from a model: `source… ! tee`, the preview branch, the frame tap on the
/// tee, the photo encoder, and the bus relayed to a handler. Rebuilt when the device or quality changes;
/// recording branches come and go on top of it.
///
/// Building and stopping take as long as GStreamer needs (opening the device, joining streaming
/// threads): the controller does both off its own queue, and learns that the camera runs from the bus.
final class CaptureSession: Sendable {
  /// Tells this session's bus messages from those of earlier sessions, whose pipelines have the same name.
  let id: UInt64
  let pipeline: Pipeline
  let tee: Element
  /// The simulated camera's light (`videobalance`), for the flash and the torch; `nil` without a flash.
  let light: Element?
  /// The V4L2 node of a real camera's flash LED, for the flash and the torch.
  let flashNode: String?
  /// The simulated camera's controls, which this pipeline shows; `nil` for other cameras.
  private let simulatedControls: SimulatedCameraControls?
  let tap = FrameTap()
  /// What every preview branch shares: the frame counter, navigation, the review's still frame.
  let previewHooks: PreviewHooks
  /// The photo pipeline's description, and the pipeline once ``requestPlaying()`` made it (while the
  /// camera's first frame comes, not before the camera starts), until ``stop()``.
  private let photoChain: [HVTElementDescription]
  private let photo = Locked<(encoder: PhotoEncoder?, stopped: Bool)>((nil, false))
  /// The encoding that keeps the newest seconds of video for the next movie; `nil` without a pre-roll.
  let preRoll: PreRollBuffer?
  /// The model as it runs, and the preview branch attached to the tee; both change when the preview
  /// output does.
  private let current: Locked<(model: HVTPipelineModel, preview: PreviewBranch)>
  private let previews = Locked<Int>(0)

  private static let sessions = Locked<UInt64>(0)
  /// The thumbnail pipeline (``Thumbnail``), made at the first thumbnail, for the size it makes; none is
  /// made once the session stopped.
  private let thumbnails = Locked<(current: (size: HVTFrameSize, encoder: PhotoEncoder)?, stopped: Bool)>((nil, false))
  /// The next recording's encoding, ready in the pipeline (``ArmedRecording``); `stopped` once the session
  /// stopped, when none is armed again.
  private let armed = Locked<(recording: ArmedRecording?, stopped: Bool)>((nil, false))
  /// What to do, on the posting thread, when an element inside a bin (by its path) posts an error.
  private let errorHandlers = Locked<[String: @Sendable (MessageReport) -> Void]>([:])

  /// Builds the pipeline (in NULL) from the model's topology, its preview wired for `output` (key and
  /// mouse actions in its window to `onNavigation`), and routes its bus to `onMessage`, with this
  /// session's ``id`` (both called on GStreamer's threads). A simulated camera shows the values of
  /// `simulatedControls`. With the model's pre-roll, `onPreRollFilled` is called (on a streaming thread)
  /// when it first holds its duration.
  init(
    model: HVTPipelineModel, output: HVTPreviewOutput, name: String, simulatedControls: SimulatedCameraControls? = nil,
    onNavigation: @escaping @Sendable (NavigationEvent, HVTFrameSize) -> Void = { _, _ in },
    onPreRollFilled: @escaping @Sendable (HVTPreRollFill) -> Void = { _ in },
    onMessage: @escaping @Sendable (UInt64, BusMessage) -> Void
  ) throws {
    id = Self.sessions.withLock { count in
      count += 1
      return count
    }
    pipeline = Pipeline(named: name)
    let camera = try ElementChain(model.cameraChain, in: pipeline)
    if camera.first.factoryName == "pipewiresrc", let output = camera.first.staticPad("src") {
      Self.keepFormat(after: camera.elements[1])
      ArrivalTimestamps.spaceOut(on: output)
    }
    let tee = camera.last
    guard let teeSink = tee.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: tee.path, pad: "sink"))
    }
    tap.install(on: teeSink)
    self.tee = tee
    previewHooks = PreviewHooks(onNavigation: onNavigation)
    let preview = try PreviewBranch(
      chain: model.preview, controls: model.previewControls, output: output, name: "preview-branch-0",
      hooks: previewHooks, windowSize: model.configuration.size)
    try preview.attach(to: pipeline, tee: tee)
    current = Locked((model, preview))
    preRoll = try model.preRoll.map { try PreRollBuffer($0, of: model, onFilled: onPreRollFilled) }
    try preRoll?.attach(to: pipeline, tee: tee)
    light = pipeline.element(named: HVTPipelineModel.lightName)
    flashNode = model.flashNode
    self.simulatedControls = simulatedControls
    if let simulatedControls, let balance = pipeline.element(named: SimulatedCameraControls.balanceName),
      let crop = pipeline.element(named: SimulatedCameraControls.cropName)
    {
      try simulatedControls.attach(.init(balance: balance, crop: crop, size: model.configuration.size), session: id)
    }
    photoChain = model.photoPipeline
    pipeline.bus.setSyncHandler { [id, errorHandlers] message in
      if case .error(let report) = message {
        let handlers = errorHandlers.withLock { $0 }
        handlers.filter { report.source.hasPrefix($0.key + "/") }.values.forEach { $0(report) }
      }
      onMessage(id, message)
    }
  }

  /// Keeps the `RECONFIGURE` events a tee sends upstream whenever a branch is linked (a recording, a new
  /// preview) from reaching `pipewiresrc`: they are dropped at the sink pad of the element after it (the
  /// camera's caps filter), before its own pad is marked for renegotiation. Its caps are fixed caps of the
  /// camera's and never change, but `pipewiresrc` (0.3.65) answers every renegotiation by disconnecting
  /// and reconnecting its stream, which resets its clock and gives the next frames timestamps of another
  /// timeline: a recording started then reached its maximum duration after two frames.
  private static func keepFormat(after element: Element) {
    element.staticPad("sink")?.addProbe(.eventUpstream) { _, info in info.isReconfigure ? .drop : .ok }
  }

  /// Calls `handler` with the error on the posting thread — before the failing element returns its error
  /// to the elements upstream, or its state change fails — when an element inside the bin at `path`
  /// posts an error; `nil` removes it. The handler only records the fact.
  func onError(inside path: String, _ handler: (@Sendable (MessageReport) -> Void)?) {
    errorHandlers.withLock { $0[path] = handler }
  }

  /// The model the pipeline runs, with the preview chain of the current output.
  var model: HVTPipelineModel { current.withLock { $0.model } }

  /// The preview branch attached to the tee.
  var preview: PreviewBranch { current.withLock { $0.preview } }

  /// Counts what reaches the preview sink.
  var previewMonitor: PreviewMonitor { previewHooks.monitor }

  /// Swaps the preview for one showing `output`, built from `model`'s preview chain: the new branch is
  /// attached first, then the old one is unlinked between two frames and stopped, so the source,
  /// photos and recordings go on. On failure the current preview stays. Takes as long as the new sink
  /// needs to open its window: call it off the controller queue.
  func replacePreview(model: HVTPipelineModel, output: HVTPreviewOutput) throws {
    let number = previews.withLock { count in
      count += 1
      return count
    }
    let replacement = try PreviewBranch(
      chain: model.preview, controls: model.previewControls, output: output, name: "preview-branch-\(number)",
      hooks: previewHooks, windowSize: model.configuration.size)
    try replacement.attach(to: pipeline, tee: tee)
    let old = current.withLock { current in
      defer { current = (model, replacement) }
      return current.preview
    }
    old.detach(from: pipeline, tee: tee)
  }

  /// Takes on `model`'s preview geometry and controls in the running preview branch (see
  /// ``PreviewBranch/canAdopt(_:)``). The branch renders the controls (milliseconds) outside the lock, so
  /// that the controller queue, which reads the model, never waits for the drawing; adoptions and
  /// replacements run one at a time on the controller's worker queue.
  func adoptPreview(model: HVTPipelineModel) throws {
    try preview.adopt(model.preview, controls: model.previewControls)
    current.withLock { $0.model = model }
  }

  /// The pipeline's own object path, to tell its messages from its children's.
  var path: String { pipeline.path }

  /// Asks the pipeline to go to PLAYING, then builds and starts the photo pipeline while the first frame
  /// comes.
  /// Returns once the device is open (GStreamer opens it on the way to READY); the bus says when frames
  /// flow. On failure, dumps the pipeline as `<name>-error` to `GST_DEBUG_DUMP_DOT_DIR`.
  func requestPlaying() -> StateChangeResult {
    let result = pipeline.setState(.playing)
    if result == .failure { pipeline.dumpDotFile(named: "\(pipeline.name)-error") }
    guard result != .failure else { return result }
    do {
      _ = try photoEncoder()
    } catch {
      debugLog.log(.error, "the photo pipeline did not start: \(error)", object: pipeline)
      return .failure
    }
    return result
  }

  /// The photo pipeline: built and started by ``requestPlaying()``, or by the first photo if it comes
  /// first (a photo taken as the first frame arrives); throws ``HVTCameraError/notPresented`` once the
  /// session stopped.
  func photoEncoder() throws -> PhotoEncoder {
    try photo.withLock { photo in
      if let encoder = photo.encoder { return encoder }
      guard !photo.stopped else { throw HVTCameraError.notPresented }
      let encoder = try PhotoEncoder(chain: photoChain, name: "\(pipeline.name)-photo")
      photo.encoder = encoder
      return encoder
    }
  }

  /// The photo pipeline once started, without starting it; `nil` before, and once the session stopped.
  var startedPhotoEncoder: PhotoEncoder? { photo.withLock { $0.encoder } }

  /// Arms the next recording's encoding (``ArmedRecording``) from the model's recording chain, unless one
  /// is armed, a branch holds the name ``HVTPipelineModel/recordingBranchName``, or the session stopped.
  /// A failure is logged: the next recording builds its own. Call it on the worker queue.
  func armRecording() {
    guard armed.withLock({ $0.recording == nil && !$0.stopped }) else { return }
    do {
      guard
        let recording = try ArmedRecording.arm(model.recording, named: HVTPipelineModel.recordingBranchName, on: self)
      else { return }
      armed.withLock { $0.recording = recording }
    } catch {
      debugLog.log(.warning, "the next recording's encoding could not be armed: \(error)", object: pipeline)
    }
  }

  /// Hands the armed encoding to the recording whose branch is called `name`; `nil` when none is armed
  /// under that name, or it failed (then it is taken out). Call it on the worker queue.
  func takeArmedRecording(named name: String) -> ArmedRecording? {
    guard let recording = takeArmed(where: { $0.bin.name == name }) else { return nil }
    guard recording.isUsable else {
      recording.discard(from: self)
      return nil
    }
    return recording
  }

  /// The armed encoding's bin's object path, while one is armed.
  var armedRecordingPath: String? { armed.withLock { $0.recording?.bin.path } }

  /// Takes the armed encoding out of the pipeline (photo mode, where no recording comes). Call it on the
  /// worker queue.
  func disarmRecording() {
    takeArmed { _ in true }?.discard(from: self)
  }

  /// The armed encoding, no longer held here, when it `matches`.
  private func takeArmed(where matches: (ArmedRecording) -> Bool) -> ArmedRecording? {
    armed.withLock { armed in
      guard let recording = armed.recording, matches(recording) else { return nil }
      armed.recording = nil
      return recording
    }
  }

  /// Whether this camera has a light the engine can fire: the simulated camera's, or a V4L2 flash LED.
  var canLight: Bool { light != nil || flashNode != nil }

  /// Lights or puts out the camera's light: the simulated camera's `videobalance`, or the V4L2 flash LED
  /// — fired as a flash for a photo (`torch` false), lit as a torch for a recording.
  func setLight(_ lit: Bool, torch: Bool) throws {
    if let light { try light.set("brightness", lit ? HVTFlashDecision.simulatedLightBrightness : 0) }
    guard let flashNode else { return }
    let flash = V4L2Flash(device: try V4L2Node(path: flashNode))
    switch (lit, torch) {
    case (true, false): try flash.fire()
    case (true, true): try flash.lightTorch()
    case (false, let torch): try flash.putOut(afterFlash: !torch)
    }
  }

  /// A thumbnail of `buffer` (a frame of this camera, described by `caps`) whose longer side is at most
  /// `maximumDimension` pixels (``Thumbnail``). The pipeline that makes it is kept for the next one of the
  /// same size. Blocks for the encode (at most ``PhotoEncoder/timeout``): call it off the controller
  /// queue, from one queue at a time.
  func thumbnail(of buffer: Buffer, caps: Caps, maximumDimension: Int) throws -> HVTImage {
    let structure = caps.structure(at: 0)
    let size = Thumbnail.size(
      width: structure.int("width") ?? 0, height: structure.int("height") ?? 0, maximumDimension: maximumDimension)
    let jpeg = try thumbnails.withLock { thumbnails -> Data in
      guard !thumbnails.stopped else { throw HVTCameraError.notPresented }
      let encoder: PhotoEncoder
      if let current = thumbnails.current, current.size == size {
        encoder = current.encoder
      } else {
        thumbnails.current?.encoder.stop()
        encoder = try PhotoEncoder(chain: Thumbnail.chain(size: size), name: "\(pipeline.name)-thumbnail")
        thumbnails.current = (size, encoder)
      }
      return try encoder.encode(buffer, caps: caps)
    }
    return HVTImage(jpegData: jpeg, width: size.width, height: size.height)
  }

  /// Stops everything: answers frame waiters, stops the photo and thumbnail encoders and sets the pipeline
  /// to NULL, which waits for its streaming threads. Returns whether the pipeline reached NULL.
  @discardableResult
  func stop() -> Bool {
    tap.cancelWaiters()
    armed.withLock { $0 = (nil, true) }
    photo.withLock { photo in
      defer { photo = (nil, true) }
      return photo.encoder
    }?.stop()
    thumbnails.withLock { thumbnails in
      thumbnails.current?.encoder.stop()
      thumbnails = (nil, true)
    }
    // No buffer of the source's pool is held here when it stops streaming.
    tap.close()
    preRoll?.close()
    let stopped = Teardown.stop(pipeline, what: "the camera pipeline")
    pipeline.bus.removeSyncHandler()
    simulatedControls?.detach(session: id)
    return stopped
  }

  deinit {
    simulatedControls?.detach(session: id)
  }
}
