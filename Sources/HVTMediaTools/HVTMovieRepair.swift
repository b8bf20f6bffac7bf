import HVTCameraCore
import Dispatch
import Foundation
import HVTGStreamer
import HVTSupport

/// Finishes a movie that a crash left incomplete: remuxes the fragments that survived in a partial file
/// (`MOV_….partial.mp4`, `name.partial.webm`) into a normal, complete file whose container duration is
/// the duration of those frames, without re-encoding anything.
///
/// A recording is written as fragmented MP4 (or Matroska, WebM), so after `kill -9` or a power cut its
/// partial file holds every fragment written, but no final index: `gst-discoverer-1.0` reads a short or
/// missing duration from it, and some players cannot seek in it. The repair runs two GStreamer pipelines:
///
/// 1. `filesrc ! typefind ! fakesink` finds what the file holds (MP4 or QuickTime, Matroska, WebM);
/// 2. `filesrc ! qtdemux ! mp4mux ! filesink` (or `matroskademux ! matroskamux`, `matroskademux !
///    webmmux`, `qtdemux ! qtmux`) copies every stream the demuxer reads, up to a fragment cut short by
///    the crash, into a file of the same kind with a complete index.
///
/// The new file is written under a hidden partial name (`.name.mp4.partial`) and renamed to its final
/// name only when complete; an existing file is never replaced unless asked, and the source file is left
/// as it was.
public enum HVTMovieRepair {
  /// How long a repair pipeline may go without progress (a buffer reaching the muxer or the file sink)
  /// before it is stopped with ``HVTCameraError/repairStalled(path:seconds:frames:)``: 10 seconds.
  public static let defaultStallTimeout = 10.0

  /// Where a repair writes by default: `name.partial.ext` becomes `name.ext` (the name the recording
  /// would have had), `name.partial` becomes `name`, and any other name gets `.repaired` before its
  /// extension (`name.mp4` → `name.repaired.mp4`).
  public static func defaultDestination(for source: URL) -> URL {
    let folder = source.deletingLastPathComponent()
    let ext = source.pathExtension
    let stem = source.deletingPathExtension().lastPathComponent
    if ext == "partial" { return folder.appendingPathComponent(stem) }
    let name =
      stem.hasSuffix(".partial") && stem.count > ".partial".count
      ? String(stem.dropLast(".partial".count)) : "\(stem).repaired"
    return folder.appendingPathComponent(ext.isEmpty ? name : "\(name).\(ext)")
  }

  /// ``repair(_:to:replacingExisting:stallTimeout:)`` on the calling thread, which it blocks until the
  /// file is written.
  static func repairBlocking(
    _ source: URL, to destination: URL? = nil, replacingExisting: Bool = false,
    stallTimeout: Double = defaultStallTimeout
  ) throws -> RepairedMovie {
    let sourceBytes = try readableSize(of: source)
    let container = try identify(source, stallTimeout: stallTimeout)
    let file = try CaptureFiles.reserve(
      destination ?? defaultDestination(for: source), movie: false, replacing: replacingExisting, input: source)
    var recovered: Stream
    do {
      let copied = try remux(source, as: container, into: file.partial, stallTimeout: stallTimeout)
      recovered = copied.main
      // A crash leaves the sound written further than the picture when the video encoder lagged: the
      // movie is copied again with every stream ending where the picture does, so that it lasts as long
      // as its frames (a sound packet, some 20 ms, may still reach past it).
      if copied.main.isVideo, copied.latestEnd > copied.main.end + ClockTime.from(seconds: 0.02) {
        debugLog.log(.info, "repair: a stream runs past the picture's end; copying again up to it")
        recovered =
          try remux(
            source, as: container, into: file.partial, window: Window(end: copied.main.end), stallTimeout: stallTimeout
          ).main
      }
    } catch {
      file.discard()
      throw error
    }
    MP4Times.copy(from: source, to: file.partial)
    MatroskaTagStrings.unquote(in: file.partial)
    // A failure to rename keeps the complete file under its partial name, as the error says.
    let url = try file.complete()
    let movie = RepairedMovie(
      url: url, source: source, container: container.name, main: recovered,
      bytes: CaptureFiles.size(of: url), sourceBytes: sourceBytes)
    debugLog.log(.info, "repair: \(movie)")
    return movie
  }

  /// Repairs the movie at `source` into `destination` (by default ``defaultDestination(for:)``) and
  /// returns what was recovered, once the file is written — about as long as reading the file takes — or
  /// `stallTimeout` seconds pass without progress. Never re-encodes: the frames are copied as they are
  /// (`qtdemux ! mp4mux`, `matroskademux ! matroskamux` or `webmmux`).
  ///
  /// The pipelines run and are waited for on a thread of the repair's own (a serial queue of its own,
  /// which gets a thread even when the global queues' few threads are busy), never on one of Swift
  /// Concurrency's cooperative threads. It is not cancelled with the task; `stallTimeout` bounds it.
  ///
  /// Throws ``HVTCameraError``: `.fileReadFailed` (missing or unreadable source), `.notAMovie` (not MP4,
  /// QuickTime, Matroska or WebM), `.nothingRecoverable` (an empty file, headers without a frame),
  /// `.fileExists` / `.notARegularFile` / `.fileInUse` (the destination is taken; `replacingExisting`
  /// allows replacing a regular file, never the source: `.fileWriteFailed` says so), `.repairFailed`
  /// (GStreamer's error), `.repairStalled`. On failure nothing is left at the destination, not even the
  /// folders made for it.
  public static func repair(
    _ source: URL, to destination: URL? = nil, replacingExisting: Bool = false,
    stallTimeout: Double = defaultStallTimeout
  ) async throws -> RepairedMovie {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue(label: "hvtcamera.repair").async {
        continuation.resume(
          with: Result {
            try repairBlocking(
              source, to: destination, replacingExisting: replacingExisting, stallTimeout: stallTimeout)
          })
      }
    }
  }

  /// The size of the regular file at `source`, after checking that it can be opened for reading; an
  /// empty file has nothing to recover. Wraps `stat(2)` and `open(2)`, so that the error is the system's
  /// own (`ENOENT`, `EACCES`…).
  static func readableSize(of source: URL) throws -> Int {
    var info = stat()
    guard stat(source.path, &info) == 0 else { throw readFailure(source) }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw HVTCameraError.fileReadFailed(path: source.path, reason: "not a regular file")
    }
    let descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw readFailure(source) }
    close(descriptor)
    guard info.st_size > 0 else {
      throw HVTCameraError.nothingRecoverable(path: source.path, reason: "the file is empty")
    }
    return Int(info.st_size)
  }

  /// The current `errno` as an error about reading `url`.
  private static func readFailure(_ url: URL) -> HVTCameraError {
    .fileReadFailed(path: url.path, reason: SystemCallError.reason())
  }
}
