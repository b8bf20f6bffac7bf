import Foundation

/// An affine transform of the plane, as `CGAffineTransform` has it: a point (x, y) becomes
/// (a·x + c·y + tx, b·x + d·y + ty). ``HVTCameraController/cameraViewTransform`` applies one to the
/// preview.
public struct HVTAffineTransform: Sendable, Hashable, CustomStringConvertible {
  /// The matrix entries.
  public var a: Double, b: Double, c: Double, d: Double
  /// The translation.
  public var tx: Double, ty: Double

  /// A transform with these entries.
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  /// The transform that changes nothing.
  public static let identity = HVTAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// Scales by `sx` horizontally and `sy` vertically (negative values flip).
  public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

  /// Moves by (`tx`, `ty`).
  public init(translationX tx: Double, y ty: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }

  /// Rotates by `angle` radians (positive: clockwise on screen, whose y axis points down).
  public init(rotationAngle angle: Double) {
    let (cosine, sine) = (Self.snapped(cos(angle)), Self.snapped(sin(angle)))
    self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
  }

  /// `self`, then `other`.
  public func concatenating(_ other: HVTAffineTransform) -> HVTAffineTransform {
    HVTAffineTransform(
      a: a * other.a + b * other.c, b: a * other.b + b * other.d,
      c: c * other.a + d * other.c, d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
  }

  /// Scaled by (`sx`, `sy`) before `self`.
  public func scaledBy(x sx: Double, y sy: Double) -> HVTAffineTransform {
    HVTAffineTransform(scaleX: sx, y: sy).concatenating(self)
  }

  /// Moved by (`tx`, `ty`) before `self`.
  public func translatedBy(x tx: Double, y ty: Double) -> HVTAffineTransform {
    HVTAffineTransform(translationX: tx, y: ty).concatenating(self)
  }

  /// Rotated by `angle` radians before `self`.
  public func rotated(by angle: Double) -> HVTAffineTransform {
    HVTAffineTransform(rotationAngle: angle).concatenating(self)
  }

  /// `[a b c d tx ty]`.
  public var description: String { "[\(a) \(b) \(c) \(d) \(tx) \(ty)]" }

  /// Rounds the sines and cosines of multiples of 90° to exact 0 and ±1.
  private static func snapped(_ value: Double) -> Double {
    for exact in [-1.0, 0, 1] where abs(value - exact) < 1e-9 { return exact }
    return value
  }
}
