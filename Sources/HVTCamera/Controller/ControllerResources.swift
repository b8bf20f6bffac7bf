import Dispatch
import HVTGStreamer

/// The GStreamer objects (and timers and watchers) the controller's interpreter works with, under the
/// numbers and names the machine knows them by (``ControllerMachine/State`` holds no object). The
/// interpreter adds each when it makes it and takes it out when an effect says it is done with; what is
/// left when the controller is released is stopped then. Held in a `Locked` box: the worker queue
/// registers what it builds, the getters look sessions up.
struct ControllerResources {
  /// A recording's branch, the session it is added to, and the streams' encoder it takes its video from.
  struct RecordingObjects {
    let branch: RecordingBranch
    let session: CaptureSession
    let streamEncoder: StreamEncoder?
  }

  /// The sessions built and not yet stopped, by ``CaptureSession/id``.
  var sessions: [UInt64: CaptureSession] = [:]
  /// The recordings' branches, by recording number.
  var recordings: [UInt64: RecordingObjects] = [:]
  /// Pauses asked for while a recording's branch was being built on the worker, by recording number:
  /// the branch starts with the last.
  var pendingPauses: [UInt64: Bool] = [:]
  /// The streams' branches, by branch name, with the session each is in.
  var streamBranches: [String: (branch: StreamBranch, session: CaptureSession)] = [:]
  /// The streams' RTSP servers, by stream number.
  var streamServers: [Int: RTSPStreamServer] = [:]
  /// The streams' encoders in the current session, by encoding, with that session.
  var streamEncoders: [HVTStreamEncoding: (encoder: StreamEncoder, session: CaptureSession)] = [:]
  /// The one-shot timers, by what they are for.
  var timers: [ControllerMachine.TimerID: DispatchSourceTimer] = [:]
  /// The frame watchdog's repeating timer.
  var watchdog: DispatchSourceTimer?
  /// Reports cameras coming and going while presented on real cameras: a `DeviceWatcher` or a
  /// ``DeviceNodeWatcher``, held only to keep it watching, with the session it watches for.
  var deviceWatcher: (session: UInt64, watcher: any AnyObject & Sendable)?
  /// The library window `present()` opened for a library source type, while open.
  var libraryWindow: HVTLibraryWindow?
  /// The last session's pipeline, kept after it stops so that its last state changes can still be
  /// dumped to `GST_DEBUG_DUMP_DOT_DIR`.
  var lastPipeline: Pipeline?

  /// Everything still held, taken out: what a released controller stops.
  mutating func takeAll() -> ControllerResources {
    for timer in timers.values { timer.cancel() }
    watchdog?.cancel()
    defer { self = ControllerResources() }
    return self
  }
}
