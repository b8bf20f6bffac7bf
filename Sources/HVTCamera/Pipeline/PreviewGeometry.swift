/// What a shown preview does to the camera's frames before they are drawn: the part of the frame it
/// crops (`videocrop`, then `videoscale` back to the frame's size: the view transform's zoom and pan) and
/// the turn or flip it applies (`videoflip`: the view transform's rotation and flips, and the front
/// camera's mirror). Photos and movies never go through it.
struct PreviewGeometry: Equatable {
  /// `videocrop`'s `left`, `right`, `top`, `bottom`, in pixels of the frame.
  var left = 0, right = 0, top = 0, bottom = 0
  /// `videoflip`'s `video-direction` (`GstVideoOrientationMethod`): `identity`, `90r`, `180`, `90l`,
  /// `horiz`, `vert`, `ul-lr`, `ur-ll`.
  var direction = "identity"

  /// Whether the turn swaps width and height (a quarter turn or a diagonal flip).
  var turnsQuarter: Bool { ["90r", "90l", "ul-lr", "ur-ll"].contains(direction) }

  /// The elements' names in the preview branch.
  static let cropName = "preview-zoom"
  static let sizeName = "preview-size"
  static let orientationName = "preview-orientation"

  /// A signed permutation matrix (entries 0 and ±1) in row order: x' = m0·x + m1·y, y' = m2·x + m3·y.
  private typealias Turn = [Int]

  /// The eight turns and flips `videoflip` makes, with the names of its `video-direction` values.
  private static let directions: [(Turn, String)] = [
    ([1, 0, 0, 1], "identity"), ([0, -1, 1, 0], "90r"), ([-1, 0, 0, -1], "180"), ([0, 1, -1, 0], "90l"),
    ([-1, 0, 0, 1], "horiz"), ([1, 0, 0, -1], "vert"), ([0, 1, 1, 0], "ul-lr"), ([0, -1, -1, 0], "ur-ll"),
  ]

  /// The geometry for `transform` on frames of `width` × `height`, mirrored first when `mirrored`.
  /// Throws ``HVTCameraError/unsupportedViewTransform(_:reason:)`` unless the transform is a zoom
  /// (scales of at least 1), a pan, and turns by multiples of 90° or flips. A pan past the frame's edge
  /// stops at the edge.
  init(transform: HVTAffineTransform, mirrored: Bool, width: Int, height: Int) throws {
    let values = [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty]
    guard values.allSatisfy(\.isFinite) else {
      throw HVTCameraError.unsupportedViewTransform(transform, reason: "its entries must be finite numbers")
    }
    // The linear part must be a turn or flip times a scale along the frame's axes.
    let turn: Turn
    let (scaleX, scaleY): (Double, Double)
    if transform.b == 0 && transform.c == 0 {
      turn = [transform.a < 0 ? -1 : 1, 0, 0, transform.d < 0 ? -1 : 1]
      (scaleX, scaleY) = (abs(transform.a), abs(transform.d))
    } else if transform.a == 0 && transform.d == 0 {
      turn = [0, transform.c < 0 ? -1 : 1, transform.b < 0 ? -1 : 1, 0]
      (scaleX, scaleY) = (abs(transform.b), abs(transform.c))
    } else {
      throw HVTCameraError.unsupportedViewTransform(
        transform, reason: "only rotations by multiples of 90° and flips can be shown (no shear or other angles)")
    }
    guard scaleX >= 1, scaleY >= 1 else {
      throw HVTCameraError.unsupportedViewTransform(
        transform, reason: "a scale below 1 would zoom out of the frame; scales must be at least 1")
    }
    let mirror: Turn = mirrored ? [-1, 0, 0, 1] : [1, 0, 0, 1]
    let total = Self.multiply(turn, mirror)
    direction = Self.directions.first { $0.0 == total }?.1 ?? "identity"
    // The visible part's centre moves against the translation, in the frame's own axes: undo the turn
    // (its inverse is its transpose), the scale, then the mirror.
    let back = (
      x: Double(turn[0]) * transform.tx + Double(turn[2]) * transform.ty,
      y: Double(turn[1]) * transform.tx + Double(turn[3]) * transform.ty
    )
    let shift = (x: -Double(mirror[0]) * back.x / scaleX, y: -Double(mirror[3]) * back.y / scaleY)
    let (cropWidth, cropHeight) = (Double(width) / scaleX, Double(height) / scaleY)
    let centreX = min(max(Double(width) / 2 + shift.x, cropWidth / 2), Double(width) - cropWidth / 2)
    let centreY = min(max(Double(height) / 2 + shift.y, cropHeight / 2), Double(height) - cropHeight / 2)
    // Even numbers of pixels, so that 4:2:0 chroma is cropped with its luma.
    left = Self.even(centreX - cropWidth / 2)
    top = Self.even(centreY - cropHeight / 2)
    right = max(0, width - left - Self.even(cropWidth))
    bottom = max(0, height - top - Self.even(cropHeight))
  }

  /// `lhs · rhs` for 2 × 2 matrices in row order.
  private static func multiply(_ lhs: Turn, _ rhs: Turn) -> Turn {
    [
      lhs[0] * rhs[0] + lhs[1] * rhs[2], lhs[0] * rhs[1] + lhs[1] * rhs[3],
      lhs[2] * rhs[0] + lhs[3] * rhs[2], lhs[2] * rhs[1] + lhs[3] * rhs[3],
    ]
  }

  private static func even(_ value: Double) -> Int { max(0, Int((value / 2).rounded()) * 2) }

  /// The elements that apply it, as the preview chain starts them: `videocrop ! videoscale ! caps`
  /// always (both pass frames through untouched while nothing is cropped, so a zoom changes their
  /// properties on the running preview), then `videoflip` only for a turn or flip — it copies every
  /// frame even for `identity` (GStreamer 1.22), a quarter of a millisecond at 720p.
  func elements(width: Int, height: Int) -> [HVTElementDescription] {
    [
      HVTElementDescription(
        "videocrop", name: Self.cropName,
        ["left": String(left), "right": String(right), "top": String(top), "bottom": String(bottom)]),
      HVTElementDescription("videoscale", name: "preview-scale"),
      .capsFilter("video/x-raw,width=\(width),height=\(height)", name: Self.sizeName),
    ]
      + (direction == "identity"
        ? [] : [HVTElementDescription("videoflip", name: Self.orientationName, ["video-direction": direction])])
  }
}
