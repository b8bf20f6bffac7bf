import Foundation

/// Something drawn on top of the camera's picture (``HVTCameraController/cameraOverlays``): an image with
/// alpha or a line of text, placed in fractions of the picture, on the preview only unless
/// ``HVTCameraController/overlayBurnsIntoCaptures`` says otherwise. The view transform does not move it.
public struct HVTCameraOverlay: Sendable, Hashable {
  /// What is drawn.
  public enum Content: Sendable, Hashable {
    /// An image file with or without alpha (PNG, JPEG, or anything else gdk-pixbuf reads), drawn by
    /// `gdkpixbufoverlay`.
    case image(URL)
    /// A line of text in white with a dark outline, drawn by `textoverlay` (Pango).
    case text(String)
  }

  /// What is drawn.
  public var content: Content
  /// The left edge, in fractions of the picture's width (0 to 1).
  public var x: Double
  /// The top edge, in fractions of the picture's height (0 to 1).
  public var y: Double
  /// An image's width in fractions of the picture's width (its height follows its aspect); a text's
  /// height in fractions of the picture's height. `nil`: an image at its own size, a text at 1/20 of the
  /// picture's height.
  public var size: Double?
  /// Opacity, 0 (invisible) to 1 (default).
  public var alpha: Double

  /// An overlay of `content` with its top-left corner at (`x`, `y`).
  public init(_ content: Content, x: Double = 0, y: Double = 0, size: Double? = nil, alpha: Double = 1) {
    (self.content, self.x, self.y, self.size, self.alpha) = (content, x, y, size, alpha)
  }

  /// Throws ``HVTCameraError/invalidOverlay(reason:)`` for an unreadable image or a value out of range.
  func validate() throws {
    let inRange: (Double) -> Bool = { $0.isFinite && $0 >= 0 && $0 <= 1 }
    guard inRange(x), inRange(y), inRange(alpha) else {
      throw HVTCameraError.invalidOverlay(
        reason: "x, y and alpha must be between 0 and 1 (x \(x), y \(y), alpha \(alpha))")
    }
    if let size, !(size.isFinite && size > 0 && size <= 1) {
      throw HVTCameraError.invalidOverlay(reason: "size must be above 0 and at most 1, not \(size)")
    }
    switch content {
    case .image(let url):
      guard url.isFileURL, FileManager.default.isReadableFile(atPath: url.path) else {
        throw HVTCameraError.invalidOverlay(reason: "\(url.path) is not a readable file")
      }
      let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
      guard size > 0 else { throw HVTCameraError.invalidOverlay(reason: "\(url.path) is empty") }
    case .text(let text):
      guard !text.isEmpty else { throw HVTCameraError.invalidOverlay(reason: "the text is empty") }
    }
  }
}

/// Which captures the overlays are also drawn into (``HVTCameraController/overlayBurnsIntoCaptures``).
public struct HVTOverlayTargets: OptionSet, Sendable, Hashable {
  /// The set's bits.
  public let rawValue: Int
  /// Makes the set from its raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// Into photos (before `jpegenc`).
  public static let photos = HVTOverlayTargets(rawValue: 1)
  /// Into movies (before the movie encoder): a watermark in recordings.
  public static let movies = HVTOverlayTargets(rawValue: 2)
}
