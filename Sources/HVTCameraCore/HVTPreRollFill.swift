/// What the pre-roll holds (``HVTCameraController/preRollFill``): the encoded video a movie started now
/// would begin with.
public struct HVTPreRollFill: Sendable, Hashable, CustomStringConvertible {
  /// Encoded frames kept.
  public var frames: Int
  /// Seconds they span, from the oldest (a key frame) to the end of the newest.
  public var seconds: Double
  /// Bytes of encoded video they hold.
  public var bytes: Int

  /// `30 frames, 1.00 s, 123456 bytes`.
  public var description: String { "\(frames) frames, \(String(format: "%.2f", seconds)) s, \(bytes) bytes" }

  /// Each stored property, as a memberwise initializer takes them.
  package init(frames: Int, seconds: Double, bytes: Int) {
    self.frames = frames
    self.seconds = seconds
    self.bytes = bytes
  }
}
