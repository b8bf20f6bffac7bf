import HVTGStreamer
import HVTSupport

/// The next recording's encoding, ready before it is asked for: the model's recording chain, its muxer
/// last (`queue ! videoconvert ! … ! x264enc ! h264parse ! mp4mux`), in a bin of the branch's name, in
/// the running pipeline but linked to nothing, started and given the camera's stream-start, caps and
/// segment. Its elements negotiate (the encoder's output with the muxer's input) and its encoder opens
/// then (`x264_encoder_open` took about 30 ms of a 50–70 ms recording start on vivid in the VM), not when
/// the recording starts: ``RecordingBranch`` adds the file sink, which needs the file's name, and the
/// sound, and links the bin to the tee.
///
/// An encoding is used once (a recording's end of stream ends it): the controller arms the next one
/// after a recording's branch is removed. Made, taken and discarded on the controller's worker queue.
final class ArmedRecording: Sendable {
  /// The bin, named as the branch that takes it.
  let bin: Bin
  /// The elements, in chain order: the queue first, the muxer last.
  let elements: [Element]
  /// An element of the bin posted an error: the encoding is not used.
  private let failed = Locked(false)

  /// Builds `chain` (which ends with the element named ``HVTPipelineModel/muxerName``) in a bin called
  /// `name`, adds it to `session`'s pipeline, starts it and gives it the camera's sticky events from the
  /// tee. Returns `nil` when the chain does not end with the muxer, or an element of that name is already
  /// in the pipeline (a recording's branch). Takes as long as the elements need to start (not the
  /// encoder's opening, which the queue's thread does): call it on the worker queue.
  static func arm(_ chain: [HVTElementDescription], named name: String, on session: CaptureSession) throws
    -> ArmedRecording?
  {
    guard session.pipeline.element(named: name) == nil, chain.last?.name == HVTPipelineModel.muxerName else {
      return nil
    }
    let bin = Bin(name: name)
    let elements = try ElementChain(chain, in: bin)
    guard let entry = elements.first.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: elements.first.path, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    let armed = ArmedRecording(bin: bin, elements: elements.elements)
    try session.pipeline.add(bin)
    // The error itself reaches the controller, which logs it and has the encoding taken out.
    session.onError(inside: bin.path) { [failed = armed.failed] _ in failed.withLock { $0 = true } }
    guard bin.syncStateWithParent(), let ghost = bin.staticPad("sink"),
      session.tee.staticPad("sink")?.sendStickyEvents(to: ghost) == true
    else {
      armed.discard(from: session)
      return nil
    }
    debugLog.log(.debug, "\(bin.path): the next recording's encoding is armed")
    return armed
  }

  private init(bin: Bin, elements: [Element]) {
    self.bin = bin
    self.elements = elements
  }

  /// Whether no element of the encoding has failed.
  var isUsable: Bool { !failed.withLock { $0 } }

  /// Stops the bin and takes it out of `session`'s pipeline (an encoding not used, or failed). Call it on
  /// the worker queue.
  func discard(from session: CaptureSession) {
    session.onError(inside: bin.path, nil)
    Teardown.stop(bin, removingFrom: session.pipeline, what: "the armed recording encoding")
  }
}
