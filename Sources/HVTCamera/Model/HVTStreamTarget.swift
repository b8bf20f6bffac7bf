import Foundation

/// Where ``HVTCameraController/startStreaming(to:)`` sends the camera: an RTSP server of the process's
/// own, or an existing server the stream is pushed to (RTSP, SRT, RTMP), or a folder of HLS segments. Each
/// takes the movies' H.264 (``HVTCameraController/videoBitRate``, key frames as
/// ``HVTCameraController/videoKeyFrameInterval`` says, and one at once for a new client or connection).
public enum HVTStreamTarget: Sendable, Hashable, CustomStringConvertible {
  /// An RTSP server in the process (`GstRTSPServer`, gst-rtsp-server) at `rtsp://ADDRESS:PORT/PATH`:
  /// the live camera, shared by every client, over TCP or UDP (RTP, `rtph264pay`). `address`
  /// `0.0.0.0` listens on every interface, `127.0.0.1` on this machine only; port 0 takes a free one
  /// (the ``HVTCameraEvent/streamStarted(_:url:)`` event has the URL). With `credentials`, clients must
  /// give them (basic authentication).
  case rtspServer(
    port: Int = 8554, path: String = "/cam", address: String = "0.0.0.0", credentials: HVTStreamCredentials? = nil)
  /// RTSP push (`rtspclientsink`: ANNOUNCE, then RECORD) into an existing RTSP server's mount that
  /// takes streams, e.g. `rtsp://HOST:8554/cam` (MediaMTX, a `gst-rtsp-server` RECORD mount, an NVR).
  /// The scheme picks the transport as GStreamer's RTSP elements read it: `rtspt://` RTP over the RTSP
  /// connection (TCP), `rtspu://` RTP over UDP, `rtsp://` UDP first and TCP when that fails; `rtsps://`
  /// and its `rtspst://` and `rtspsu://` over TLS. A user and password in the URL
  /// (`rtsp://USER:PASSWORD@HOST/…`) answer the server's authentication.
  case rtspPush(url: String)
  /// SRT (`srtsink`), MPEG-TS inside (`mpegtsmux alignment=7`, the parameter sets with every key
  /// frame): `srt://HOST:PORT` calls a listener there; `srt://:PORT?mode=listener` waits for a caller.
  /// The URI's `latency` (milliseconds) and `passphrase` are SRT's own.
  case srt(uri: String)
  /// RTMP (`rtmp2sink`), FLV inside (`flvmux streamable=true`), to an ingest URL such as
  /// `rtmp://HOST/APP/KEY`.
  case rtmp(url: String)
  /// HLS (`hlssink2`) into `directory`: `playlist.m3u8` and MPEG-TS segments of about
  /// `segmentDuration` seconds (each starts at a key frame), the newest `playlistLength` of them listed
  /// and kept, older ones deleted.
  case hls(directory: URL, segmentDuration: Int = 2, playlistLength: Int = 5)

  /// The target as a person reads it: `rtsp://0.0.0.0:8554/cam`, `srt://…`, `rtmp://…`, `hls:/var/www/cam`.
  public var description: String {
    switch self {
    case .rtspServer(let port, let path, let address, _): "rtsp://\(address):\(port)\(path)"
    case .rtspPush(let url): url
    case .srt(let uri): uri
    case .rtmp(let url): url
    case .hls(let directory, _, _): "hls:\(directory.path)"
    }
  }

  /// The kind of target, as `hvtcam stream`'s options and a preset's `streams` name it: `rtsp`,
  /// `rtspPush`, `srt`, `rtmp` or `hls`.
  public var kind: String {
    switch self {
    case .rtspServer: "rtsp"
    case .rtspPush: "rtspPush"
    case .srt: "srt"
    case .rtmp: "rtmp"
    case .hls: "hls"
    }
  }

  /// An RTSP server target written `[ADDRESS]:PORT/PATH` (`:8554/cam`, `127.0.0.1:0/live`; no address:
  /// `0.0.0.0`, every interface), or `nil` when `spec` is not of that form.
  public static func rtspServer(spec: String, credentials: HVTStreamCredentials? = nil) -> HVTStreamTarget? {
    guard let colon = spec.lastIndex(of: ":"), let slash = spec[colon...].firstIndex(of: "/"),
      let port = Int(spec[spec.index(after: colon)..<slash])
    else { return nil }
    let address = spec[..<colon].isEmpty ? "0.0.0.0" : String(spec[..<colon])
    return .rtspServer(port: port, path: String(spec[slash...]), address: address, credentials: credentials)
  }

  /// Whether the stream goes to a server that may go away and come back: RTSP push, SRT as a caller and
  /// RTMP are connected again after a failure, after a growing delay (``HVTStreamBackoff``), until the
  /// stream is stopped.
  public var reconnects: Bool {
    switch self {
    case .srt(let uri): !uri.contains("mode=listener")
    case .rtspPush, .rtmp: true
    case .rtspServer, .hls: false
    }
  }

  /// The seconds a try to start a stream (or to reach a push target's server again) may take: a stream
  /// that has not started by then fails (``HVTCameraError/streamFailed(target:reason:)``), whatever its
  /// elements say or leave unsaid.
  public static let startTimeout: Double = 15

  /// Why the target cannot be streamed to, or `nil`: a port out of range, a path not starting with `/`,
  /// a URL of the wrong scheme, an HLS segment duration or playlist length below 1.
  public var invalidReason: String? {
    switch self {
    case .rtspServer(let port, let path, let address, _):
      if !(0...65_535).contains(port) { return "the RTSP port \(port) is not between 0 and 65535" }
      if !path.hasPrefix("/") || path.count < 2 {
        return "the RTSP path \"\(path)\" must start with / and name a mount"
      }
      if address.isEmpty { return "the RTSP server needs an address to listen on (0.0.0.0 for every interface)" }
    case .rtspPush(let url):
      let schemes = ["rtsp", "rtspt", "rtspu", "rtsps", "rtspst", "rtspsu"]
      guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, schemes.contains(scheme) else {
        return "the RTSP URL \"\(url)\" must start with \(schemes.map { $0 + "://" }.joined(separator: ", "))"
      }
      if parsed.host?.isEmpty ?? true { return "the RTSP URL \"\(url)\" names no server" }
    case .srt(let uri):
      if !uri.hasPrefix("srt://") { return "the SRT URI \"\(uri)\" must start with srt://" }
    case .rtmp(let url):
      if !(url.hasPrefix("rtmp://") || url.hasPrefix("rtmps://")) {
        return "the RTMP URL \"\(url)\" must start with rtmp:// or rtmps://"
      }
    case .hls(_, let segmentDuration, let playlistLength):
      if segmentDuration < 1 { return "the HLS segment duration must be at least 1 second" }
      if playlistLength < 1 { return "the HLS playlist must list at least 1 segment" }
    }
    return nil
  }
}

/// A user name and password a client must give (HTTP basic authentication, over RTSP).
public struct HVTStreamCredentials: Sendable, Hashable {
  /// The user name.
  public var user: String
  /// The password.
  public var password: String

  /// Credentials of `user` with `password`.
  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }

  /// Credentials written `USER:PASSWORD` (the password may hold colons), or `nil` without a user and a
  /// colon.
  public init?(userAndPassword text: String) {
    guard let split = text.firstIndex(of: ":"), split != text.startIndex else { return nil }
    self.init(user: String(text[..<split]), password: String(text[text.index(after: split)...]))
  }
}
