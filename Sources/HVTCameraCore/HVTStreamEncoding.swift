/// How a stream is encoded (``HVTCameraController/startStreaming(to:encoding:)``): as the movies are
/// (``movie``, the default), sharing their encoder, or at another size, bit rate or key-frame interval,
/// with an encoder of its own that every stream of the same encoding shares. What is left `nil` is the
/// movies' (the bit rate, for another size, the engine's for that size: about 0.1 bit per pixel).
public struct HVTStreamEncoding: Sendable, Hashable, CustomStringConvertible {
  /// The frames' size: the camera's frames cropped to its aspect ratio and scaled (never up: a size
  /// larger than the camera's is the camera's); `nil` for the movies' size.
  public var size: HVTFrameSize?
  /// Bits per second; `nil` for the movies' (or, with a `size`, the engine's for it).
  public var bitRate: Int?
  /// Seconds between key frames; `nil` for the movies'.
  public var keyFrameInterval: Double?

  /// The movies' encoding: the stream shares their encoder.
  public static let movie = HVTStreamEncoding()

  /// An encoding; what is left `nil` is the movies'.
  public init(size: HVTFrameSize? = nil, bitRate: Int? = nil, keyFrameInterval: Double? = nil) {
    self.size = size
    self.bitRate = bitRate
    self.keyFrameInterval = keyFrameInterval
  }

  /// Whether it is the movies' encoding.
  public var isMovie: Bool { self == .movie }

  /// `the movies' encoding`, or what differs: `640x360, 800000 bit/s, a key frame every 2 s`.
  public var description: String {
    guard !isMovie else { return "the movies' encoding" }
    return [
      size.map(\.description), bitRate.map { "\($0) bit/s" }, keyFrameInterval.map { "a key frame every \($0) s" },
    ].compactMap { $0 }.joined(separator: ", ")
  }

  /// A name for its elements (`640x360-800000bps-2s`), unique among encodings.
  package var label: String {
    [
      size.map(\.description), bitRate.map { "\($0)bps" }, keyFrameInterval.map { "\($0)s" },
    ].compactMap { $0 }.joined(separator: "-")
  }

  /// Why a stream cannot be encoded so, or `nil`: a size, bit rate or key-frame interval out of the
  /// ranges the movies' take (``HVTCaptureSize/widths``, ``HVTCaptureLimits``).
  public var invalidReason: String? {
    if let size, !HVTCaptureSize.widths.contains(size.width) || !HVTCaptureSize.heights.contains(size.height) {
      return "the stream size \(size) is not between 16x16 and 7680x4320"
    }
    if let bitRate, !HVTCaptureLimits.videoBitRate.contains(bitRate) {
      return "the stream bit rate \(bitRate) is not between \(HVTCaptureLimits.videoBitRate.lowerBound) and "
        + "\(HVTCaptureLimits.videoBitRate.upperBound) bits per second"
    }
    if let keyFrameInterval, !HVTCaptureLimits.keyFrameInterval.contains(keyFrameInterval) {
      return "the stream key-frame interval \(keyFrameInterval) s is not \(HVTCaptureLimits.keyFrameInterval)"
    }
    return nil
  }
}
