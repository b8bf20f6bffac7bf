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
    /// Pixels the app drew (RGBA, straight alpha). Encoded to PNG (`pngenc`) when set and drawn like an
    /// image; setting new pixels of the same size on a running preview swaps the picture between two
    /// frames (the app's own animation or HUD, at the rate it sets them).
    case rgba(HVTRGBAImage)
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
  package func validate() throws {
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
    case .rgba(let image):
      guard (1...HVTRGBAImage.maximumSide).contains(image.width), (1...HVTRGBAImage.maximumSide).contains(image.height)
      else {
        throw HVTCameraError.invalidOverlay(
          reason: "an RGBA image must be 1 to \(HVTRGBAImage.maximumSide) pixels wide and high, not "
            + "\(image.width)x\(image.height)")
      }
      guard image.pixels.count == image.width * image.height * 4 else {
        throw HVTCameraError.invalidOverlay(
          reason: "an RGBA image of \(image.width)x\(image.height) holds \(image.width * image.height * 4) bytes, "
            + "not \(image.pixels.count)")
      }
    }
  }
}

/// Pixels an app drew for an overlay: rows of `width` RGBA pixels (red, green, blue, alpha; alpha not
/// premultiplied), top to bottom, without padding.
public struct HVTRGBAImage: Sendable, Hashable {
  /// The widest and highest an overlay image may be.
  public static let maximumSide = 8192
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// `width` × `height` × 4 bytes.
  public var pixels: Data

  /// An image of `width` × `height` pixels.
  public init(width: Int, height: Int, pixels: Data) {
    (self.width, self.height, self.pixels) = (width, height, pixels)
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
