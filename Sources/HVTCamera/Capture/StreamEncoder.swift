import HVTGStreamer

/// The one encoder every stream shares: a branch of the camera's tee that encodes as movies are encoded
/// (the recording chain up to its muxer, ``HVTPipelineModel/encoding``), ending in a tee of its own
/// (`streams`) that each target's branch (``StreamBranch``) links to. Its queue is leaky: an encoder that
/// falls behind drops the streams' frames, never the preview's or a recording's. With a pre-roll, the
/// pre-roll's encoder runs already and the streams link to its tee instead, sharing one encoder with
/// the recordings.
///
/// ```
/// t. ! queue leaky=downstream ! videoconvert ! <encoder> ! h264parse ! tee name=streams
/// ```
final class StreamEncoder: @unchecked Sendable {
  /// The tee the streams link to.
  let tee: Element
  private let bin: Bin
  private var cameraPad: Pad?
  private var cameraTee: Element?

  /// The name of the streams' tee.
  static let teeName = "streams"

  /// Builds the encoder's bin and tee for `model`'s movies (not yet attached).
  init(model: HVTPipelineModel) throws {
    bin = Bin(name: "stream-encoding")
    var encoding = model.encoding
    encoding[0] = HVTElementDescription(
      "queue", name: "stream-encoding-queue",
      ["leaky": "downstream", "max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "1000000000"])
    let chain = try ElementChain(encoding, in: bin)
    tee = try ElementChain.make(HVTElementDescription("tee", name: Self.teeName, ["allow-not-linked": "true"]))
    guard let entry = chain.first.staticPad("sink"), let exit = chain.last.staticPad("src") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: bin.name, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    try bin.addGhostPad("src", target: exit)
  }

  /// Adds the bin and the tee to the session's running pipeline and links them after a new pad of the
  /// camera's tee, between two frames. Call it off the controller queue (the encoder takes a moment to
  /// start).
  func attach(to session: CaptureSession) throws {
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
    if let cameraPad, let ghost = bin.staticPad("sink") {
      cameraPad.unlink(from: ghost)
      cameraTee?.releaseRequestPad(cameraPad)
      self.cameraPad = nil
    }
    for element in [bin, tee] {
      if element.setState(.null) == .failure { debugLog.log(.warning, "\(element.path) refused to stop") }
      session.pipeline.remove(element)
    }
  }
}
