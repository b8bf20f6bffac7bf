import CScaledJPEG
import Foundation
import HVTCairo
import HVTGStreamer
import HVTSupport

/// The thumbnail of a photo or movie file: its first frame, decoded by `filesrc ! decodebin !
/// videoconvert ! appsink`, then made small by the capture thumbnails' own still pipeline
/// (``Thumbnail/chain(size:)``).
enum FileThumbnail {
  /// How long decoding the first frame may take.
  static let timeout = 5.0

  /// A JPEG of `url`'s first frame, at most `maximumDimension` pixels on its longer side. With a
  /// `cache`, made from the cached thumbnail when one is current and large enough, and the cache filled
  /// when the file is decoded (``frame(of:shownAt:cache:)``). Throws
  /// ``HVTCameraError/fileReadFailed(path:reason:)`` when no frame is decoded within ``timeout`` (the
  /// file holds no picture, or no decoder for it is installed), or GStreamer's error.
  static func make(of url: URL, maximumDimension: Int, cache: ThumbnailCache? = nil) throws -> HVTImage {
    let (buffer, caps) = try frame(of: url, shownAt: maximumDimension, cache: cache)
    let structure = caps.structure(at: 0)
    let size = Thumbnail.size(
      width: structure.int("width") ?? 0, height: structure.int("height") ?? 0, maximumDimension: maximumDimension)
    let encoder = try PhotoEncoder(chain: Thumbnail.chain(size: size), name: "hvtcamera-file-thumbnail")
    defer { encoder.stop() }
    return HVTImage(jpegData: try encoder.encode(buffer, caps: caps), width: size.width, height: size.height)
  }

  /// `url`'s first frame as RGBx pixels, scaled (its aspect ratio kept) to fit `box`: a tile of the
  /// library window. With a `cache`, from the cached thumbnail when one is current, and the cache filled
  /// when the file is decoded (``frame(of:shownAt:cache:)``). Throws as
  /// ``make(of:maximumDimension:cache:)``.
  static func picture(of url: URL, fitting box: HVTFrameSize, cache: ThumbnailCache? = nil) throws
    -> LibraryCanvas.Picture
  {
    let (buffer, caps) = try frame(of: url, shownAt: max(box.width, box.height), cache: cache)
    return try scaled(buffer, caps: caps, fitting: box)
  }

  /// A frame as RGBx pixels, scaled (its aspect ratio kept, never enlarged, even sides) to fit `box`, by
  /// the still pipeline `appsrc ! videoscale ! videoconvert ! video/x-raw,format=RGBx,… ! appsink`.
  static func scaled(_ buffer: Buffer, caps: Caps, fitting box: HVTFrameSize) throws -> LibraryCanvas.Picture {
    let structure = caps.structure(at: 0)
    let (width, height) = (max(1, structure.int("width") ?? 1), max(1, structure.int("height") ?? 1))
    let scale = min(1, Double(box.width) / Double(width), Double(box.height) / Double(height))
    let size = HVTFrameSize(
      width: max(2, Int(Double(width) * scale / 2) * 2), height: max(2, Int(Double(height) * scale / 2) * 2))
    let scaler = try PhotoEncoder(
      chain: HVTPipelineModel.stillPipeline([
        HVTElementDescription("videoscale", name: "tile-scale"),
        HVTElementDescription("videoconvert", name: "tile-convert"),
        .capsFilter(
          "video/x-raw,format=RGBx,width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1", name: "tile-size"),
      ]), name: "hvtcamera-library-tile")
    defer { scaler.stop() }
    return LibraryCanvas.Picture(width: size.width, height: size.height, bytes: try scaler.encode(buffer, caps: caps))
  }

  /// The frame a thumbnail or tile of at most `longerSide` pixels is made from. Without a `cache`,
  /// ``frame(of:shownAt:)``. With one, the smallest cached size at least `longerSide` pixels
  /// (``ThumbnailCache/Flavour/fitting(_:)``) is read when current; otherwise the file is decoded and
  /// scaled to that size (or to `large` when `longerSide` is larger than any), the cache entry written
  /// (unless a current one is there), and the thumbnail returned (the decoded frame itself when
  /// `longerSide` is larger than any cached size). The file's modification time is read before it is
  /// decoded, so that a file changed meanwhile leaves a stale entry, not a wrong current one.
  static func frame(of url: URL, shownAt longerSide: Int, cache: ThumbnailCache?) throws -> (Buffer, Caps) {
    guard let cache, let source = ThumbnailCache.Source(url) else { return try frame(of: url, shownAt: longerSide) }
    let flavour = ThumbnailCache.Flavour.fitting(longerSide)
    if let flavour, let cached = cache.picture(of: source, flavour) {
      return try rawFrame(width: cached.width, height: cached.height, pixels: Data(cached.pixels))
    }
    let stored = flavour ?? .large
    let (buffer, caps) = try frame(of: url, shownAt: max(longerSide, stored.size))
    if flavour == nil && cache.isCurrent(source, stored) { return (buffer, caps) }
    let thumbnail = try scaled(buffer, caps: caps, fitting: HVTFrameSize(width: stored.size, height: stored.size))
    if let image = PNGImage(width: thumbnail.width, height: thumbnail.height, pixels: [UInt8](thumbnail.bytes)) {
      cache.store(image, of: source, stored)
    }
    guard flavour != nil else { return (buffer, caps) }
    return try rawFrame(width: thumbnail.width, height: thumbnail.height, pixels: thumbnail.bytes)
  }

  /// RGBx `pixels` of `width` × `height` as a still frame with its caps.
  private static func rawFrame(width: Int, height: Int, pixels: Data) throws -> (Buffer, Caps) {
    let caps = try Caps("video/x-raw,format=RGBx,width=\(width),height=\(height),framerate=0/1")
    return (Buffer(copying: pixels), caps)
  }

  /// The first decoded frame of the file's first video stream, as raw video, for a picture whose longer
  /// side is `longerSide` pixels: a JPEG is decoded at the smallest of 1/1, 1/2, 1/4 and 1/8 of its size
  /// still that large (``scaledJPEG(_:longerSide:)``), anything else whole by `decodebin`.
  static func frame(of url: URL, shownAt longerSide: Int) throws -> (Buffer, Caps) {
    if ImageHeader.read(path: url.path)?.kind == .jpeg { return try scaledJPEG(url, longerSide: longerSide) }
    return try decodedFrame(of: url)
  }

  /// A JPEG decoded by libjpeg's DCT scaling (`scale_denom`) to RGBx, so that a 16000×12000 photo costs a
  /// 2000×1500 picture's memory, not 768 MB. Wraps `hvt_jpeg_decode_scaled`.
  private static func scaledJPEG(_ url: URL, longerSide: Int) throws -> (Buffer, Caps) {
    var pixels: UnsafeMutablePointer<UInt8>?
    var (width, height): (Int32, Int32) = (0, 0)
    var message = [CChar](repeating: 0, count: 256)
    let status = message.withUnsafeMutableBufferPointer { text in
      hvt_jpeg_decode_scaled(url.path, Int32(longerSide), &pixels, &width, &height, text.baseAddress, text.count)
    }
    guard status == 0, let pixels else {
      let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      throw HVTCameraError.fileReadFailed(path: url.path, reason: "not a JPEG that can be decoded: \(reason)")
    }
    defer { hvt_jpeg_free(pixels) }
    let bytes = Data(bytesNoCopy: pixels, count: Int(width) * Int(height) * 4, deallocator: .none)
    return try rawFrame(width: Int(width), height: Int(height), pixels: bytes)
  }

  /// The frame `decodebin` decodes of the file's first video stream shown `seconds` after its first frame
  /// (by default the first frame), as raw video: the pipeline prerolls on the first frame, then, for a
  /// later time, an accurate seek prerolls it on the frame shown at that time (whose timestamp the
  /// decoder clips to it).
  static func decodedFrame(of url: URL, at seconds: Double = 0) throws -> (Buffer, Caps) {
    let pipeline = Pipeline(named: "hvtcamera-file-frame")
    let reading = try ElementChain(
      [
        HVTElementDescription("filesrc", name: "source", ["location": url.path]),
        HVTElementDescription("decodebin", name: "decoder"),
      ], in: pipeline)
    let frames = try ElementChain(
      [
        HVTElementDescription("videoconvert", name: "convert"),
        HVTElementDescription("appsink", name: "frame", ["max-buffers": "1", "sync": "false"]),
      ], in: pipeline)
    let error = Locked<MessageReport?>(nil)
    pipeline.bus.setSyncHandler { message in
      if case .error(let report) = message { error.withLock { $0 = $0 ?? report } }
    }
    let convert = frames.first
    let linked = Locked(false)
    // decodebin adds a pad per decoded stream, with its caps: the first raw video one is linked.
    reading.last.onPadAdded { pad in
      guard pad.currentCaps.map({ $0.count > 0 && $0.structure(at: 0).name == "video/x-raw" }) ?? false,
        let input = convert.staticPad("sink")
      else { return }
      let first = linked.withLock { linked -> Bool in
        defer { linked = true }
        return !linked
      }
      guard first else { return }
      do { try pad.link(to: input) } catch { debugLog.log(.warning, "thumbnail of \(url.path): \(error)") }
    }
    defer {
      Teardown.stop(pipeline, what: "the thumbnail pipeline for \(url.path)")
      pipeline.bus.removeSyncHandler()
    }
    guard pipeline.setState(.paused) != .failure else {
      throw HVTCameraError.pipelineSetupFailed(.stateChangeFailed(element: pipeline.name, target: .paused))
    }
    let preroll = { () throws -> (Buffer, Caps) in
      guard let sample = frames.last.pullPreroll(timeout: timeout), let buffer = sample.buffer, let caps = sample.caps
      else {
        if let report = error.withLock({ $0 }) { throw HVTCameraError.gstreamer(HVTGStreamerMessage(report)) }
        throw HVTCameraError.fileReadFailed(
          path: url.path, reason: "no picture was decoded from it within \(Int(timeout)) s")
      }
      return (buffer, caps)
    }
    let first = try preroll()
    let origin = first.0.presentationTime
    guard seconds > 0, ClockTime.isValid(origin),
      pipeline.seek(to: origin + ClockTime.from(seconds: seconds), accurate: true)
    else { return first }
    return try preroll()
  }
}
