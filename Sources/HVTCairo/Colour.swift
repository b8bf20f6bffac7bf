/// A colour with straight (not premultiplied) alpha, each component from 0 to 1.
public struct Colour: Sendable, Hashable {
  /// Red, 0 to 1.
  public var red: Double
  /// Green, 0 to 1.
  public var green: Double
  /// Blue, 0 to 1.
  public var blue: Double
  /// Opacity, 0 (transparent) to 1 (opaque).
  public var alpha: Double

  /// A colour of these components.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
  }

  /// Opaque white.
  public static let white = Colour(red: 1, green: 1, blue: 1)
  /// Opaque black.
  public static let black = Colour(red: 0, green: 0, blue: 0)

  /// This colour with another opacity.
  public func opacity(_ alpha: Double) -> Colour {
    Colour(red: red, green: green, blue: blue, alpha: alpha)
  }
}
