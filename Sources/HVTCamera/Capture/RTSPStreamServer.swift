import Foundation
import HVTGStreamer
import HVTSupport

/// The RTSP server of an ``HVTStreamTarget/rtspServer(port:path:address:credentials:)`` stream: a
/// `GstRTSPServer` whose mount serves one media shared by every client,
/// `( appsrc name=src ! rtph264pay name=pay0 )`, fed the encoded frames the stream's branch hands over
/// (its `appsink`). The server outlives the camera's restarts: its clients stay connected while the
/// pipeline is rebuilt, and the frames come again when the new branch runs.
///
/// Each media plays on its own pipeline's clock: a frame is pushed with its times moved onto that
/// clock, by the least offset between the two seen since the media's first frame (a key frame, asked of
/// the encoder when the media starts playing and when a client sends `PLAY`): frames keep their
/// spacing, and none is stamped later than it arrived.
final class RTSPStreamServer: Sendable {
  private struct Media {
    let source: Element
    var offset: Int64?
  }

  private let server: RTSPServer
  private let media = Locked<[Media]>([])
  private let keyFrameRequest = Locked<(@Sendable () -> Void)?>(nil)
  /// Where clients watch the stream, with the port the server took.
  let url: String

  /// The launch line of the mount's media: the frames' caps come from the first sample pushed (H.264 as
  /// the streams' tee gives it, `avc` with its `codec_data`, which `rtph264pay` takes as it is and sends as
  /// parameter sets before each key frame: no parser in between).
  static let mediaLaunch =
    "( appsrc name=src is-live=true format=time do-timestamp=false max-bytes=4000000 leaky-type=downstream "
    + "! rtph264pay name=pay0 pt=96 config-interval=-1 aggregate-mode=zero-latency )"

  /// Starts a server listening on `address` and `port` serving `path`, with `credentials` when given.
  /// Throws ``HVTCameraError/streamFailed(target:reason:)`` when it cannot listen there.
  init(port: Int, path: String, address: String, credentials: HVTStreamCredentials?, target: HVTStreamTarget) throws {
    do {
      server = try RTSPServer(address: address, port: port)
    } catch {
      throw HVTCameraError.streamFailed(target: target.description, reason: "\(error)")
    }
    // Where a client of this machine reaches a server on every interface.
    let shown = ["0.0.0.0": HVTStreamTarget.loopback, "::": "::1"][address] ?? address
    url = "rtsp://\(StreamURL.hostInURL(shown)):\(server.port)\(path)"
    let media = self.media
    let keyFrameRequest = self.keyFrameRequest
    server.mount(path: path, launch: Self.mediaLaunch, credentials: credentials.map { ($0.user, $0.password) }) {
      bin in
      guard let source = bin.element(named: "src") else { return }
      media.withLock { $0.append(Media(source: source, offset: nil)) }
      keyFrameRequest.withLock { $0 }?()
    }
    server.onPlayRequest { keyFrameRequest.withLock { $0 }?() }
  }

  /// Feeds the server from `branch` (the stream's branch in the running pipeline), replacing the branch
  /// of a camera that stopped.
  func feed(from branch: StreamBranch) {
    keyFrameRequest.withLock { $0 = { [weak branch] in branch?.requestKeyFrame() } }
    let media = self.media
    branch.appSink?.onNewSample { sample in
      guard let buffer = sample.buffer, let caps = sample.caps else { return }
      media.withLock { all in
        all = all.compactMap { item in
          var item = item
          // Not yet playing (no client has sent PLAY): nothing to push, and the times are set later. No
          // longer playing (its last client left): the media is done with, and will not play again.
          guard let now = item.source.runningTime else { return item.offset == nil ? item : nil }
          // The frame's age on arrival: the offset is the least seen, so that no frame is stamped later
          // than it reached the media (a first frame that came late would hold every later one back).
          let arrival = Int64(now) - Int64(buffer.presentationTime)
          if item.offset == nil, buffer.isDeltaUnit { return item }
          item.offset = min(item.offset ?? arrival, arrival)
          do {
            try item.source.pushSample(Sample(buffer: buffer.shifted(by: item.offset ?? 0), caps: caps))
            return item
          } catch {
            // The media's pipeline stopped (its last client left): it will not take frames again.
            return nil
          }
        }
      }
    }
  }

  /// Disconnects the clients and stops the server.
  func stop() {
    keyFrameRequest.withLock { $0 = nil }
    server.stop()
    media.withLock { $0.removeAll() }
  }
}
