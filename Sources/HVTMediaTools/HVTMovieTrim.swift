import HVTCameraCore
import Dispatch
import Foundation
import HVTGStreamer

/// Cuts a movie down to a stretch of it without re-encoding — the movie editing of
/// ``HVTCameraController/allowsEditing``, for delivered movies and any MP4, QuickTime, Matroska or WebM
/// file of H.264, VP8 or another codec the container holds.
///
/// A trim ends before the first frame at or after the asked end, exact to the frame. With B-frames (frames
/// decoded in another order than they are shown, as phones, cameras and `x264enc` at its defaults write
/// H.264), a frame shown before the end can refer to one shown after it: those frames, from the last key
/// frame before the end, are decoded and encoded again (H.264 only: another codec so written is refused
/// with ``HVTCameraError/invalidTrim(path:reason:)``), whatever the precision. Movies without B-frames,
/// as this engine records them, are copied to their end. Where a trim begins is its ``Precision``:
/// - ``Precision/keyFrame`` (the default): a movie can only begin at a frame that decodes on its own, so
///   it begins at the last key frame at or before the asked start (``TrimmedMovie/start`` says where).
///   Every frame is copied as it was, so the trim takes about as long as reading the file and loses
///   nothing. Recordings made with a short ``HVTCameraController/videoKeyFrameInterval`` (say 1 s) trim
///   closer to the asked start.
/// - ``Precision/frame``: the movie begins at the first frame at or after the asked start — a "smart
///   cut": the frames from there to the next key frame are decoded and encoded again (one new key frame
///   first), and the rest is copied as it was. Only those frames lose anything (one more encoding), and
///   only they cost decoding time. H.264 only (in MP4, QuickTime or Matroska): the joined video carries
///   its parameter sets in the stream (`avc3`), so that the encoded frames and the copied ones can each
///   have their own.
///
/// GStreamer pipelines run: `filesrc ! typefind ! fakesink` finds the container; `filesrc !
/// qtdemux ! fakesink` (or `matroskademux`) reads the video up to the start to find the key frame, and
/// again up to the end to find whether its frames can be copied up to it; and
/// `filesrc ! qtdemux ! mp4mux ! filesink` copies the stretch, every stream (video and sound) with its
/// timestamps moved back so that the new movie starts at zero. The new file is written under a partial
/// name and renamed only when complete; the source is never changed, and an existing file is never
/// replaced unless asked.
public enum HVTMovieTrim {
  /// Where a trim begins: at a key frame (every frame copied) or at the frame asked (a smart cut).
  public enum Precision: String, Sendable, Hashable, CaseIterable {
    /// At the last key frame at or before the asked start; nothing is encoded again but, in a movie with
    /// B-frames whose end falls among frames decoded out of order, the frames from the key frame before
    /// the end: ending at the last frame that can be copied would lose up to a group of pictures, and
    /// the end is exact to the frame.
    case keyFrame
    /// At the first frame at or after the asked start; the frames up to the next key frame are encoded
    /// again (with `x264enc`, else `openh264enc`, after `avdec_h264`, else `openh264dec`).
    case frame
  }

  /// A trimmed movie: where it is, which stretch of its source it holds, and what it holds (counted as
  /// the frames went into the muxer).
  public struct TrimmedMovie: Sendable, Hashable, CustomStringConvertible {
    /// The new, complete file.
    public var url: URL
    /// The movie it was cut from (left as it was).
    public var source: URL
    /// Where the new movie begins in the source, in seconds from the source's first frame: the key frame
    /// at or before the asked start, or for a frame-exact trim the first frame at or after it.
    public var start: Double
    /// The start that was asked for.
    public var requestedStart: Double
    /// The frames of video copied.
    public var frames: Int
    /// From the first frame's start to the last one's end, in seconds: the new movie's duration.
    public var duration: Double
    /// Seconds of sound copied, from its first packet to the end of its last; `nil` for a silent movie.
    public var soundDuration: Double?
    /// The new file's size in bytes.
    public var bytes: Int
    /// The frames that were encoded again (a frame-exact trim's, up to the next key frame, and with
    /// B-frames those from the key frame before the end); 0 when every frame was copied.
    public var reencodedFrames = 0

    /// What the file holds, e.g. `2.000 s from 1.000 s (asked 1.200 s), 60 frames, 261054 bytes`, with
    /// `, 9 encoded again` after a smart cut.
    public var summary: String {
      let asked = abs(requestedStart - start) < 0.0005 ? "" : " (asked \(String(format: "%.3f", requestedStart)) s)"
      let again = reencodedFrames > 0 ? ", \(reencodedFrames) encoded again" : ""
      return String(format: "%.3f s from %.3f s", duration, start)
        + "\(asked), \(frames) frames\(again), \(bytes) bytes"
    }

    /// `path (summary)`.
    public var description: String { "\(url.path) (\(summary))" }
  }

  /// Where a trim writes by default: beside the source, `name.trimmed.ext`, or `name.trimmed-2.ext` and
  /// so on when that is taken.
  static func defaultDestination(for source: URL, number: Int) -> URL {
    let ext = source.pathExtension
    let name = "\(source.deletingPathExtension().lastPathComponent).trimmed\(number > 1 ? "-\(number)" : "")"
    return source.deletingLastPathComponent().appendingPathComponent(ext.isEmpty ? name : "\(name).\(ext)")
  }

  /// ``trim(_:start:end:precision:to:replacingExisting:stallTimeout:)`` on the calling thread, which it
  /// blocks until the file is written.
  package static func trimBlocking(
    _ source: URL, start: Double, end: Double, precision: Precision = .keyFrame, maximumDuration: Double? = nil,
    to destination: URL? = nil, replacingExisting: Bool = false,
    stallTimeout: Double = HVTMovieRepair.defaultStallTimeout
  ) throws -> TrimmedMovie {
    guard start.isFinite, end.isFinite || end == .infinity, start >= 0, end > start else {
      throw HVTCameraError.invalidTrim(
        path: source.path, reason: "the stretch from \(start) s to \(end) s is not a forward stretch of time")
    }
    _ = try HVTMovieRepair.readableSize(of: source)
    let container = try HVTMovieRepair.identify(source, stallTimeout: stallTimeout, for: .trim)
    let cut = try self.cut(
      at: ClockTime.from(seconds: start), in: source, as: container, stallTimeout: stallTimeout,
      throughNextKeyFrame: precision == .frame)
    let file = try reserve(destination, for: source, replacing: replacingExisting)
    let first = cut.firstFrame ?? cut.keyFrame
    var last = end == .infinity ? nil : cut.origin + ClockTime.from(seconds: end)
    if let maximumDuration {
      let limit = first + ClockTime.from(seconds: maximumDuration)
      last = min(last ?? limit, limit)
    }
    let copied: (main: HVTMovieRepair.Stream, sound: HVTMovieRepair.Stream?, reencoded: Int)
    do {
      let ending = try last.flatMap { try self.ending(at: $0, in: source, as: container, stallTimeout: stallTimeout) }
      if first == cut.keyFrame || first == cut.nextKeyFrame, ending?.isReordered != true {
        let remuxed = try HVTMovieRepair.remux(
          source, as: container, into: file.partial, window: HVTMovieRepair.Window(start: first, end: last),
          stallTimeout: stallTimeout, for: .trim)
        copied = (remuxed.main, remuxed.sound, 0)
      } else {
        copied = try smartCut(
          source, as: container, cut: cut, end: last, ending: ending, into: file.partial, stallTimeout: stallTimeout)
      }
    } catch {
      file.discard()
      throw error
    }
    MP4Times.copy(from: source, to: file.partial, later: ClockTime.seconds(first - cut.origin))
    MatroskaTagStrings.unquote(in: file.partial)
    let url = try file.complete()
    let movie = TrimmedMovie(
      url: url, source: source, start: ClockTime.seconds(first - cut.origin), requestedStart: start,
      frames: copied.main.frames, duration: copied.main.duration, soundDuration: copied.sound?.duration,
      bytes: CaptureFiles.size(of: url), reencodedFrames: copied.reencoded)
    debugLog.log(.info, "trim: \(movie)")
    return movie
  }

  /// Writes the stretch of the movie at `source` from `start` to `end` seconds (counted from its first
  /// frame) into `destination` — by default `name.trimmed.ext` beside it, numbered when taken — and
  /// returns what was written, once written: about as long as reading the file takes, or until
  /// `stallTimeout` seconds pass without progress. An `end` past the movie's end keeps it to its end.
  /// `precision` says where it begins: at a key frame, or at the frame asked (a smart cut, H.264 only).
  ///
  /// The pipelines run and are waited for on a serial queue of the trim's own, never on one of Swift
  /// Concurrency's cooperative threads. It is not cancelled with the task; `stallTimeout` bounds it.
  ///
  /// Throws ``HVTCameraError``: `.invalidTrim` (a negative or non-finite time, an end not after the start,
  /// a start past the last frame, no video), `.fileReadFailed`, `.notAMovie`, `.fileExists` /
  /// `.notARegularFile` / `.fileInUse` (a chosen destination is taken; `replacingExisting` allows
  /// replacing a regular file, never the source: `.fileWriteFailed` says so), `.trimFailed` (GStreamer's
  /// error), `.trimStalled`; `.invalidTrim` also for a frame-exact trim of video other than H.264 (VP8 or
  /// VP9 in WebM). On failure nothing is left at the destination, not even the folders made for it.
  public static func trim(
    _ source: URL, start: Double, end: Double, precision: Precision = .keyFrame, to destination: URL? = nil,
    replacingExisting: Bool = false, stallTimeout: Double = HVTMovieRepair.defaultStallTimeout
  ) async throws -> TrimmedMovie {
    try await trim(
      source, start: start, end: end, precision: precision, maximumDuration: nil, to: destination,
      replacingExisting: replacingExisting, stallTimeout: stallTimeout)
  }

  /// ``trim(_:start:end:precision:to:replacingExisting:stallTimeout:)`` whose movie lasts at most
  /// `maximumDuration` seconds from the frame it really begins on (a key frame before `start` moves the
  /// end back with it), as edited movies must (``HVTCameraController/trimMovie(_:start:end:precision:)``).
  package static func trim(
    _ source: URL, start: Double, end: Double, precision: Precision, maximumDuration: Double?,
    to destination: URL? = nil, replacingExisting: Bool = false,
    stallTimeout: Double = HVTMovieRepair.defaultStallTimeout
  ) async throws -> TrimmedMovie {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue(label: "hvtcamera.trim").async {
        continuation.resume(
          with: Result {
            try trimBlocking(
              source, start: start, end: end, precision: precision, maximumDuration: maximumDuration, to: destination,
              replacingExisting: replacingExisting, stallTimeout: stallTimeout)
          })
      }
    }
  }

  /// Reserves the chosen destination, or the first free default one. The source itself is never a
  /// destination.
  private static func reserve(_ destination: URL?, for source: URL, replacing: Bool) throws -> CaptureFiles.Reservation
  {
    if let destination {
      return try CaptureFiles.reserve(destination, movie: false, replacing: replacing, input: source)
    }
    var number = 1
    while true {
      do {
        return try CaptureFiles.reserve(defaultDestination(for: source, number: number), movie: false, replacing: false)
      } catch HVTCameraError.fileExists, HVTCameraError.fileInUse {
        number += 1
      }
    }
  }
}
