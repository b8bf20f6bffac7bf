/// A stream as ``HVTCameraController/startStreaming(_:)`` takes it and a preset declares it (`streams`):
/// where the camera goes (``target``), how it is encoded (``encoding``), and properties of the target's
/// branch elements (``tuning``) that replace or add to the engine's.
public struct HVTStream: Sendable, Hashable {
  /// Where the stream goes.
  public var target: HVTStreamTarget
  /// How it is encoded: the movies' encoding (sharing their encoder) unless it says otherwise.
  public var encoding: HVTStreamEncoding
  /// Elements of the target's branch with properties of their own, by factory: `mpegtsmux pcr-interval=360`,
  /// `srtsink latency=200`, `hlssink2 max-files=20`, `rtph264pay mtu=1200`… Each must name an element the
  /// branch has (``HVTPipelineModel/streamBranchFactories(for:)``); its properties are set on it after the
  /// engine's own.
  public var tuning: [HVTElementDescription]
  /// Lets a server of the process's own — an RTSP server, an SRT listener — listen on an address other
  /// machines reach (`0.0.0.0`, `::`, one of the machine's addresses) without credentials: anyone there
  /// may watch. Without it such a server needs credentials (RTSP) or a passphrase (SRT); on
  /// `127.0.0.1`, the default, none is needed.
  public var allowsAnonymous: Bool

  /// A stream to `target`, encoded as `encoding`, its branch's elements tuned by `tuning`; a server on
  /// the network without credentials only with `allowsAnonymous`.
  public init(
    target: HVTStreamTarget, encoding: HVTStreamEncoding = .movie, tuning: [HVTElementDescription] = [],
    allowsAnonymous: Bool = false
  ) {
    self.target = target
    self.encoding = encoding
    self.tuning = tuning
    self.allowsAnonymous = allowsAnonymous
  }

  /// Whether it is a server of the process's own that listens where other machines reach it (not on
  /// loopback) without credentials or a passphrase: anyone there could watch, so it runs only with
  /// ``allowsAnonymous``.
  public var servesNetworkWithoutCredentials: Bool {
    guard !target.hasCredentials, let address = target.listeningAddress else { return false }
    return !HVTStreamTarget.isLoopback(address)
  }

  /// Why a server on an address other machines reach, without credentials, is refused; `nil` when it is
  /// not such a server, or ``allowsAnonymous``.
  package var openServerReason: String? {
    guard !allowsAnonymous, servesNetworkWithoutCredentials, let address = target.listeningAddress else {
      return nil
    }
    let (server, secret) =
      if case .srt = target { ("SRT listener", "a passphrase") } else { ("RTSP server", "credentials") }
    return "the \(server) on \(address) would let anyone on the network watch: give it \(secret), "
      + "listen on \(HVTStreamTarget.loopback) (this machine only), or allow anonymous viewers explicitly"
  }

}
