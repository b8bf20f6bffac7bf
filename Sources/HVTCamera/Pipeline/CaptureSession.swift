import Dispatch
import HVTGStreamer

/// One running camera pipeline, built from a model: `source… ! tee`, the preview branch, the frame tap on
/// the tee, the photo encoder, and the bus relayed to a handler. Rebuilt when the device or quality
/// changes; the recording branch comes and goes on top of it.
final class CaptureSession: @unchecked Sendable {
  let model: HVTPipelineModel
  let pipeline: Pipeline
  let tee: Element
  /// The simulated camera's light (`videobalance`), for the flash and the torch; `nil` without a flash.
  let light: Element?
  let tap = FrameTap()
  /// Counts what reaches the preview sink.
  let previewMonitor = PreviewMonitor()
  let photoEncoder: PhotoEncoder
  /// The first error the pipeline posted, and a signal for it, so that a failed start reports it.
  private let firstError = Locked<MessageReport?>(nil)
  private let errorPosted = DispatchSemaphore(value: 0)

  /// Builds the pipeline (in NULL) and routes its bus to `onMessage` (called on GStreamer's threads).
  init(model: HVTPipelineModel, name: String, onMessage: @escaping @Sendable (BusMessage) -> Void) throws {
    self.model = model
    pipeline = Pipeline(named: name)
    let source = try ElementChain(model.source, in: pipeline)
    let tee = try ElementChain.make(HVTElementDescription("tee", name: HVTPipelineModel.teeName))
    try pipeline.add(tee)
    try source.last.link(to: tee)
    let preview = try ElementChain(model.preview, in: pipeline)
    guard let teePad = tee.requestPad("src_%u"), let previewPad = preview.first.staticPad("sink"),
      let teeSink = tee.staticPad("sink"), let previewSinkPad = preview.last.staticPad("sink")
    else { throw HVTCameraError.pipelineSetupFailed("the tee gave no pad for the preview") }
    try teePad.link(to: previewPad)
    tap.install(on: teeSink)
    previewMonitor.install(on: previewSinkPad)
    self.tee = tee
    light = pipeline.element(named: HVTPipelineModel.lightName)
    photoEncoder = try PhotoEncoder(chain: model.photoEncoder, name: "\(name)-photo")
    pipeline.bus.setSyncHandler { [firstError, errorPosted] message in
      if case .error(let report) = message {
        let isFirst = firstError.withLock { first in
          guard first == nil else { return false }
          first = report
          return true
        }
        if isFirst { errorPosted.signal() }
      }
      onMessage(message)
    }
  }

  /// The pipeline's own object path, to tell its messages from its children's.
  var path: String { pipeline.path }

  /// Sets the pipeline to PLAYING and waits (up to 10 s) until it is there; throws GStreamer's error if
  /// the camera does not start, after dumping the pipeline as `<name>-error` to `GST_DEBUG_DUMP_DOT_DIR`.
  func start() throws {
    let result = pipeline.setState(.playing)
    let settled = result == .failure ? result : pipeline.state(timeout: 10).result
    guard settled == .failure || firstError.withLock({ $0 }) != nil else { return }
    // A bin fails its state change as soon as a child posts an error, before the message has travelled
    // up to the pipeline's bus: the message follows at once.
    if settled == .failure { _ = errorPosted.wait(timeout: .now() + .seconds(1)) }
    let report = firstError.withLock { $0 }
    pipeline.dumpDotFile(named: "\(pipeline.name)-error")
    stop()
    throw report.map { HVTCameraError.gstreamer(HVTGStreamerMessage($0)) }
      ?? HVTCameraError.pipelineSetupFailed("the camera pipeline did not start")
  }

  /// Whether this camera has a light the engine can fire: the simulated camera's. (A V4L2 flash is
  /// detected and reported, but not yet fired.)
  var canLight: Bool { light != nil }

  /// Lights or darkens the simulated camera's light (flash or torch).
  func setLight(_ lit: Bool) throws {
    try light?.set("brightness", lit ? HVTFlashDecision.simulatedLightBrightness : 0)
  }

  /// Stops everything: answers frame waiters, stops the photo encoder and sets the pipeline to NULL.
  func stop() {
    tap.cancelWaiters()
    photoEncoder.stop()
    pipeline.setState(.null)
    pipeline.bus.removeSyncHandler()
  }
}
