import Dispatch
import HVTGStreamer
import HVTSupport

/// The encoder the streams of one encoding share, as ``HVTPipelineModel/streamEncoding(for:)`` describes
/// it: a branch of the camera's tee that encodes as movies are encoded (or at the encoding's size and
/// rate), ending in a tee of its own (`streams`, `streams-LABEL`) that each target's branch
/// (``StreamBranch``) links to, and, for the movies' encoding, the recordings made meanwhile. With a
/// pre-roll, the pre-roll's encoder runs already and the streams of the movies' encoding link to its tee
/// instead.
///
/// `@unchecked Sendable`: its variables are written only by ``attach(to:)`` and ``remove(from:)``, on the controller's
/// worker queue (asserted in debug builds).
final class StreamEncoder: @unchecked Sendable {
  /// The tee the streams link to.
  let tee: Element
  /// What leaves frames out when the encoder cannot keep up (``HVTSlowEncoderPolicy/leaveFramesOut``), and
  /// tells a movie recorded on it how many of its frames it left out; `nil` when the camera waits for it.
  let backlog: ContinuousEncoderBacklog?
  private let bin: Bin
  private var cameraPad: Pad?
  private var cameraTee: Element?
  /// The controller's worker queue, the only one that attaches and removes the encoder.
  private let worker: DispatchQueue

  /// Builds the encoder's bin and tee for `model`'s streams of `encoding` (not yet attached), to be
  /// attached and removed on `worker`. With the model's ``HVTPipelineModel/continuousBacklog``, frames the
  /// encoder has no room for are left out, and `onDropped` is called (on a streaming thread) with the
  /// total for the first, then at most once a second.
  init(
    model: HVTPipelineModel, encoding streamEncoding: HVTStreamEncoding, worker: DispatchQueue,
    onDropped: @escaping @Sendable (Int) -> Void
  ) throws {
    self.worker = worker
    bin = Bin(name: streamEncoding.isMovie ? "stream-encoding" : "stream-encoding-\(streamEncoding.label)")
    let encoding = model.streamEncoding(for: streamEncoding)
    let chain = try ElementChain(encoding.chain, in: bin)
    tee = try ElementChain.make(encoding.tee)
    guard let entry = chain.first.staticPad("sink"), let exit = chain.last.staticPad("src") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: bin.name, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    try bin.addGhostPad("src", target: exit)
    // A movie recorded on the encoder takes its frames as they come: what waits in its queue and the
    // recording's own.
    backlog = try ContinuousEncoderBacklog.bounding(
      chain.first, of: model, retention: Self.backlogRetention, onDropped: onDropped)
  }

  /// How long the frames the encoder left out are remembered (nanoseconds): far longer than a movie's
  /// frames wait in its queue.
  static let backlogRetention: UInt = 30_000_000_000

  /// Adds the bin and the tee to the session's running pipeline and links them after a new pad of the
  /// camera's tee, between two frames. Call it off the controller queue (the encoder takes a moment to
  /// start).
  func attach(to session: CaptureSession) throws {
    assertOnQueue(worker)
    try session.pipeline.add(bin)
    try session.pipeline.add(tee)
    try bin.link(to: tee)
    guard tee.syncStateWithParent(), bin.syncStateWithParent(), let ghost = bin.staticPad("sink"),
      let pad = session.tee.requestPad("src_%u")
    else {
      remove(from: session)
      throw HVTCameraError.streamFailed(target: "every stream", reason: "the stream encoder did not start")
    }
    (cameraPad, cameraTee) = (pad, session.tee)
    do {
      try pad.link(to: ghost)
    } catch {
      remove(from: session)
      throw error
    }
  }

  /// Stops the encoder and takes it and its tee out of the pipeline, once no stream links to it. Call it
  /// off the controller queue.
  func remove(from session: CaptureSession) {
    assertOnQueue(worker)
    if let cameraPad, let ghost = bin.staticPad("sink") {
      cameraPad.unlink(from: ghost)
      cameraTee?.releaseRequestPad(cameraPad)
      self.cameraPad = nil
    }
    for element in [bin, tee] { Teardown.stop(element, removingFrom: session.pipeline, what: "the streams' encoder") }
  }
}
