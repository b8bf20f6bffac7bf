import Foundation
import HVTGStreamer
import HVTSupport

/// The sound of a pre-roll: the microphone's chain in a bin of its own (`pre-roll-microphone`), which
/// joins the camera pipeline once the camera runs and feeds a tee (`sound`), and a probe on that tee's
/// sink pad that keeps the raw sound (references) from the oldest video frame the pre-roll keeps on. Raw,
/// not encoded: at 48 kHz in stereo it is 188 KiB a second, and a recording then encodes the sound it
/// takes, so that its branch cuts it to the sample at the movie's first frame, as it does a microphone of
/// its own (``RecordingAudio``). A recording links to the tee between two buffers and is given what is
/// kept first (``withKept(_:)``).
///
/// As a recording's own microphone, it is opened outside the pipeline first (``start(in:)``), so that
/// one that cannot open costs the movies their sound, never the camera; its errors are the controller's
/// to handle (``path``).
final class PreRollSound: Sendable {
  private struct Kept {
    let buffer: Buffer
    let end: UInt
  }

  private struct State {
    var kept: [Kept] = []
    var running = false
    var closed = false
  }

  /// The microphone's bin.
  private let microphone: MicrophoneBin
  /// The tee recordings take their sound from.
  let tee: Element
  private let teeSink: Pad
  private let state = Locked(State())
  /// What ``start(in:)`` added to the pipeline, for ``stop(in:)`` to take out.
  private let added = Locked<[Element]>([])

  /// Builds the microphone's bin from `source` (not yet in a pipeline). `oldest` gives the running time of
  /// the oldest video frame the pre-roll keeps, before which no sound is kept.
  init(source: [HVTElementDescription], oldest: @escaping @Sendable () -> UInt?) throws {
    microphone = try MicrophoneBin(name: "pre-roll-microphone", source: source)
    tee = try ElementChain.make(HVTPipelineModel.soundTee)
    guard let teeSink = tee.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: tee.name, pad: "sink"))
    }
    self.teeSink = teeSink
    let sample = Double(ClockTime.second) / Double(HVTPipelineModel.recordedAudio.rate)
    let bytesPerFrame = HVTPipelineModel.recordedAudio.channels * HVTPipelineModel.recordedAudio.bytesPerSample
    teeSink.addProbe(.buffer) { [state] _, info in
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      let start = buffer.presentationTime
      let end = start + UInt(Double(buffer.size / bytesPerFrame) * sample)
      let from = oldest()
      state.withLock { state in
        guard !state.closed else { return }
        state.kept.append(Kept(buffer: buffer.retained(), end: end))
        if let from, let stale = state.kept.firstIndex(where: { $0.end > from }), stale > 0 {
          state.kept.removeFirst(stale)
        }
      }
      return .ok
    }
  }

  /// The microphone bin's object path: its errors cost the movies their sound.
  var path: String { microphone.path }

  /// Whether the microphone runs and feeds the tee.
  var isRunning: Bool { state.withLock { $0.running && !$0.closed } }

  /// Opens the microphone outside the pipeline (``MicrophoneBin/open()``), then adds it and the tee to the running
  /// `pipeline`, links them and starts them. Returns why there is no sound, or `nil`. Takes as long as the
  /// microphone needs to open: call it off the controller queue.
  func start(in pipeline: Pipeline) -> String? {
    if let failure = microphone.open() {
      return "the pre-roll's microphone (\(HVTPipelineModel.microphoneName)) \(failure)"
    }
    do {
      for element in [tee, microphone.bin] {
        try pipeline.add(element)
        added.withLock { $0.append(element) }
      }
      try microphone.bin.link(to: tee)
    } catch {
      stop(in: pipeline)
      return "the pre-roll's microphone could not join the pipeline: \(error)"
    }
    guard tee.syncStateWithParent(), microphone.bin.syncStateWithParent() else {
      stop(in: pipeline)
      return "the pre-roll's microphone (\(HVTPipelineModel.microphoneName)) did not start"
    }
    state.withLock { $0.running = true }
    return nil
  }

  /// Runs `body` between two buffers of sound (holding the tee's stream lock), with the sound kept,
  /// oldest first: a recording links to ``tee`` in `body` and pushes it, and the microphone's next buffer
  /// follows it.
  func withKept<Result>(_ body: ([Buffer]) throws -> Result) rethrows -> Result {
    try betweenBuffers { try body(state.withLock { $0.kept.map(\.buffer) }) }
  }

  /// Runs `body` between two buffers of sound (holding the tee's stream lock): a recording unlinks from
  /// ``tee`` there, so that the tee never pushes into a branch as it stops.
  func betweenBuffers<Result>(_ body: () throws -> Result) rethrows -> Result {
    try teeSink.withStreamLock(body)
  }

  /// Stops the microphone and takes it and the tee out of `pipeline` (it failed, or never started).
  /// Takes as long as its streaming thread needs to stop: call it off the controller queue.
  func stop(in pipeline: Pipeline) {
    close()
    Teardown.stop(microphone.bin, what: "the pre-roll's microphone")
    Teardown.stop(tee, what: "the pre-roll's sound tee")
    let added = added.withLock { added in
      defer { added = [] }
      return added
    }
    added.forEach(pipeline.remove)
  }

  /// Lets go of what is kept and keeps nothing more: the camera or the microphone is stopping.
  func close() {
    state.withLock { state in
      state.closed = true
      state.kept.removeAll()
    }
  }
}
