import HVTGStreamer

/// Encoded video a recording takes instead of encoding the camera's frames itself: one encoder then
/// serves the movie and everything else on the same tee.
enum EncodedFeed {
  /// A pre-roll's encoded tee: the movie begins with what the pre-roll kept (``PreRollBuffer/withKept(_:)``),
  /// and its sound comes from the pre-roll's microphone.
  case preRoll(PreRollBuffer)
  /// The streams' encoder's tee (``StreamEncoder``): the movie begins with the key frame the encoder makes
  /// when the recording links (a frame or two after it was asked for), and has a microphone of its own.
  case streams(StreamEncoder)

  /// The tee the recording links to.
  var tee: Element {
    switch self {
    case .preRoll(let preRoll): preRoll.tee
    case .streams(let encoder): encoder.tee
    }
  }

  /// What left out the encoder's frames it had no room for (``ContinuousEncoderBacklog``), which the movie
  /// counts between its own frames; `nil` when the camera waits for the encoder.
  var backlog: ContinuousEncoderBacklog? {
    switch self {
    case .preRoll(let preRoll): preRoll.backlog
    case .streams(let encoder): encoder.backlog
    }
  }

  /// The pre-roll's sound, which the movie takes; `nil` when the movie has a microphone of its own.
  var sound: PreRollSound? {
    if case .preRoll(let preRoll) = self { preRoll.sound } else { nil }
  }
}
