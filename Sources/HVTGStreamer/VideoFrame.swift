import CGStreamer

extension Buffer {
  /// The mean of the first colour component (luma for YUV formats, red for RGB) over a grid of up to
  /// 64×64 samples, from 0 (black) to 1 (white); `nil` when the caps are not raw video.
  /// Wraps `gst_video_info_from_caps` and `gst_video_frame_map`.
  public func meanFirstComponent(caps: Caps) -> Double? {
    var info = GstVideoInfo()
    guard gst_video_info_from_caps(&info, caps.pointer) != 0 else { return nil }
    var frame = GstVideoFrame()
    guard gst_video_frame_map(&frame, &info, pointer, GST_MAP_READ) != 0 else { return nil }
    defer { gst_video_frame_unmap(&frame) }
    guard let data = hvt_gst_video_frame_comp_data(&frame, 0) else { return nil }
    let width = Int(hvt_gst_video_frame_comp_width(&frame, 0))
    let height = Int(hvt_gst_video_frame_comp_height(&frame, 0))
    let stride = Int(hvt_gst_video_frame_comp_stride(&frame, 0))
    let pixelStride = Int(hvt_gst_video_frame_comp_pstride(&frame, 0))
    let depth = Int(hvt_gst_video_frame_comp_depth(&frame, 0))
    guard width > 0, height > 0, depth == 8 else { return nil }
    let stepX = max(1, width / 64)
    let stepY = max(1, height / 64)
    var sum = 0
    var count = 0
    for y in Swift.stride(from: 0, to: height, by: stepY) {
      for x in Swift.stride(from: 0, to: width, by: stepX) {
        sum += Int(data[y * stride + x * pixelStride])
        count += 1
      }
    }
    return Double(sum) / Double(count * 255)
  }
}

/// The pixels of one raw video frame, copied out of its buffer.
public struct VideoFramePixels: Sendable {
  /// The raw format's name, e.g. `RGBA`.
  public var format: String
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bytes from one row of the first plane to the next.
  public var stride: Int
  /// Every plane, one after another, as the buffer holds them.
  public var bytes: [UInt8]
}

extension Sample {
  /// The sample's frame as raw video: format, size, first-plane stride and a copy of the bytes; `nil`
  /// when its caps are not raw video. Wraps `gst_video_info_from_caps` and `gst_video_frame_map`.
  public func videoFramePixels() -> VideoFramePixels? {
    guard let caps, let buffer else { return nil }
    var info = GstVideoInfo()
    guard gst_video_info_from_caps(&info, caps.pointer) != 0 else { return nil }
    var frame = GstVideoFrame()
    guard gst_video_frame_map(&frame, &info, buffer.pointer, GST_MAP_READ) != 0 else { return nil }
    defer { gst_video_frame_unmap(&frame) }
    let format = caps.structure(at: 0).string("format") ?? ""
    let bytes = buffer.withBytes { Array($0) }
    return VideoFramePixels(
      format: format, width: Int(hvt_gst_video_frame_comp_width(&frame, 0)),
      height: Int(hvt_gst_video_frame_comp_height(&frame, 0)), stride: Int(hvt_gst_video_frame_comp_stride(&frame, 0)),
      bytes: bytes)
  }
}
