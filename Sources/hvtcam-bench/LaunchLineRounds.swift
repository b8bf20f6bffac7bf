import Foundation
import HVTCamera
import HVTGStreamer
import HVTSupport

/// The `gst-launch-1.0` user's way, measured in-process: the lines `hvtcam describe` prints for the same
/// camera and settings, built by `gst_parse_launch` as `gst-launch-1.0` builds them, one pipeline per
/// capture (a bare pipeline cannot take a photo or start a recording on demand: each is a new run of
/// the command, opening the camera again).
struct LaunchLineRounds {
  /// What one round measured.
  struct Round {
    var startup = Series()
    var shutter = Series()
    var recordStart = Series()
    var recordStop = Series()
    var driverLost = Series()
  }

  let model: HVTPipelineModel
  let directory: URL
  let recordingSeconds: Int

  /// One round: a photo, then a recording stopped at `phase` of a frame interval after a frame.
  func run(into round: inout Round, phase: StopPhase) throws {
    try photo(into: &round)
    try recording(into: &round, phase: phase)
  }

  /// A photo, as `gst-launch-1.0` takes one: from parsing the line (as `present()` builds ours), the
  /// first frame at the preview sink (start-up) and the end of stream reaching the JPEG's file sink
  /// (`jpegenc snapshot=true` ends its branch after one frame).
  func photo(into round: inout Round) throws {
    let path = directory.appendingPathComponent("launch-\(UUID().uuidString.prefix(8)).jpg").path
    let start = ContinuousClock.now
    let pipeline = try Pipeline(launch: model.launchDescription(mode: .photo, output: path, frames: nil))
    defer { pipeline.setState(.null) }
    let firstFrame = try awaitBuffer(at: "preview", in: pipeline)
    let written = Awaited<Instant>()
    try pad("sink", of: "file", in: pipeline).addProbe(.eventDownstream) { _, info in
      if info.event == .endOfStream { written.fulfill(.now) }
      return .ok
    }
    failOnError(pipeline, [firstFrame, written])
    guard pipeline.setState(.playing) != .failure else { throw BenchError.failed("the photo line did not start") }
    round.startup.add(start.duration(to: try firstFrame.wait("the photo line's first preview frame")).milliseconds)
    round.shutter.add(start.duration(to: try written.wait("the photo line's JPEG")).milliseconds)
  }

  /// A recording, as `gst-launch-1.0 -e` makes one: from parsing the line to the first frame entering the
  /// encoder (the camera opens with it), then `recordingSeconds` later (at `phase` of a frame interval
  /// after the camera's frame, ``waitForStop(after:phase:frameRate:frames:)``) an end of stream, and the time
  /// until this thread learns that it came out of the pipeline (the movie finalized) on the main thread,
  /// where an app's bus watch runs and our delegate is told of its movie; with the V4L2 sequence gaps at
  /// the source meanwhile.
  func recording(into round: inout Round, phase: StopPhase) throws {
    let path = directory.appendingPathComponent("launch-\(UUID().uuidString.prefix(8)).mp4").path
    let start = ContinuousClock.now
    let pipeline = try Pipeline(launch: model.launchDescription(mode: .video, output: path, frames: nil))
    defer { pipeline.setState(.null) }
    guard let encoder = model.movieEncoderElement?.name else {
      throw BenchError.failed("our model has no named movie encoder")
    }
    let entered = try awaitBuffer(at: encoder, in: pipeline)
    let finished = Awaited<Instant>()
    let gaps = Locked(SequenceGaps())
    try pad("src", of: "camera", in: pipeline).addProbe(.buffer) { _, info in
      let offset = info.buffer?.offset ?? ClockTime.none
      gaps.withLock { $0.note(offset) }
      return .ok
    }
    // Counted where ours counts them (`sourceFrameCount`): entering the tee.
    let frames = Locked<UInt64>(0)
    try pad("sink", of: "t", in: pipeline).addProbe(.buffer) { _, _ in
      frames.withLock { $0 += 1 }
      return .ok
    }
    failOnError(pipeline, [entered, finished]) { message in
      // The bus's sync handler runs on the streaming thread that posted the message; an app hears of it
      // on its main loop, one hop later, as ours hears of its movie on the main actor.
      if case .endOfStream = message { DispatchQueue.main.async { finished.fulfill(.now) } }
    }
    guard pipeline.setState(.playing) != .failure else { throw BenchError.failed("the movie line did not start") }
    round.recordStart.add(start.duration(to: try entered.wait("the movie line's encoder input")).milliseconds)
    try waitForStop(
      after: start + .seconds(recordingSeconds), phase: phase,
      frameRate: model.configuration.frameRate.framesPerSecond
    ) { frames.withLock { $0 } }
    let stop = ContinuousClock.now
    guard pipeline.sendEndOfStream() else { throw BenchError.failed("the movie line refused end of stream") }
    _ = try finished.wait("the movie line's end of stream")
    round.recordStop.add(stop.duration(to: .now).milliseconds)
    round.driverLost.add(Double(gaps.withLock { $0.lost }))
  }

  /// The moment the first buffer reaches the sink pad of the element `name`.
  private func awaitBuffer(at name: String, in pipeline: Pipeline) throws -> Awaited<Instant> {
    let first = Awaited<Instant>()
    let seen = Locked(false)
    try pad("sink", of: name, in: pipeline).addProbe(.buffer) { _, _ in
      if !seen.withLock({ seen in
        defer { seen = true }
        return seen
      }) {
        first.fulfill(.now)
      }
      return .ok
    }
    return first
  }

  private func pad(_ pad: String, of name: String, in pipeline: Pipeline) throws -> Pad {
    guard let found = pipeline.element(named: name)?.staticPad(pad) else {
      throw BenchError.failed("the launch line has no \(name) with a \(pad) pad")
    }
    return found
  }

  /// Ends every wait with GStreamer's message when the pipeline posts an error; `also` sees every message.
  private func failOnError(
    _ pipeline: Pipeline, _ waits: [Awaited<Instant>], also: @escaping @Sendable (BusMessage) -> Void = { _ in }
  ) {
    pipeline.bus.setSyncHandler { message in
      if case .error(let report) = message {
        waits.forEach { $0.fail(BenchError.failed("launch line: \(report)")) }
      }
      also(message)
    }
  }
}
