import Foundation

/// Where ``HVTCameraController/startStreaming(to:encoding:)`` sends the camera: an RTSP server of the process's
/// own, or an existing server the stream is pushed to (RTSP, SRT, RTMP), or a folder of HLS segments. Each
/// takes the movies' H.264 (``HVTCameraController/videoBitRate``, key frames as
/// ``HVTCameraController/videoKeyFrameInterval`` says, and one at once for a new client or connection).
public enum HVTStreamTarget: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// An RTSP server in the process (`GstRTSPServer`, gst-rtsp-server) at `rtsp://ADDRESS:PORT/PATH`:
  /// the live camera, shared by every client, over TCP or UDP (RTP, `rtph264pay`). By default it
  /// listens on `127.0.0.1`, this machine only; another `address` (`0.0.0.0` or `::` for every
  /// interface, one of the machine's addresses) lets the network in, and then needs `credentials` or
  /// ``HVTStream/allowsAnonymous``. Port 0 takes a free one (the
  /// ``HVTCameraEvent/streamStarted(_:url:)`` event has the URL). With `credentials`, clients must give
  /// them (basic authentication, `gst_rtsp_auth_add_basic`).
  case rtspServer(
    port: Int = 8554, path: String = "/cam", address: String = "127.0.0.1", credentials: HVTStreamCredentials? = nil)
  /// RTSP push (`rtspclientsink`: ANNOUNCE, then RECORD) into an existing RTSP server's mount that
  /// takes streams, e.g. `rtsp://HOST:8554/cam` (MediaMTX, a `gst-rtsp-server` RECORD mount, an NVR).
  /// The scheme picks the transport as GStreamer's RTSP elements read it: `rtspt://` RTP over the RTSP
  /// connection (TCP), `rtspu://` RTP over UDP, `rtsp://` UDP first and TCP when that fails; `rtsps://`
  /// and its `rtspst://` and `rtspsu://` over TLS. A user and password in the URL
  /// (`rtsp://USER:PASSWORD@HOST/…`) answer the server's authentication.
  case rtspPush(url: String)
  /// SRT (`srtsink`), MPEG-TS inside (`mpegtsmux alignment=7`, the parameter sets with every key
  /// frame): `srt://HOST:PORT` calls a listener there; `srt://:PORT?mode=listener` waits for a caller
  /// on `127.0.0.1`, this machine only, and `srt://ADDRESS:PORT?mode=listener` on `ADDRESS` (`0.0.0.0`
  /// for every interface), which then needs a `passphrase` (10 to 79 characters, SRT's own limits) or
  /// ``HVTStream/allowsAnonymous``. The URI's `latency` (milliseconds) and `passphrase` are SRT's own.
  case srt(uri: String)
  /// RTMP (`rtmp2sink`), FLV inside (`flvmux streamable=true`), to an ingest URL such as
  /// `rtmp://HOST/APP/KEY`.
  case rtmp(url: String)
  /// HLS (`hlssink2`) into `directory`: `playlist.m3u8` and MPEG-TS segments `segmentNNNNN.ts` of about
  /// `segmentDuration` seconds (each starts at a key frame). The playlist lists the newest
  /// `playlistLength`; the folder keeps the ``hlsSegmentsKeptAfterPlaylist`` before them for players
  /// still reading them, and the one being written, and older ones are deleted. The folder must be new
  /// (it is made), empty, or one an earlier HLS stream wrote (its files are replaced): a folder holding
  /// anything else is refused at the start, so that no file of anyone else's is replaced or deleted.
  case hls(directory: URL, segmentDuration: Int = 2, playlistLength: Int = 5)

  /// The target as a person reads it, its secrets masked (``secrets``): `rtsp://127.0.0.1:8554/cam`,
  /// `rtsp://ann:***@host/live`, `srt://…?passphrase=***` (an SRT listener's left-out host as
  /// `127.0.0.1`, where it listens), `rtmp://host/app/***`, `hls:/var/www/cam`.
  public var description: String {
    switch self {
    case .rtspServer(let port, let path, let address, _): "rtsp://\(StreamURL.hostInURL(address)):\(port)\(path)"
    case .rtspPush(let url), .rtmp(let url): masked(url)
    case .srt(let uri): masked(srtSinkURI ?? uri)
    case .hls(let directory, _, _): "hls:\(directory.path)"
    }
  }

  /// The same as ``description``: a target printed for debugging shows no secret either.
  public var debugDescription: String { description }

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

  /// An RTSP server target written `[ADDRESS]:PORT/PATH` (`:8554/cam`, `0.0.0.0:0/live`,
  /// `[::1]:8554/cam`; no address: `127.0.0.1`, this machine only), or `nil` when `spec` is not of that
  /// form. The path is kept as written, up to the end: ``invalidReason`` says what is wrong with it.
  public static func rtspServer(spec: String, credentials: HVTStreamCredentials? = nil) -> HVTStreamTarget? {
    let slash = spec.firstIndex(of: "/") ?? spec.endIndex
    guard let url = StreamURL("rtsp://" + spec[..<slash]), url.user == nil, let port = url.port,
      !url.portIsMalformed, url.query.isEmpty, !spec[..<slash].contains("?")
    else { return nil }
    return .rtspServer(
      port: port, path: String(spec[slash...]), address: url.host.isEmpty ? Self.loopback : url.host,
      credentials: credentials)
  }

  /// How many segments an HLS stream's folder keeps after the playlist has dropped them, for the players
  /// still reading them (as HLS asks of a server).
  public static let hlsSegmentsKeptAfterPlaylist = 2

  /// The address a server listens on when none is given: `127.0.0.1`, this machine only.
  public static let loopback = "127.0.0.1"

  /// Whether `address` reaches this machine only: `127.0.0.0/8`, `::1`, `localhost`.
  public static func isLoopback(_ address: String) -> Bool {
    if address == "localhost" || address == "::1" { return true }
    let octets = address.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
  }

  /// The address a server of the process's own listens on — an RTSP server's, an SRT listener's (its
  /// host, `127.0.0.1` when left out) — or `nil` for a target that is not a server.
  var listeningAddress: String? {
    switch self {
    case .rtspServer(_, _, let address, _): return address
    case .srt(let uri):
      guard let url = StreamURL(uri), url.value("mode") == "listener" else { return nil }
      return url.host.isEmpty ? Self.loopback : url.host
    case .rtspPush, .rtmp, .hls: return nil
    }
  }

  /// Whether it is a server others reach with a secret of its own: an RTSP server with credentials, an
  /// SRT listener with a passphrase.
  var hasCredentials: Bool {
    switch self {
    case .rtspServer(_, _, _, let credentials): credentials != nil
    case .srt(let uri): StreamURL(uri)?.value("passphrase").map { !$0.isEmpty } ?? false
    case .rtspPush, .rtmp, .hls: false
    }
  }

  /// The URI `srtsink` is given: the target's, with an SRT listener's left-out host made `127.0.0.1`.
  package var srtSinkURI: String? {
    guard case .srt(let uri) = self else { return nil }
    guard var url = StreamURL(uri), url.value("mode") == "listener", url.host.isEmpty else { return uri }
    url.host = Self.loopback
    return url.text
  }

  /// Whether the stream goes to a server that may go away and come back: RTSP push, SRT as a caller and
  /// RTMP are connected again after a failure, after a growing delay (``HVTStreamBackoff``), until the
  /// stream is stopped.
  public var reconnects: Bool {
    switch self {
    case .srt(let uri): StreamURL(uri)?.value("mode") != "listener"
    case .rtspPush, .rtmp: true
    case .rtspServer, .hls: false
    }
  }

  /// The seconds a try to start a stream (or to reach a push target's server again) may take: a stream
  /// that has not started by then fails (``HVTCameraError/streamFailed(target:reason:)``), whatever its
  /// elements say or leave unsaid.
  public static let startTimeout: Double = 15
}

/// A user name and password a client must give (HTTP basic authentication, over RTSP). Printed, it shows
/// the user only: `ann:***`.
public struct HVTStreamCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// The user name.
  public var user: String
  /// The password.
  public var password: String

  /// Credentials of `user` with `password`.
  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }

  /// `USER:***`: the password never shows.
  public var description: String { "\(user):\(HVTStreamTarget.mask)" }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// Credentials written `USER:PASSWORD` (the password may hold colons), or `nil` without a user and a
  /// colon.
  public init?(userAndPassword text: String) {
    guard let split = text.firstIndex(of: ":"), split != text.startIndex else { return nil }
    self.init(user: String(text[..<split]), password: String(text[text.index(after: split)...]))
  }
}
