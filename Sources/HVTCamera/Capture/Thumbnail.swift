import HVTGStreamer

/// A capture's thumbnail: a small JPEG of the photo's frame or of the movie's first frame, made by a
/// still pipeline of its own (``CaptureSession/thumbnail(of:caps:maximumDimension:)`` keeps one per
/// camera): `appsrc ! videoscale ! video/x-raw,width=W,height=H ! videoconvert ! jpegenc ! appsink`.
enum Thumbnail {
  /// The JPEG quality of thumbnails: small files, no visible blocks at their size.
  static let quality = 85

  /// The size of the thumbnail of a `width` × `height` frame: its aspect ratio, the longer side
  /// `maximumDimension` (never more than the frame's), both sides even (for the JPEG's chroma) and at
  /// least 2.
  static func size(width: Int, height: Int, maximumDimension: Int) -> HVTFrameSize {
    let longer = max(width, height, 1)
    let scale = min(1, Double(maximumDimension) / Double(longer))
    let even = { (side: Int) in max(2, Int((Double(side) * scale / 2).rounded()) * 2) }
    return HVTFrameSize(width: even(width), height: even(height))
  }

  /// The still pipeline that turns one frame into a thumbnail of `size`.
  static func chain(size: HVTFrameSize) -> [HVTElementDescription] {
    HVTPipelineModel.stillPipeline([
      HVTElementDescription("videoscale", name: "thumbnail-scale"),
      .capsFilter("video/x-raw,width=\(size.width),height=\(size.height)", name: "thumbnail-size"),
      HVTElementDescription("videoconvert", name: "thumbnail-convert"),
      HVTElementDescription("jpegenc", name: "thumbnail-encoder", ["quality": String(quality)]),
    ])
  }
}
