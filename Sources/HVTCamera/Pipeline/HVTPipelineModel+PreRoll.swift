extension HVTPipelineModel {
  /// Movies that begin before they are asked for (``HVTCameraController/preRollDuration``): the camera's
  /// frames are encoded all the time, by a branch of the tee that ends in a second tee of its own
  /// (`encoded`), and the newest seconds of the encoded stream are kept in memory (`PreRollBuffer`).
  /// A recording then links to the encoded tee and holds only a queue, the muxer and the file sink.
  public struct PreRoll: Sendable, Hashable {
    /// The seconds of encoded video kept: a movie begins at the newest key frame at least this old.
    public var duration: Double
    /// The branch after the camera's tee, up to the encoded tee: `queue ! videoconvert ! [caps !]
    /// <encoder> [! <parser>]` — the recording chain without its muxer.
    public var encoding: [HVTElementDescription]
  }

  /// The tee the encoded stream is split at, for recordings, when there is a pre-roll. It goes on
  /// without any branch linked (`allow-not-linked`): between recordings the stream only fills the
  /// pre-roll.
  static let encodedTee = HVTElementDescription("tee", name: encodedTeeName, ["allow-not-linked": "true"])
  static let encodedTeeName = "encoded"

  /// A copy with a pre-roll of `duration` seconds: the recording chain's encoding runs all the time, up
  /// to the encoded tee, and recordings are a queue and the muxer. The queue holds what the pre-roll gives
  /// a recording at its start (`duration`, and a key-frame interval) besides the three seconds a slow
  /// muxer start needs. With sound, the microphone runs all the time too, up to a tee of its own
  /// (``PreRollSound``), and each recording encodes the sound it takes from there.
  func withPreRoll(duration: Double) -> HVTPipelineModel {
    guard let encoded = encodedRecording(holding: Int((duration + 5).rounded(.up))) else { return self }
    var model = self
    var encoding = self.encoding
    encoding[0] = encoding[0].named("pre-roll-queue")
    model.preRoll = PreRoll(duration: duration, encoding: encoding)
    model.recording = encoded
    return model
  }

  /// The recording chain of a movie that takes encoded video from a tee (a pre-roll's, or the streams'
  /// encoder's): a queue that holds `seconds`, and at most ``encodedBacklogBytes``, then the muxer. `nil`
  /// when the recording has no muxer.
  func encodedRecording(holding seconds: Int) -> [HVTElementDescription]? {
    guard let muxer = recording.first(where: { $0.name == Self.muxerName }) else { return nil }
    return [
      HVTElementDescription(
        "queue", name: "recording-queue",
        [
          "max-size-buffers": "0", "max-size-bytes": String(Self.encodedBacklogBytes),
          "max-size-time": String(UInt64(seconds) * 1_000_000_000),
        ]),
      muxer,
    ]
  }

  /// The most encoded video that waits for a movie's muxer: 256 MiB, a minute of pre-roll at 32 Mbit/s.
  /// Past it, the encoder's tee waits for the muxer (and the camera's frames for that encoder are left out,
  /// ``HVTSlowEncoderPolicy/leaveFramesOut``), so that memory stays bounded at any bit rate.
  static let encodedBacklogBytes = 256 << 20

  /// The recording chain up to its muxer — `queue ! videoconvert ! [caps !] <encoder> [! <parser>]` —
  /// what a pre-roll and the streams' encoder run (the pre-roll's own, once there is one), with its
  /// queue's limits as the recording chain has them.
  var encoding: [HVTElementDescription] {
    if let preRoll { return preRoll.encoding }
    return Array(recording.prefix { $0.name != Self.muxerName })
  }

  /// ``encoding`` as the pre-roll and the streams' encoder run it: its queue keeps every frame up to 3 s
  /// behind, and then the camera's tee waits for it; with a ``continuousBacklog``, the queue's limits are
  /// set past it, and its probes leave frames out instead (``ContinuousEncoderBacklog``).
  var continuousEncoding: [HVTElementDescription] {
    continuousBacklog.map { Self.encoderQueue(bounding: $0, encoding) } ?? encoding
  }

  /// The tee the pre-roll's microphone feeds (``PreRollSound``), which recordings take their sound from.
  static let soundTee = HVTElementDescription("tee", name: soundTeeName, ["allow-not-linked": "true"])
  static let soundTeeName = "sound"

  /// The pre-roll's branch as `gst-launch-1.0` words: `t. ! <encoding> ! tee name=encoded …`; none
  /// without a pre-roll.
  func preRollWords(namingCapsFilters: Bool = false) -> [String] {
    guard preRoll != nil else { return [] }
    return ["\(Self.teeName).", "!"]
      + Self.launchWords(continuousEncoding + [Self.encodedTee], namingCapsFilters: namingCapsFilters)
  }

  /// The recording branch as it starts from its tee, writing `location`: from the camera's tee with an
  /// encoder of its own; with a pre-roll, from the encoded tee; without one but `onStreams` (the streams'
  /// encoder runs), from the streams' tee (``recordingOnStreams``), so that the movie and the streams
  /// share one encoder.
  func recordingBranch(location: String, onStreams: Bool) -> (tee: String, chain: [HVTElementDescription]) {
    if preRoll != nil { return (Self.encodedTeeName, recordingBranch(location: location)) }
    if onStreams, let chain = recordingOnStreams {
      return (Self.streamTeeName, chain + [Self.movieFileSink(location: location)])
    }
    return (Self.teeName, recordingBranch(location: location))
  }
}
