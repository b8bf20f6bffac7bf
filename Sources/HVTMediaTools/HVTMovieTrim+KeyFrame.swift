import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieTrim {
  /// Where a trim starts, in running time (nanoseconds, ``HVTMovieRepair/StreamClock``).
  struct Cut: Sendable, Equatable {
    /// The presentation time of the movie's first video frame: the trim's times count from it.
    var origin: UInt
    /// The last key frame at or before the asked start: the first frame the trimmed movie keeps.
    var keyFrame: UInt
    /// The B-frame delay at ``keyFrame``: its presentation time less its decoding time (0 without
    /// B-frames, or when the demuxer gives no decoding time, as `matroskademux` does not).
    var lead: UInt = 0
    /// Read only for a frame-exact trim (else `nil`): the first frame shown at or after the asked start,
    /// where the trimmed movie begins.
    var firstFrame: UInt? = nil
    /// Read only for a frame-exact trim: the first key frame after the asked start, from which frames are
    /// copied as they are; `nil` when there is none.
    var nextKeyFrame: UInt? = nil
    /// The video's media type, e.g. `video/x-h264`.
    var videoCodec: String? = nil
    /// Whether the movie has a sound stream.
    var hasSound = false
    /// The video's bits per second between the key frame and the next (read only for a frame-exact trim),
    /// for the encoder that makes the frames before the next key frame again.
    var videoBitRate: Int? = nil
  }

  /// One video frame as ``scanVideo(_:as:stallTimeout:visit:)`` reads it, in the demuxer's (decoding) order.
  struct ScannedFrame: Sendable {
    /// Its presentation time, in running time (``HVTMovieRepair/StreamClock``).
    var time: UInt
    /// How long before it is shown it is decoded (its presentation time less its decoding time): the
    /// B-frame delay at a key frame; 0 when the demuxer gives no decoding time (`matroskademux`).
    var lead: UInt
    /// Whether it decodes on its own (no `GST_BUFFER_FLAG_DELTA_UNIT`).
    var isKey: Bool
    /// Its bytes.
    var size: Int
  }

  /// What ``scanVideo(_:as:stallTimeout:visit:)`` learnt besides the frames: how it ended, the frames it
  /// read, the video's media type and whether the movie has sound.
  struct VideoScan: Sendable {
    var ending: HVTMovieRepair.Progress.End
    var frames = 0
    var codec: String?
    var hasSound = false
  }

  /// Reads the first video stream of `source` with `filesrc ! <demuxer>` and a `fakesink` on each stream,
  /// handing each of its frames, as they come out of the demuxer, to `visit` until it returns `true`
  /// (the scan then ends as ``HVTMovieRepair/Progress/End/found``) or the file ends.
  static func scanVideo(
    _ source: URL, as container: HVTMovieRepair.Container, stallTimeout: Double,
    visit: @escaping @Sendable (ScannedFrame) -> Bool
  ) throws -> VideoScan {
    typealias Repair = HVTMovieRepair
    let pipeline = Pipeline(named: "hvtcamera-trim-scan")
    let reading = try Repair.chain(
      [
        HVTElementDescription("filesrc", name: "source", ["location": source.path]),
        HVTElementDescription(container.demuxer, name: "demuxer"),
      ], in: pipeline, for: .trim, of: source)
    let progress = Repair.Progress(stallTimeout: stallTimeout)
    let scan = Locked(VideoScan(ending: .endOfStream))
    // The index of the video stream read (the first), and of the next stream.
    let streams = Locked<(video: Int?, count: Int)>((nil, 0))
    let finished = Locked(false)
    reading.last.onPadAdded { [progress, scan, streams, finished, weak pipeline] pad in
      let index = streams.withLock { streams -> Int in
        defer { streams.count += 1 }
        return streams.count
      }
      let media = pad.currentCaps.flatMap { $0.count > 0 ? $0.structure(at: 0).name : nil } ?? ""
      if media.hasPrefix("audio/") { scan.withLock { $0.hasSound = true } }
      let clock = Repair.StreamClock()
      pad.addProbe([.buffer, .eventDownstream]) { [progress, scan, streams, finished] _, info in
        clock.note(info)
        guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime), media.hasPrefix("video/"),
          streams.withLock({ streams in
            if streams.video == nil { streams.video = index }
            return streams.video == index
          })
        else { return .ok }
        // Buffers can follow the one that ended the scan while the pipeline stops.
        guard !finished.withLock({ $0 }) else { return .ok }
        let pts = buffer.presentationTime
        let dts = buffer.decodingTime
        let frame = ScannedFrame(
          time: clock.runningTime(of: pts), lead: ClockTime.isValid(dts) && dts < pts ? pts - dts : 0,
          isKey: !buffer.isDeltaUnit, size: buffer.size)
        scan.withLock { scan in
          scan.frames += 1
          if scan.codec == nil { scan.codec = media }
        }
        progress.noteProgress()
        if visit(frame) {
          finished.withLock { $0 = true }
          progress.finish(.found)
        }
        return .ok
      }
      do {
        guard let pipeline else { return }
        _ = try Repair.attach(
          HVTElementDescription("fakesink", name: "scan-\(index)", ["sync": "false", "async": "false"]), to: pad,
          in: pipeline)
      } catch {
        progress.finish(.failed(HVTCameraError(error)))
      }
    }
    let ending = progress.run(pipeline)
    var read = scan.withLock { $0 }
    read.ending = ending
    return read
  }

  /// Finds where a trim of `source` starting `start` nanoseconds into its video begins, with
  /// ``scanVideo(_:as:stallTimeout:visit:)``: the video's frames are read, in decoding order, up to the
  /// first one shown after the start, and the last key frame before it is the cut. Reads no further than
  /// the start, or, for a frame-exact trim (`throughNextKeyFrame`), than the first key frame after it (or
  /// the end). The times are running times (``HVTMovieRepair/StreamClock``), which every stream shares.
  ///
  /// With B-frames, frames are decoded in another order than they are shown; in a closed group of
  /// pictures (every H.264 key frame an IDR frame, as `x264enc`, phones and cameras write them), every
  /// frame decoded before a key frame is also shown before it, and every frame decoded after it shown
  /// after it. So the first frame shown after the start, in decoding order, comes after the last key
  /// frame at or before the start, and every frame shown between the start and the next key frame comes
  /// before that key frame: the scan reads them all. Throws ``HVTCameraError/invalidTrim(path:reason:)``
  /// when the movie has no video, or no frame after `start`.
  static func cut(
    at start: UInt, in source: URL, as container: HVTMovieRepair.Container, stallTimeout: Double,
    throughNextKeyFrame: Bool = false
  ) throws -> Cut {
    struct Scan {
      var origin: UInt?
      var keyFrame: UInt?
      var lead: UInt = 0
      var last: UInt?
      var firstFrame: UInt?
      var nextKeyFrame: UInt?
      var bytes = 0
    }
    let scan = Locked(Scan())
    let video = try scanVideo(source, as: container, stallTimeout: stallTimeout) { [scan] frame in
      scan.withLock { scan -> Bool in
        let time = frame.time
        let origin = scan.origin ?? time
        scan.origin = origin
        scan.last = max(scan.last ?? time, time)
        let asked = origin + start
        if time > asked, !throughNextKeyFrame || scan.keyFrame == nil { return scan.keyFrame != nil }
        if time > asked, frame.isKey {
          scan.nextKeyFrame = time
          return true
        }
        if time >= asked { scan.firstFrame = min(scan.firstFrame ?? time, time) }
        if scan.keyFrame != nil { scan.bytes += frame.size }
        if time <= asked, frame.isKey {
          scan.keyFrame = max(scan.keyFrame ?? time, time)
          scan.lead = frame.lead
          scan.bytes = frame.size
        }
        return false
      }
    }
    let read = scan.withLock { $0 }
    let complete: Bool
    switch video.ending {
    case .found: complete = true
    case .endOfStream: complete = throughNextKeyFrame && (read.firstFrame ?? read.nextKeyFrame) != nil
    default: complete = false
    }
    if complete, let origin = read.origin, let keyFrame = read.keyFrame {
      debugLog.log(
        .info,
        "trim: \(source.path) starts at \(ClockTime.seconds(origin)) s; the key frame at or before "
          + "\(ClockTime.seconds(start)) s in is at \(ClockTime.seconds(keyFrame - origin)) s")
      var cut = Cut(
        origin: origin, keyFrame: keyFrame, lead: read.lead, videoCodec: video.codec, hasSound: video.hasSound)
      guard throughNextKeyFrame else { return cut }
      // No frame between the start and the next key frame: the movie begins at that key frame.
      cut.firstFrame = read.firstFrame ?? read.nextKeyFrame
      cut.nextKeyFrame = read.nextKeyFrame
      let span = (read.nextKeyFrame ?? read.last ?? keyFrame) - keyFrame
      if span > 0 { cut.videoBitRate = Int(Double(read.bytes * 8) / ClockTime.seconds(span)) }
      return cut
    }
    let found = (read.origin, read.keyFrame, read.last)
    switch (video.ending, found) {
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
      throw video.ending.error(for: .trim, of: source, frames: video.frames)
    }
  }

  /// Where a trim that ends at `end` (running time) stops copying: the group of pictures the end falls
  /// in — from its key frame, the last one shown before the end, to the next — and whether copying up
  /// to the end would lose frames shown before it. It would when, in decoding order, a frame shown at or
  /// after the end (with B-frames, the one the frames before it refer to) comes before one shown before
  /// the end: a remux ends at the first of them (``HVTMovieRepair/Window/end``).
  struct Ending: Sendable, Equatable {
    /// The last key frame shown before the end.
    var keyFrame: UInt
    /// The first key frame shown at or after the end; `nil` when the movie ends first.
    var nextKeyFrame: UInt?
    /// Whether frames shown before the end come, in decoding order, after one shown at or after it.
    var isReordered = false
    /// The B-frame delay at ``keyFrame`` (its presentation time less its decoding time).
    var lead: UInt = 0
    /// The frames shown from ``keyFrame`` up to the end.
    var frames = 0
    /// The video's bits per second from ``keyFrame`` to the next key frame, for an encoder that makes
    /// its frames again.
    var videoBitRate: Int?
  }

  /// Reads the video of `source` in decoding order up to the first key frame shown at or after `end`
  /// (running time), with ``scanVideo(_:as:stallTimeout:visit:)``: the ``Ending`` of a trim up to `end`.
  /// `nil` when no key frame is shown before `end`.
  static func ending(
    at end: UInt, in source: URL, as container: HVTMovieRepair.Container, stallTimeout: Double
  ) throws -> Ending? {
    struct Scan {
      var ending: Ending?
      var pastEnd = false
      var bytes = 0
      var last: UInt = 0
    }
    let scan = Locked(Scan())
    let video = try scanVideo(source, as: container, stallTimeout: stallTimeout) { [scan] frame in
      scan.withLock { scan -> Bool in
        scan.last = max(scan.last, frame.time)
        if frame.isKey, frame.time >= end {
          scan.ending?.nextKeyFrame = frame.time
          return true
        }
        if frame.isKey {
          scan = Scan(ending: Ending(keyFrame: frame.time, lead: frame.lead))
          scan.last = frame.time
        }
        guard scan.ending != nil else { return false }
        scan.bytes += frame.size
        if frame.time >= end {
          scan.pastEnd = true
        } else {
          scan.ending?.frames += 1
          if scan.pastEnd { scan.ending?.isReordered = true }
        }
        return false
      }
    }
    switch video.ending {
    case .found, .endOfStream: break
    default: throw video.ending.error(for: .trim, of: source, frames: video.frames)
    }
    let read = scan.withLock { $0 }
    guard var ending = read.ending else { return nil }
    let span = (ending.nextKeyFrame ?? read.last) - ending.keyFrame
    if span > 0 { ending.videoBitRate = Int(Double(read.bytes * 8) / ClockTime.seconds(span)) }
    return ending
  }

  /// Nanoseconds as seconds with three decimals.
  static func format(_ time: UInt) -> String { String(format: "%.3f", ClockTime.seconds(time)) }
}
