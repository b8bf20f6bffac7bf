import HVTGStreamer
import HVTSupport

/// The pre-roll as it runs (``HVTPipelineModel/PreRoll``): a bin on the camera's tee that encodes every
/// frame into the encoded tee, and a probe on that tee's sink pad that keeps the encoded frames from the
/// newest key frame at least ``duration`` old to the newest frame (references: nothing is copied, and the
/// encoder's output buffers are its own, not a camera pool's). What is kept is bounded by the duration
/// and one key-frame interval.
///
/// A recording is linked to the encoded tee between two encoded frames and given what is kept first
/// (``withKept(_:)``): its movie begins at a key frame between ``duration`` and ``duration`` plus a
/// key-frame interval before it was asked for, and goes on with the encoder's next frame. With sound, the
/// pre-roll's microphone (``sound``) keeps the raw sound from the oldest frame kept on.
final class PreRollBuffer: Sendable {
  private struct Kept {
    let buffer: Buffer
    let time: UInt
    let end: UInt
    let isKeyFrame: Bool
    let size: Int
  }

  private struct State {
    var kept: [Kept] = []
    var bytes = 0
    var filled = false
    var closed = false
    /// The encoded stream's time segment: kept times are running times.
    var segment = StreamSegment()

    var fill: HVTPreRollFill {
      guard let first = kept.first, let last = kept.last else { return HVTPreRollFill(frames: 0, seconds: 0, bytes: 0) }
      return HVTPreRollFill(frames: kept.count, seconds: ClockTime.seconds(last.end - first.time), bytes: bytes)
    }
  }

  /// How much longer than its duration the pre-roll's frames left out are remembered (nanoseconds): a
  /// key-frame interval and a movie's queue, with room to spare.
  static let backlogRetention: UInt = 60_000_000_000

  /// The seconds of video a movie begins with, at least.
  let duration: Double
  /// The encoded tee, which recordings link to.
  let tee: Element
  /// The pre-roll's sound, for movies with sound; `nil` for silent ones.
  let sound: PreRollSound?
  /// What leaves frames out when the encoder cannot keep up (``HVTSlowEncoderPolicy/leaveFramesOut``), and
  /// tells a movie how many of its frames it left out; `nil` when the camera waits for the encoder.
  let backlog: ContinuousEncoderBacklog?
  private let teeSink: Pad
  private let bin: Bin
  private let state = Locked(State())

  /// Builds the pre-roll's bin (not yet attached) from `preRoll`, `model`'s, and the model's
  /// ``HVTPipelineModel/continuousEncoding`` (its frames left out when the encoder cannot keep up, with
  /// the model's ``HVTPipelineModel/continuousBacklog``), and with a microphone (``HVTPipelineModel/audio``)
  /// its sound. `onFilled` is called once, on the encoder's streaming thread, when the pre-roll first
  /// holds ``duration`` seconds.
  init(
    _ preRoll: HVTPipelineModel.PreRoll, of model: HVTPipelineModel,
    onFilled: @escaping @Sendable (HVTPreRollFill) -> Void
  ) throws {
    duration = preRoll.duration
    bin = Bin(name: "pre-roll")
    let chain = try ElementChain(model.continuousEncoding, in: bin)
    // The encoded tee is the pipeline's own (beside the bin, not in it), so that recordings, which are
    // bins of the pipeline, can link to its pads.
    tee = try ElementChain.make(HVTPipelineModel.encodedTee)
    guard let entry = chain.first.staticPad("sink"), let exit = chain.last.staticPad("src"),
      let teeSink = tee.staticPad("sink")
    else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: bin.name, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    try bin.addGhostPad("src", target: exit)
    self.teeSink = teeSink
    let state = self.state
    sound = try model.audio.map { audio in
      try PreRollSound(source: audio.source) { state.withLock { $0.kept.first?.time } }
    }
    let keep = ClockTime.from(seconds: preRoll.duration)
    let fallback = ClockTime.from(seconds: 1 / model.configuration.frameRate.framesPerSecond)
    // A movie takes what is kept (the duration and a key-frame interval) and what waits in its queue.
    backlog = try ContinuousEncoderBacklog.bounding(
      chain.first, of: model, retention: keep &+ Self.backlogRetention
    ) { total in debugLog.log(.info, "pre-roll: \(total) frames left out, the encoder cannot keep up") }
    teeSink.addProbe([.buffer, .eventDownstream]) { _, info in
      if let segment = StreamSegment.set(by: info.event) {
        state.withLock { $0.segment = segment }
        return .ok
      }
      guard let buffer = info.buffer, let time = state.withLock({ $0.segment }).runningTime(of: buffer) else {
        return .ok
      }
      let frame = Kept(
        buffer: buffer.retained(), time: time,
        end: time &+ (ClockTime.isValid(buffer.duration) ? buffer.duration : fallback),
        isKeyFrame: !buffer.isDeltaUnit, size: buffer.size)
      let filled = state.withLock { state -> HVTPreRollFill? in
        // What is kept always begins with a key frame.
        guard !state.closed, frame.isKeyFrame || !state.kept.isEmpty else { return nil }
        state.kept.append(frame)
        state.bytes += frame.size
        // From the newest key frame at least `keep` older than the newest frame's start: a movie linked
        // after that frame arrived begins at least `keep` before its call.
        if let start = state.kept.lastIndex(where: { $0.isKeyFrame && $0.time &+ keep <= frame.time }), start > 0 {
          state.bytes -= state.kept[..<start].reduce(0) { $0 + $1.size }
          state.kept.removeFirst(start)
        }
        guard !state.filled, let first = state.kept.first, first.time &+ keep <= frame.time else { return nil }
        state.filled = true
        return state.fill
      }
      if let filled { onFilled(filled) }
      return .ok
    }
  }

  /// Adds the bin and the encoded tee to `pipeline` (in NULL, before it starts) and links them after a
  /// new pad of the camera's `tee`.
  func attach(to pipeline: Pipeline, tee cameraTee: Element) throws {
    try pipeline.add(bin)
    try pipeline.add(tee)
    try bin.link(to: tee)
    guard let ghost = bin.staticPad("sink"), let pad = cameraTee.requestPad("src_%u") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: cameraTee.path, pad: "src_%u"))
    }
    try pad.link(to: ghost)
  }

  /// What the pre-roll holds now.
  var fill: HVTPreRollFill { state.withLock { $0.fill } }

  /// Runs `body` between two encoded frames (holding the encoded tee's stream lock), with the frames
  /// kept, oldest first: a recording links to ``tee`` in `body` and pushes them, and the encoder's next
  /// frame follows them.
  func withKept<Result>(_ body: ([Buffer]) throws -> Result) rethrows -> Result {
    try teeSink.withStreamLock { try body(state.withLock { $0.kept.map(\.buffer) }) }
  }

  /// Lets go of what is kept and keeps nothing more: the camera is stopping.
  func close() {
    sound?.close()
    state.withLock { state in
      state.closed = true
      state.kept.removeAll()
      state.bytes = 0
    }
  }
}
