import Foundation

/// 8-bit RGB pixels read by a tool independent of the engine: a decoded image (FFmpeg) or a screenshot of
/// an X11 window (`ximagesrc`, which reads the window with `XGetImage`).
public struct RGBImage: Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Rows of `width` × 3 bytes, top to bottom.
  public let bytes: [UInt8]

  /// The RGB part of RGBA pixels, rows `stride` bytes apart.
  public init(rgba: [UInt8], width: Int, height: Int, stride: Int) {
    var bytes = [UInt8]()
    bytes.reserveCapacity(width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let offset = y * stride + x * 4
        bytes += rgba[offset..<offset + 3]
      }
    }
    self.init(packed: bytes, width: width, height: height)
  }

  /// Packed RGB rows.
  init(packed bytes: [UInt8], width: Int, height: Int) {
    (self.width, self.height, self.bytes) = (width, height, bytes)
  }

  /// The pixel at (`x`, `y`).
  public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
    let offset = (y * width + x) * 3
    return (bytes[offset], bytes[offset + 1], bytes[offset + 2])
  }

  /// The centres of the runs of pixels of row `y` that `matches`, left to right: where marks of one
  /// colour (a timeline's handles, its playhead) are across the picture.
  public func runs(atRow y: Int, _ matches: ((r: UInt8, g: UInt8, b: UInt8)) -> Bool) -> [Double] {
    var (centres, start): ([Double], Int?) = ([], nil)
    for x in 0...width {
      let hit = x < width && matches(pixel(x, y))
      if hit, start == nil { start = x }
      if !hit, let begun = start {
        centres.append(Double(begun + x - 1) / 2)
        start = nil
      }
    }
    return centres
  }

  /// The colour bar at a point, by which channels are lit (above half): `white`, `yellow`, `cyan`,
  /// `green`, `magenta`, `red`, `blue` or `black` — the names of `videotestsrc`'s SMPTE bars.
  public func colourName(_ x: Int, _ y: Int) -> String {
    let (r, g, b) = pixel(x, y)
    switch (r > 127, g > 127, b > 127) {
    case (true, true, true): return "white"
    case (true, true, false): return "yellow"
    case (false, true, true): return "cyan"
    case (false, true, false): return "green"
    case (true, false, true): return "magenta"
    case (true, false, false): return "red"
    case (false, false, true): return "blue"
    case (false, false, false): return "black"
    }
  }

  /// The seven bars across the picture at a third of its height, left to right, as named by
  /// ``colourName(_:_:)``, sampled at each bar's middle within `area` (x, y, width, height; the whole image
  /// by default).
  public func barNames(in area: (x: Int, y: Int, width: Int, height: Int)? = nil) -> [String] {
    let area = area ?? (0, 0, width, height)
    return (0..<7).map { colourName(area.x + area.width * (2 * $0 + 1) / 14, area.y + area.height / 3) }
  }

  /// The SMPTE bars' names, left to right, as the simulated camera (`videotestsrc`) shows them.
  public static let smpteBars = ["white", "yellow", "cyan", "green", "magenta", "red", "blue"]

  /// Decodes an image file (or a movie's frame number `frame`, from 0: by default its first) with FFmpeg
  /// and scales it to `width` × `height`.
  public static func decode(_ path: String, frame: Int = 0, width: Int, height: Int) async throws -> RGBImage {
    try await withRawFile { raw in
      try await MediaInspector.run(
        "ffmpeg",
        [
          "-v", "error", "-y", "-i", path, "-frames:v", "1", "-vf", "select=eq(n\\,\(frame)),scale=\(width):\(height)",
          "-f", "rawvideo", "-pix_fmt", "rgb24", raw,
        ])
    }
    .image(width: width, height: height)
  }

  /// A screenshot of an X11 window on `display` (its contents and its children's), at the window's size,
  /// which must be `width` × `height`.
  public static func screenshot(window: String, display: String, width: Int, height: Int) async throws -> RGBImage {
    try await withRawFile { raw in
      try await MediaInspector.run(
        "env",
        [
          "DISPLAY=\(display)", "gst-launch-1.0", "-q", "ximagesrc", "xid=\(window)", "use-damage=false",
          "show-pointer=false",
          "num-buffers=1", "!", "videoconvert", "!", "video/x-raw,format=RGB", "!", "filesink", "location=\(raw)",
        ])
    }
    .image(width: width, height: height)
  }

  /// Screenshots of a window until one shows what `shows` accepts (a change appears at the next frames a
  /// sink draws), at most `tries`; returns the last.
  public static func screenshot(
    window: String, display: String, width: Int, height: Int, tries: Int = 30,
    showing shows: (RGBImage) -> Bool
  ) async throws -> RGBImage {
    var image = try await screenshot(window: window, display: display, width: width, height: height)
    for _ in 1..<tries where !shows(image) {
      image = try await screenshot(window: window, display: display, width: width, height: height)
    }
    return image
  }

  /// Writes a 64 × 64 opaque green PNG (an overlay the tests can find in a picture), made by GStreamer's
  /// `pngenc`, to `path`.
  public static func writeGreenSquarePNG(to path: String) async throws {
    let result = try await MediaInspector.run(
      "gst-launch-1.0",
      [
        "-q", "videotestsrc", "num-buffers=1", "pattern=green", "!", "video/x-raw,format=RGBA,width=64,height=64",
        "!", "pngenc", "!", "filesink", "location=\(path)",
      ])
    guard result.status == 0 else { throw InspectionError(result.output) }
  }

  /// With `HVTCAM_SCREENSHOTS` set to a folder (`./dev screenshots`), saves a half-size PNG of an X11
  /// window there as `name.png`, for the README; otherwise does nothing.
  public static func keepScreenshot(
    of window: String, display: String, named name: String, width: Int, height: Int
  ) async throws {
    guard let folder = ProcessInfo.processInfo.environment["HVTCAM_SCREENSHOTS"] else { return }
    let result = try await MediaInspector.run(
      "env",
      [
        "DISPLAY=\(display)", "gst-launch-1.0", "-q", "ximagesrc", "xid=\(window)", "use-damage=false",
        "show-pointer=false", "num-buffers=1", "!", "videoconvert", "!", "videoscale", "!",
        "video/x-raw,width=\(width / 2),height=\(height / 2)", "!", "pngenc", "compression-level=9", "!", "filesink",
        "location=\(folder)/\(name).png",
      ])
    guard result.status == 0 else { throw InspectionError(result.output) }
  }

  /// Runs `produce` with a fresh file's path and returns what it wrote there.
  private static func withRawFile(_ produce: (String) async throws -> (status: Int32, output: String)) async throws
    -> Data
  {
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("rgb-\(UUID().uuidString).raw").path
    defer { unlink(raw) }
    let result = try await produce(raw)
    guard result.status == 0, let bytes = FileManager.default.contents(atPath: raw) else {
      throw InspectionError(result.output)
    }
    return bytes
  }
}

extension Data {
  /// The bytes as an RGB image of that size; throws when their count does not match.
  fileprivate func image(width: Int, height: Int) throws -> RGBImage {
    guard count == width * height * 3 else {
      throw InspectionError("expected \(width)x\(height) RGB (\(width * height * 3) bytes), read \(count) bytes")
    }
    return RGBImage(packed: [UInt8](self), width: width, height: height)
  }
}
