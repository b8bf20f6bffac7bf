import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieRepair {
  /// Copies every stream of `source` into a new, complete file at `output`, without decoding:
  /// `filesrc ! <demuxer>`, each stream pad the demuxer adds linked through a `queue` to a pad of
  /// `<muxer> ! filesink`.
  ///
  /// The demuxer reads the fragments that survived: `qtdemux` walks the `moof`/`mdat` pairs and ends the
  /// stream at a truncated one, `matroskademux` reads clusters up to the cut. The muxer, not fragmented,
  /// writes the index and the duration of what it was given when end of stream reaches it. Only the
  /// buffers within `window` (in running time) are copied, their timestamps moved back by its start. Returns the stream
  /// the copy reports on (the first video stream the muxer took, else its first stream), the first sound
  /// stream, and the latest end of any stream, in the new file's timestamps. `job` names the errors.
  static func remux(
    _ source: URL, as container: Container, into output: URL, window: Window = Window(), stallTimeout: Double,
    for job: Job = .repair
  ) throws -> (main: Stream, sound: Stream?, latestEnd: UInt) {
    let pipeline = Pipeline(named: "hvtcamera-\(job)")
    let reading = try chain(
      [
        HVTElementDescription("filesrc", name: "source", ["location": source.path]),
        HVTElementDescription(container.demuxer, name: "demuxer"),
      ], in: pipeline, for: job, of: source)
    let writing = try chain(
      [
        HVTElementDescription(container.muxer, name: "muxer"),
        HVTElementDescription("filesink", name: "file", ["location": output.path]),
      ], in: pipeline, for: job, of: source)
    let progress = Progress(stallTimeout: stallTimeout)
    let streams = Locked<[Stream]>([])
    let muxer = writing.first
    reading.last.onPadAdded { [progress, streams, muxer, weak pipeline] pad in
      guard let sink = muxer.compatiblePad(for: pad) else {
        debugLog.log(.info, "repair: \(muxer.name) takes no stream like \(pad.name); it is left out", object: muxer)
        return
      }
      let index = streams.withLock { streams -> Int in
        streams.append(Stream())
        return streams.count - 1
      }
      let ended = Locked(false)
      let clock = StreamClock()
      pad.addProbe([.buffer, .eventDownstream]) { [progress, streams] pad, info in
        guard window.admit(&info, clock: clock, ended: ended) else { return .drop }
        guard let kept = info.buffer else { return .ok }
        streams.withLock { streams in
          if streams[index].caps == nil { streams[index].caps = pad.currentCaps }
          streams[index].record(kept)
        }
        progress.noteProgress()
        return .ok
      }
      do {
        guard let pipeline else { return }
        let queue = try attach(streamQueue(named: "stream-\(index)"), to: pad, in: pipeline)
        guard let output = queue.staticPad("src") else {
          throw GStreamerError.linkFailed(from: pad.name, to: queue.name)
        }
        try output.link(to: sink)
      } catch {
        progress.finish(.failed(HVTCameraError(error)))
      }
    }
    writing.last.staticPad("sink")?.addProbe(.buffer) { [progress] _, _ in
      progress.noteProgress()
      return .ok
    }
    let ending = progress.run(pipeline)
    let (main, sound, latestEnd) = streams.withLock { streams in
      (streams.first(where: \.isVideo) ?? streams.first, streams.first(where: \.isAudio), streams.map(\.end).max() ?? 0)
    }
    let frames = main?.frames ?? 0
    if case .endOfStream = ending, let main, frames > 0 { return (main, sound, latestEnd) }
    if case .error(let report) = ending, frames == 0 {
      throw job.empty(source, reason: report.message)
    }
    throw ending.error(for: job, of: source, frames: frames)
  }

  /// The queue between a demuxer's stream and the muxer, one per stream: the demuxer pushes every stream
  /// from one thread in the file's order, and the muxer holds a stream that runs ahead of the others until
  /// they catch up, which without a queue would block that thread before it reaches them. Bounded in bytes
  /// only (64 MB: two minutes of 4 Mbit/s video), not in time or buffers. With `queue`'s default second, a
  /// Matroska movie whose sound begins 1.5 s after its picture stalled (GStreamer 1.22 and 1.26 alike): the
  /// picture's queue was full before the demuxer reached the first sound packet, and the muxer waited for
  /// sound. Partial files recorded on a loaded machine with GStreamer 1.26 are written so (its `matroskamux`
  /// is a `GstAggregator`, which in a live pipeline writes the picture it has when its latency runs out,
  /// where 1.22's waited for the sound).
  static func streamQueue(named name: String) -> HVTElementDescription {
    HVTElementDescription(
      "queue", name: name, ["max-size-buffers": "0", "max-size-time": "0", "max-size-bytes": "\(64 << 20)"])
  }

  /// Makes the element `description` says, adds it to the running `pipeline`, brings it to the
  /// pipeline's state and links `pad` (a demuxer's) to its sink pad; returns it.
  static func attach(_ description: HVTElementDescription, to pad: Pad, in pipeline: Pipeline) throws -> Element {
    let element = try ElementChain.make(description)
    try pipeline.add(element)
    guard element.syncStateWithParent(), let input = element.staticPad("sink") else {
      throw GStreamerError.linkFailed(from: pad.name, to: element.name)
    }
    try pad.link(to: input)
    return element
  }

  /// The elements of one of the `job`'s pipelines, made, added and linked; a failure names the movie.
  static func chain(
    _ descriptions: [HVTElementDescription], in pipeline: Pipeline, for job: Job, of source: URL
  ) throws -> ElementChain {
    do {
      return try ElementChain(descriptions, in: pipeline)
    } catch {
      throw job.failed(source, HVTCameraError(error))
    }
  }
}
