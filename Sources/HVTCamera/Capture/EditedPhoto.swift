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
    let structure = frame.caps.structure(at: 0)
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
    return HVTImage(jpegData: try pipeline.encode(frame), width: side, height: side)
  }
}
