import Foundation
import HVTGStreamer

/// One stream target's branch of the encoded tee (``StreamEncoder``): a leaky queue, so that a slow
/// network drops the stream's frames instead of holding the encoder, the recording or the preview, then
/// the target's muxer or payloader and its network sink. A new branch asks the encoder for a key frame
/// (an upstream force-key-unit event) and drops what comes before it: a stream starts decodable.
///
/// ```
/// encoded. ! queue leaky=downstream ! h264parse config-interval=-1 ! mpegtsmux alignment=7 ! srtsink uri=…
/// encoded. ! queue leaky=downstream ! h264parse config-interval=-1 ! flvmux streamable=true ! rtmp2sink location=…
/// encoded. ! queue leaky=downstream ! h264parse config-interval=-1 ! hlssink2 location=…/segment%05d.ts …
/// encoded. ! queue leaky=downstream ! appsink  → the RTSP server's media (``RTSPStreamServer``)
/// ```
final class StreamBranch: @unchecked Sendable {
  /// Where the stream goes.
  let target: HVTStreamTarget
  private let bin: Bin
  private let failed = Locked(false)
  private var teePad: Pad?
  private var tee: Element?

  /// The elements of `target`'s branch after its queue; `sink` names the network sink (or the `appsink`
  /// an RTSP server is fed from).
  static func chain(for target: HVTStreamTarget) -> [HVTElementDescription] {
    let parser = HVTElementDescription("h264parse", name: "stream-parser", ["config-interval": "-1"])
    switch target {
    case .rtspServer:
      return [
        HVTElementDescription(
          "appsink", name: sinkName, ["sync": "false", "async": "false", "max-buffers": "30", "drop": "true"])
      ]
    case .srt(let uri):
      return [
        parser, HVTElementDescription("mpegtsmux", name: "stream-muxer", ["alignment": "7"]),
        HVTElementDescription(
          "srtsink", name: sinkName,
          // The controller reconnects, with its events; srtsink's own retries would hold its thread.
          [
            "uri": uri, "wait-for-connection": "false", "auto-reconnect": "false", "sync": "false", "async": "false",
          ]),
      ]
    case .rtmp(let url):
      return [
        parser, HVTElementDescription("flvmux", name: "stream-muxer", ["streamable": "true"]),
        HVTElementDescription("rtmp2sink", name: sinkName, ["location": url, "sync": "false", "async": "false"]),
      ]
    case .hls(let directory, let segmentDuration, let playlistLength):
      // hlssink2's `location` is a printf pattern: a % of the folder's own is doubled.
      let folder = directory.path.replacingOccurrences(of: "%", with: "%%")
      return [
        parser,
        HVTElementDescription(
          "hlssink2", name: sinkName,
          [
            "location": "\(folder)/segment%05d.ts",
            "playlist-location": directory.appendingPathComponent(
              "playlist.m3u8"
            ).path, "target-duration": String(segmentDuration), "playlist-length": String(playlistLength),
            "max-files": String(playlistLength + 2), "send-keyframe-requests": "true",
          ]),
      ]
    }
  }

  /// The name of the branch's last element.
  static let sinkName = "stream-sink"

  /// Builds the branch for `target` (not yet attached), named `name` (unique in the pipeline).
  /// `onFlowing` is called once, on a streaming thread, when the sink took its first frame without
  /// failing (its second reaches it): an SRT caller or RTMP sink reached its server, which their start
  /// does not wait for.
  init(target: HVTStreamTarget, name: String, onFlowing: @escaping @Sendable () -> Void) throws {
    self.target = target
    bin = Bin(name: name)
    if case .hls(let directory, _, _) = target {
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw HVTCameraError.streamFailed(
          target: target.description, reason: "its folder cannot be made: \(error.localizedDescription)")
      }
    }
    let queue = HVTElementDescription(
      "queue", name: "stream-queue",
      ["leaky": "downstream", "max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "2000000000"])
    let chain = try ElementChain([queue] + Self.chain(for: target), in: bin)
    guard let entry = chain.first.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: chain.first.path, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    let frames = Locked(0)
    chain.last.staticPad("sink")?.addProbe([.buffer, .bufferList]) { _, _ in
      let count = frames.withLock { count in
        count += 1
        return count
      }
      if count == 2 { onFlowing() }
      return count >= 2 ? .remove : .ok
    }
    // An SRT listener's caller joins a running stream: it starts from the key frame asked for then.
    if case .srt = target, let sink = chain.elements.last {
      sink.onSignal("caller-added") { [weak self] in self?.requestKeyFrame() }
    }
    // From the first key frame on; and nothing once an element failed, so that the encoded tee, and the
    // recording and preview behind it, never see the failure's flow return.
    let (failed, started) = (self.failed, Locked(false))
    bin.staticPad("sink")?.addProbe(.buffer) { _, info in
      guard !failed.withLock({ $0 }), let buffer = info.buffer else { return .drop }
      return started.withLock { started in
        started = started || !buffer.isDeltaUnit
        return started ? .ok : .drop
      }
    }
  }

  /// The `appsink` at the end of an RTSP server's branch.
  var appSink: Element? { bin.element(named: Self.sinkName) }

  /// The branch's object path; its elements' paths start with it.
  var path: String { bin.path }

  /// Adds the branch to the session's running pipeline and links it to a new pad of `tee`, then asks the
  /// encoder for a key frame. Takes as long as the sink needs to start (an SRT caller connects, an RTMP
  /// sink opens its connection): call it off the controller queue. Throws when the branch does not
  /// start, with the element's own reason when it posted one.
  func attach(to session: CaptureSession, tee: Element) throws {
    try session.pipeline.add(bin)
    session.onError(inside: bin.path) { [failed] in failed.withLock { $0 = true } }
    guard bin.syncStateWithParent(), let ghost = bin.staticPad("sink"), let pad = tee.requestPad("src_%u") else {
      remove(from: session)
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
    failed.withLock { $0 = true }
    session.onError(inside: bin.path, nil)
    if let teePad, let ghost = bin.staticPad("sink") {
      teePad.unlink(from: ghost)
      tee?.releaseRequestPad(teePad)
      self.teePad = nil
    }
    if bin.setState(.null) == .failure { debugLog.log(.warning, "the stream branch \(bin.path) refused to stop") }
    session.pipeline.remove(bin)
  }
}
