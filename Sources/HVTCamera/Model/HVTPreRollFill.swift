/// What the pre-roll holds (``HVTCameraController/preRollFill``): the encoded video a movie started now
/// would begin with.
public struct HVTPreRollFill: Sendable, Hashable {
  /// Encoded frames kept.
  public var frames: Int
  /// Seconds they span, from the oldest (a key frame) to the end of the newest.
  public var seconds: Double
  /// Bytes of encoded video they hold.
  public var bytes: Int
}
