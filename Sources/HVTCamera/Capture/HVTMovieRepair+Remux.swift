import Foundation
import HVTGStreamer

extension HVTMovieRepair {
  /// Copies every stream of `source` into a new, complete file at `output`, without decoding:
  /// `filesrc ! <demuxer>`, each stream pad the demuxer adds linked through a `queue` to a pad of
  /// `<muxer> ! filesink`.
  ///
  /// The demuxer reads the fragments that survived: `qtdemux` walks the `moof`/`mdat` pairs and ends the
  /// stream at a truncated one, `matroskademux` reads clusters up to the cut. The muxer, not fragmented,
  /// writes the index and the duration of what it was given when end of stream reaches it. With `end`,
  /// every stream's buffers that start at or after it are left out. Returns the stream the repair reports
  /// on (the first video stream the muxer took, else its first stream) and the latest end of any stream.
  static func remux(
    _ source: URL, as container: Container, into output: URL, until end: UInt? = nil, stallTimeout: Double
  ) throws -> (main: Stream, latestEnd: UInt) {
    let pipeline = Pipeline(named: "hvtcamera-repair")
    let reading = try chain(
      [
        HVTElementDescription("filesrc", name: "source", ["location": source.path]),
        HVTElementDescription(container.demuxer, name: "demuxer"),
      ], in: pipeline, repairing: source)
    let writing = try chain(
      [
        HVTElementDescription(container.muxer, name: "muxer"),
        HVTElementDescription("filesink", name: "file", ["location": output.path]),
      ], in: pipeline, repairing: source)
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
      pad.addProbe(.buffer) { [progress, streams] pad, info in
        guard let buffer = info.buffer else { return .ok }
        if let end, ClockTime.isValid(buffer.presentationTime), buffer.presentationTime >= end { return .drop }
        streams.withLock { streams in
          if streams[index].caps == nil { streams[index].caps = pad.currentCaps }
          streams[index].record(buffer)
        }
        progress.noteProgress()
        return .ok
      }
      do {
        // A queue per stream: the demuxer pushes every stream from one thread, and the muxer holds a
        // stream that runs ahead of the others until they catch up, which without a queue would block
        // that thread before it reaches them.
        let queue = try ElementChain.make(HVTElementDescription("queue", name: "stream-\(index)"))
        guard let pipeline else { return }
        try pipeline.add(queue)
        guard queue.syncStateWithParent(), let input = queue.staticPad("sink"), let output = queue.staticPad("src")
        else { throw GStreamerError.linkFailed(from: pad.name, to: queue.name) }
        try pad.link(to: input)
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
    let (main, latestEnd) = streams.withLock { streams in
      (streams.first(where: \.isVideo) ?? streams.first, streams.map(\.end).max() ?? 0)
    }
    let frames = main?.frames ?? 0
    if case .endOfStream = ending, let main, frames > 0 { return (main, latestEnd) }
    if case .error(let report) = ending, frames == 0 {
      throw HVTCameraError.nothingRecoverable(path: source.path, reason: report.message)
    }
    throw ending.error(repairing: source, frames: frames)
  }

  /// The elements of one of the repair's pipelines, made, added and linked; a failure names the movie.
  static func chain(
    _ descriptions: [HVTElementDescription], in pipeline: Pipeline, repairing source: URL
  ) throws -> ElementChain {
    do {
      return try ElementChain(descriptions, in: pipeline)
    } catch {
      throw HVTCameraError.repairFailed(path: source.path, underlying: HVTCameraError(error))
    }
  }
}
