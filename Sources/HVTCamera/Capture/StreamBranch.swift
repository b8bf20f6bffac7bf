import Foundation
import HVTGStreamer
import HVTSupport

/// One stream target's branch of the encoded tee (``StreamEncoder``, or a pre-roll's), as
/// ``HVTPipelineModel/streamBranch(for:)`` describes it (tuned as the stream asks): a queue leaking at its
/// entry, so that a slow network drops the stream's frames instead of holding the encoder, the recording
/// or the preview, then the target's muxer or payloader and its network sink. A new branch asks the
/// encoder for a key frame (an upstream force-key-unit event) and drops what comes before it, and after a
/// frame the queue left out it drops what comes before the next (``StreamEntry``): what the network gets
/// always decodes.
///
/// `@unchecked Sendable`: its variables are written only by ``attach(to:tee:)`` and ``remove(from:)``, on the
/// controller's worker queue (asserted in debug builds).
final class StreamBranch: @unchecked Sendable {
  /// Where the stream goes.
  let target: HVTStreamTarget
  private let bin: Bin
  private let failed = Locked(false)
  /// The first error an element of the branch posted.
  private let failure = Locked<MessageReport?>(nil)
  private var teePad: Pad?
  private var tee: Element?
  /// The controller's worker queue, the only one that attaches and removes the branch.
  private let worker: DispatchQueue

  /// What every branch's name starts with.
  static let namePrefix = "stream-branch-"

  /// Whether an element's path (`GstObject` path string, as a message's source gives it) is inside a
  /// stream branch, running or taken out: an element of one taken out may still post an error from its
  /// own thread (`rtspclientsink` says it failed to connect as it stops).
  static func isInside(_ path: String) -> Bool { path.contains(":\(namePrefix)") || path.contains("/\(namePrefix)") }

  /// Whether an element's path is the branch named `name` or inside it, whether or not the branch is in
  /// the pipeline yet.
  static func path(_ path: String, isInside name: String) -> Bool {
    path.hasSuffix(":\(name)") || path.contains(":\(name)/")
  }

  /// Builds the branch for `stream` (not yet attached), named `name` (unique in the pipeline, starting
  /// with ``namePrefix``).
  /// `onFlowing` is called once, on a streaming thread, when the sink took its first data without
  /// failing (the next reaches it): an SRT caller connected, `rtspclientsink` RECORDs, `rtmp2sink` has
  /// its connection, which it sets only once the server answered its handshake and `publish` (its
  /// render waits for it). Headers (`GST_BUFFER_FLAG_HEADER`, as `flvmux` marks its FLV header and codec
  /// data) do not count: `rtmp2sink` takes them without waiting, whether or not a server answers.
  /// `onFellBehind` is called on a streaming thread each time the network falls behind
  /// (``StreamEntry``) once the sink took data, with the frames left out since the branch started.
  init(
    stream: HVTStream, name: String, worker: DispatchQueue, onFlowing: @escaping @Sendable () -> Void,
    onFellBehind: @escaping @Sendable (_ framesLeftOut: Int) -> Void
  ) throws {
    self.worker = worker
    let target = stream.target
    self.target = target
    bin = Bin(name: name)
    if case .hls(let directory, _, _) = target {
      do {
        try HLSFolder.claim(directory)
      } catch {
        throw HVTCameraError.streamFailed(target: target.description, reason: error.description)
      }
    }
    let chain = try ElementChain(HVTPipelineModel.streamBranch(for: stream), in: bin)
    guard let entry = chain.first.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: chain.first.path, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    let frames = Locked(0)
    // Where the sink's input comes from: rtspclientsink's pads are requested, so it has no "sink" pad.
    chain.elements[chain.elements.count - 2].staticPad("src")?.addProbe([.buffer, .bufferList]) { _, info in
      if info.buffer?.isHeader == true { return .ok }
      let count = frames.withLock { count in
        count += 1
        return count
      }
      if count == 2 { onFlowing() }
      return count >= 2 ? .remove : .ok
    }
    // Frames the queue holds while the sink waits for its server (a try's connection, a handshake not
    // answered) are left out too, but that is a stream not running yet, not a network falling behind.
    let hasFlowed: @Sendable () -> Bool = { frames.withLock { $0 >= 2 } }
    // An SRT listener's caller joins a running stream: it starts from the key frame asked for then.
    if case .srt = target, let sink = chain.elements.last {
      sink.onSignal("caller-added") { [weak self] in self?.requestKeyFrame() }
    }
    // Decodable from the first key frame on, and after each frame the network could not take; nothing
    // once an element failed, so that the encoded tee, and the recording and preview behind it, never see
    // the failure's flow return.
    if let entry = bin.staticPad("sink") {
      let (failed, description) = (self.failed, target.description)
      StreamEntry.guardDecodable(entry, queue: chain.first, isClosed: { failed.withLock { $0 } }) { leftOut in
        guard hasFlowed() else { return }
        debugLog.log(
          .warning,
          "stream to \(description): the network fell behind; frames left out up to the next key frame "
            + "(\(leftOut) since the stream started)")
        onFellBehind(leftOut)
      }
    }
  }

  /// The `appsink` at the end of an RTSP server's branch.
  var appSink: Element? { bin.element(named: HVTPipelineModel.streamSinkName) }

  /// The branch's object path; its elements' paths start with it.
  var path: String { bin.path }

  /// Adds the branch to the session's running pipeline and links it to a new pad of `tee`, then asks the
  /// encoder for a key frame. Takes as long as the sink needs to start (an SRT caller connects, an RTMP
  /// sink opens its connection): call it off the controller queue. Throws when the branch does not
  /// start, with the element's own error when it posted one.
  func attach(to session: CaptureSession, tee: Element) throws {
    assertOnQueue(worker)
    try session.pipeline.add(bin)
    session.onError(inside: bin.path) { [failed, failure] report in
      failed.withLock { $0 = true }
      failure.withLock { $0 = $0 ?? report }
    }
    guard bin.syncStateWithParent(), let ghost = bin.staticPad("sink"), let pad = tee.requestPad("src_%u") else {
      remove(from: session)
      if let report = failure.withLock({ $0 }) { throw HVTCameraError.gstreamer(HVTGStreamerMessage(report)) }
      throw HVTCameraError.streamFailed(target: target.description, reason: "its branch did not start")
    }
    (teePad, self.tee) = (pad, tee)
    do {
      try pad.link(to: ghost)
    } catch {
      remove(from: session)
      throw error
    }
    _ = ghost.requestKeyFrame()
  }

  /// Asks the encoder for a key frame now (a client joined): an upstream force-key-unit event.
  func requestKeyFrame() {
    _ = bin.staticPad("sink")?.requestKeyFrame()
  }

  /// Stops the branch and takes it out of the pipeline, giving the tee pad back. Takes as long as the
  /// sink needs to close its connection: call it off the controller queue.
  func remove(from session: CaptureSession) {
    assertOnQueue(worker)
    failed.withLock { $0 = true }
    session.onError(inside: bin.path, nil)
    if let teePad, let ghost = bin.staticPad("sink") {
      teePad.unlink(from: ghost)
      tee?.releaseRequestPad(teePad)
      self.teePad = nil
    }
    Teardown.stop(bin, removingFrom: session.pipeline, what: "the stream branch")
  }
}
