/// A rectangle in pixels from a picture's or window's top-left corner: where an embedded preview draws
/// in the app's window (``HVTCameraController/setPreviewRectangle(_:)``), the crop of an edited photo
/// (``HVTInfoKey/cropRect``).
public struct HVTRect: Sendable, Hashable, CustomStringConvertible {
  /// Left edge.
  public var x: Int
  /// Top edge.
  public var y: Int
  /// Width.
  public var width: Int
  /// Height.
  public var height: Int

  /// A rectangle at (`x`, `y`) of `width` × `height` pixels.
  public init(x: Int, y: Int, width: Int, height: Int) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }

  /// `x,y WIDTHxHEIGHT`.
  public var description: String { "\(x),\(y) \(width)x\(height)" }
}
