import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieTrim {
  /// Where a trim starts in the source's own timestamps (nanoseconds).
  struct Cut: Sendable, Equatable {
    /// The presentation time of the movie's first video frame: the trim's times count from it.
    var origin: UInt
    /// The last key frame at or before the asked start: the first frame the trimmed movie keeps.
    var keyFrame: UInt
    /// Read only for a frame-exact trim (else `nil`): the first frame shown at or after the asked start,
    /// where the trimmed movie begins.
    var firstFrame: UInt? = nil
    /// Read only for a frame-exact trim: the first key frame after the asked start, from which frames are
    /// copied as they are; `nil` when there is none.
    var nextKeyFrame: UInt? = nil
    /// The video's media type, e.g. `video/x-h264` (read only for a frame-exact trim).
    var videoCodec: String? = nil
    /// Whether the movie has a sound stream (read only for a frame-exact trim).
    var hasSound = false
    /// The video's bits per second between the key frame and the next (read only for a frame-exact trim),
    /// for the encoder that makes the frames before the next key frame again.
    var videoBitRate: Int? = nil
  }

  /// Finds where a trim of `source` starting `start` nanoseconds into its video begins, with
  /// `filesrc ! <demuxer>` and a `fakesink` on each stream: the first video stream's buffers are read, as
  /// they come out of the demuxer, up to the first one after the start, and the last key frame (a buffer
  /// without `GST_BUFFER_FLAG_DELTA_UNIT`) before it is the cut. Reads no further than the start, or, for
  /// a frame-exact trim (`throughNextKeyFrame`), than the first key frame after it (or the end). Throws
  /// ``HVTCameraError/invalidTrim(path:reason:)`` when the movie has no video, or no frame after `start`.
  static func cut(
    at start: UInt, in source: URL, as container: HVTMovieRepair.Container, stallTimeout: Double,
    throughNextKeyFrame: Bool = false
  ) throws -> Cut {
    typealias Repair = HVTMovieRepair
    struct Scan {
      var video: Int?
      var frames = 0
      var origin: UInt?
      var keyFrame: UInt?
      var last: UInt?
      var firstFrame: UInt?
      var nextKeyFrame: UInt?
      var codec: String?
      package var bytes = 0
      var hasSound = false
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
      if pad.currentCaps.map({ $0.count > 0 && $0.structure(at: 0).name.hasPrefix("audio/") }) ?? false {
        scan.withLock { $0.hasSound = true }
      }
      pad.addProbe(.buffer) { [progress, scan] pad, info in
        guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
        let time = buffer.presentationTime
        let isVideo = pad.currentCaps.map { $0.count > 0 && $0.structure(at: 0).name.hasPrefix("video/") } ?? false
        let done = scan.withLock { scan -> Bool in
          guard isVideo, scan.video == nil || scan.video == index else { return false }
          // Buffers can follow the one that ended the scan while the pipeline stops.
          guard scan.nextKeyFrame == nil else { return true }
          scan.video = index
          scan.frames += 1
          let origin = scan.origin ?? time
          scan.origin = origin
          scan.last = max(scan.last ?? time, time)
          if scan.codec == nil {
            scan.codec = pad.currentCaps.flatMap { $0.count > 0 ? $0.structure(at: 0).name : nil }
          }
          let asked = origin + start
          if time > asked, !throughNextKeyFrame || scan.keyFrame == nil { return scan.keyFrame != nil }
          if time > asked, !buffer.isDeltaUnit {
            scan.nextKeyFrame = time
            return true
          }
          if time >= asked { scan.firstFrame = min(scan.firstFrame ?? time, time) }
          if scan.keyFrame != nil { scan.bytes += buffer.size }
          if time <= asked, !buffer.isDeltaUnit {
            scan.keyFrame = max(scan.keyFrame ?? time, time)
            scan.bytes = buffer.size
          }
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
    let read = scan.withLock { $0 }
    let complete: Bool
    switch ending {
    case .found: complete = true
    case .endOfStream: complete = throughNextKeyFrame && (read.firstFrame ?? read.nextKeyFrame) != nil
    default: complete = false
    }
    if complete, let origin = read.origin, let keyFrame = read.keyFrame {
      debugLog.log(
        .info,
        "trim: \(source.path) starts at \(ClockTime.seconds(origin)) s; the key frame at or before "
          + "\(ClockTime.seconds(start)) s in is at \(ClockTime.seconds(keyFrame - origin)) s")
      var cut = Cut(origin: origin, keyFrame: keyFrame)
      guard throughNextKeyFrame else { return cut }
      // No frame between the start and the next key frame: the movie begins at that key frame.
      cut.firstFrame = read.firstFrame ?? read.nextKeyFrame
      cut.nextKeyFrame = read.nextKeyFrame
      cut.videoCodec = read.codec
      cut.hasSound = read.hasSound
      let span = (read.nextKeyFrame ?? read.last ?? keyFrame) - keyFrame
      if span > 0 { cut.videoBitRate = Int(Double(read.bytes * 8) / ClockTime.seconds(span)) }
      return cut
    }
    let (found, frames) = ((read.origin, read.keyFrame, read.last), read.frames)
    switch (ending, found) {
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
