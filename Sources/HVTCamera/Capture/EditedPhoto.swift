import Foundation
import HVTGStreamer

/// The edited image of a photo taken with ``HVTCameraController/allowsEditing``: a square crop of the
/// photo's frame, scaled down to at most ``HVTCameraController/editedImageMaximumDimension`` pixels, as
/// a JPEG. Made by a pipeline of its own: `appsrc ! videocrop ! videoscale ! caps ! videoconvert !
/// <photo encoder> ! appsink`.
enum EditedPhoto {
  /// The square crop of a `width` × `height` photo nearest `requested`: the largest centred square
  /// without a request; otherwise the request made square (its shorter side), kept inside the photo.
  static func square(_ requested: HVTRect?, width: Int, height: Int) -> HVTRect {
    let shortest = min(width, height)
    guard let requested else {
      return HVTRect(x: (width - shortest) / 2, y: (height - shortest) / 2, width: shortest, height: shortest)
    }
    let side = min(max(16, min(requested.width, requested.height)), shortest)
    return HVTRect(
      x: min(max(0, requested.x), width - side), y: min(max(0, requested.y), height - side), width: side,
      height: side)
  }

  /// Crops `frame` to `crop` (a square inside it) and encodes it with `encoder` (the photo encoder's
  /// element). Blocks for the encode: call it off the controller queue.
  static func make(
    from frame: FrameTap.Frame, crop: HVTRect, encoder: HVTElementDescription, maximumDimension: Int
  ) throws -> HVTImage {
    try make(from: frame.buffer, caps: frame.caps, crop: crop, encoder: encoder, maximumDimension: maximumDimension)
  }

  /// The edited image of a library photo (``HVTCameraController/pick(_:)`` with `allowsEditing`): the
  /// square of the `width` × `height` photo at `url` nearest `requested` (``square(_:width:height:)``),
  /// from its pixels decoded at no more than the edited image needs (``FileThumbnail``), encoded by
  /// `jpegenc`. Returns the image and its crop in the photo's own pixels. Blocks for the decode and encode.
  static func make(
    ofPhotoAt url: URL, width: Int, height: Int, requested: HVTRect?, maximumDimension: Int
  ) throws -> (image: HVTImage, crop: HVTRect) {
    let crop = square(requested, width: width, height: height)
    // The decoded picture's shorter side at least the edited image's side.
    let side = min(crop.width, maximumDimension)
    let longerSide = (side * max(width, height) + min(width, height) - 1) / max(1, min(width, height))
    let (buffer, caps) = try FileThumbnail.frame(of: url, shownAt: longerSide)
    let structure = caps.structure(at: 0)
    let scale = Double(structure.int("width") ?? width) / Double(max(1, width))
    let scaled = square(
      HVTRect(
        x: Int(Double(crop.x) * scale), y: Int(Double(crop.y) * scale), width: Int(Double(crop.width) * scale),
        height: Int(Double(crop.height) * scale)),
      width: structure.int("width") ?? width, height: structure.int("height") ?? height)
    let image = try make(
      from: buffer, caps: caps, crop: scaled, encoder: HVTElementDescription("jpegenc", name: "edit-encoder"),
      maximumDimension: maximumDimension)
    return (image, crop)
  }

  /// Crops `buffer` (raw video of `caps`) to `crop` and encodes it with `encoder`.
  private static func make(
    from buffer: Buffer, caps: Caps, crop: HVTRect, encoder: HVTElementDescription, maximumDimension: Int
  ) throws -> HVTImage {
    let structure = caps.structure(at: 0)
    let (width, height) = (structure.int("width") ?? 0, structure.int("height") ?? 0)
    let side = min(crop.width, maximumDimension)
    let chain = HVTPipelineModel.stillPipeline([
      HVTElementDescription(
        "videocrop", name: "edit-crop",
        [
          "left": String(crop.x), "right": String(width - crop.x - crop.width), "top": String(crop.y),
          "bottom": String(height - crop.y - crop.height),
        ]),
      HVTElementDescription("videoscale", name: "edit-scale"),
      .capsFilter("video/x-raw,width=\(side),height=\(side)", name: "edit-size"),
      HVTElementDescription("videoconvert", name: "edit-convert"),
      encoder,
    ])
    let pipeline = try PhotoEncoder(chain: chain, name: "hvtcamera-edit")
    defer { pipeline.stop() }
    return HVTImage(jpegData: try pipeline.encode(buffer, caps: caps), width: side, height: side)
  }
}
