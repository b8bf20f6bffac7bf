import Foundation
import HVTGStreamer

extension HVTMovieTrim {
  /// Where a trim starts in the source's own timestamps (nanoseconds).
  struct Cut: Sendable, Equatable {
    /// The presentation time of the movie's first video frame: the trim's times count from it.
    var origin: UInt
    /// The last key frame at or before the asked start: the first frame the trimmed movie keeps.
    var keyFrame: UInt
  }

  /// Finds where a trim of `source` starting `start` nanoseconds into its video begins, with
  /// `filesrc ! <demuxer>` and a `fakesink` on each stream: the first video stream's buffers are read, as
  /// they come out of the demuxer, up to the first one after the start, and the last key frame (a buffer
  /// without `GST_BUFFER_FLAG_DELTA_UNIT`) before it is the cut. Reads no further than the start. Throws
  /// ``HVTCameraError/invalidTrim(path:reason:)`` when the movie has no video, or no frame after `start`.
  static func cut(at start: UInt, in source: URL, as container: HVTMovieRepair.Container, stallTimeout: Double)
    throws -> Cut
  {
    typealias Repair = HVTMovieRepair
    struct Scan {
      var video: Int?
      var frames = 0
      var origin: UInt?
      var keyFrame: UInt?
      var last: UInt?
    }
    let pipeline = Pipeline(named: "hvtcamera-trim-scan")
    let reading = try Repair.chain(
      [
        HVTElementDescription("filesrc", name: "source", ["location": source.path]),
        HVTElementDescription(container.demuxer, name: "demuxer"),
      ], in: pipeline, for: .trim, of: source)
    let progress = Repair.Progress(stallTimeout: stallTimeout)
    let scan = Locked(Scan())
    let counter = Locked(0)
    reading.last.onPadAdded { [progress, scan, counter, weak pipeline] pad in
      let index = counter.withLock { count -> Int in
        defer { count += 1 }
        return count
      }
      pad.addProbe(.buffer) { [progress, scan] pad, info in
        guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
        let time = buffer.presentationTime
        let isVideo = pad.currentCaps.map { $0.count > 0 && $0.structure(at: 0).name.hasPrefix("video/") } ?? false
        let done = scan.withLock { scan -> Bool in
          guard isVideo, scan.video == nil || scan.video == index else { return false }
          scan.video = index
          scan.frames += 1
          let origin = scan.origin ?? time
          scan.origin = origin
          scan.last = max(scan.last ?? time, time)
          if time > origin + start { return scan.keyFrame != nil }
          if !buffer.isDeltaUnit { scan.keyFrame = max(scan.keyFrame ?? time, time) }
          return false
        }
        progress.noteProgress()
        if done { progress.finish(.found) }
        return .ok
      }
      do {
        guard let pipeline else { return }
        _ = try Repair.attach(
          HVTElementDescription("fakesink", name: "scan-\(index)", ["sync": "false"]), to: pad, in: pipeline)
      } catch {
        progress.finish(.failed(HVTCameraError(error)))
      }
    }
    let ending = progress.run(pipeline)
    let (found, frames) = scan.withLock { (($0.origin, $0.keyFrame, $0.last), $0.frames) }
    switch (ending, found) {
    case (.found, (let origin?, let keyFrame?, _)):
      debugLog.log(
        .info,
        "trim: \(source.path) starts at \(ClockTime.seconds(origin)) s; the key frame at or before "
          + "\(ClockTime.seconds(start)) s in is at \(ClockTime.seconds(keyFrame - origin)) s")
      return Cut(origin: origin, keyFrame: keyFrame)
    case (.endOfStream, (_?, nil, _)):
      throw HVTCameraError.invalidTrim(
        path: source.path, reason: "its video has no key frame at or before \(format(start)) s in")
    case (.endOfStream, (let origin?, _, let last?)):
      throw HVTCameraError.invalidTrim(
        path: source.path,
        reason: "the trim starts \(format(start)) s in, but the movie's last frame is at \(format(last - origin)) s")
    case (.endOfStream, (nil, _, _)):
      throw HVTCameraError.invalidTrim(path: source.path, reason: "it holds no video frame")
    default:
      throw ending.error(for: .trim, of: source, frames: frames)
    }
  }

  /// Nanoseconds as seconds with three decimals.
  static func format(_ time: UInt) -> String { String(format: "%.3f", ClockTime.seconds(time)) }
}
