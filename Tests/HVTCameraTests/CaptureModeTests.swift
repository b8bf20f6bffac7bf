import Testing

@testable import HVTCamera

@Suite("Capture modes from caps")
struct CaptureModeTests {
  func lines(_ caps: String) throws -> [String] { try HVTCaptureMode.modes(in: caps).map(\.description) }

  @Test("a C920: one mode per format and size, formats in the device's order, largest first")
  func c920() throws {
    let modes = try HVTCaptureMode.modes(in: WebcamCaps.logitechC920.caps)
    #expect(modes.count == 19 + 17 + 17)
    var formats: [String] = []
    for mode in modes where !formats.contains(mode.format) { formats.append(mode.format) }
    #expect(formats == ["YUY2", "MJPEG", "H264"])
    let text = modes.map(\.description)
    #expect(text.first == "YUY2 2304x1536 @ 2 fps")
    #expect(text.contains("YUY2 1280x720 @ 10, 7.5, 5 fps"))
    #expect(text.contains("YUY2 640x480 @ 30, 24, 20, 15, 10, 7.5, 5 fps"))
    #expect(text.contains("MJPEG 1920x1080 @ 30, 24, 20, 15, 10, 7.5, 5 fps"))
    #expect(text.last == "H264 160x90 @ 30, 24, 20, 15, 10, 7.5, 5 fps")
    let mjpeg = modes.filter { $0.format == "MJPEG" }.compactMap(\.size)
    #expect(mjpeg == mjpeg.sorted(by: >))
  }

  @Test("a BRIO: 4K MJPEG at 30 fps, NV12 at 4K up to 15, MJPEG up to 120 fps at 640x480")
  func brio() throws {
    let text = try lines(WebcamCaps.logitechBRIO.caps)
    #expect(text.contains("MJPEG 4096x2160 @ 30, 24, 20, 15, 10, 7.5, 5 fps"))
    #expect(text.contains("NV12 3840x2160 @ 15, 10, 7.5, 5 fps"))
    #expect(text.contains("MJPEG 640x480 @ 120, 90, 60, 30, 24, 20, 15, 10, 7.5, 5 fps"))
    #expect(text.firstIndex(of: "NV12 4096x2160 @ 15, 10, 7.5, 5 fps")! < text.firstIndex { $0.hasPrefix("MJPEG") }!)
  }

  @Test(
    "every fixture: as many modes as structures, each listing a size and at least one rate",
    arguments: WebcamCaps.all)
  func everyFixture(_ model: WebcamCaps.Model) throws {
    let modes = try HVTCaptureMode.modes(in: model.caps)
    #expect(modes.count == model.caps.components(separatedBy: ";").count)
    for mode in modes {
      #expect(mode.size != nil)
      guard case .discrete(let rates) = mode.frameRates else {
        Issue.record("\(mode) has a range of rates")
        continue
      }
      #expect(!rates.isEmpty && rates == rates.sorted(by: >))
    }
  }

  @Test("ranges stay one mode per format; lists of formats and sizes expand")
  func rangesAndLists() throws {
    #expect(
      try lines(CameraDiscovery.simulatedCaps) == [
        "I420 16x16 to 3840x2160 @ 1 to 30 fps", "NV12 16x16 to 3840x2160 @ 1 to 30 fps",
        "YUY2 16x16 to 3840x2160 @ 1 to 30 fps", "MJPEG 16x16 to 3840x2160 @ 1 to 30 fps",
      ])
    let listed = try HVTCaptureMode.modes(
      in: "video/x-raw, format=(string){ YUY2, NV12 }, width=(int){ 640, 1280 }, height=(int)480, "
        + "framerate=(fraction){ 15/1, 30/1 }")
    #expect(
      listed.map(\.description) == [
        "YUY2 1280x480 @ 30, 15 fps", "YUY2 640x480 @ 30, 15 fps", "NV12 1280x480 @ 30, 15 fps",
        "NV12 640x480 @ 30, 15 fps",
      ])
    let stepped = try #require(
      try HVTCaptureMode.modes(
        in: "video/x-raw, format=(string)YU12, width=(int)[ 32, 2592, 2 ], height=(int)[ 32, 1944, 2 ]"
      ).first)
    #expect(stepped.width == 32...2592 && stepped.height == 32...1944 && stepped.size == nil)
    #expect(stepped.description == "YU12 32x32 to 2592x1944 @ any rate")
  }

  @Test("the same format and size from several structures is one mode with the rates united")
  func merging() throws {
    #expect(
      try lines(
        "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 15/1 }; "
          + "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction){ 25/1, 15/1 }")
        == ["YUY2 640x480 @ 30, 25, 15 fps"])
    let widened = try HVTCaptureMode.modes(
      in: "image/jpeg, width=(int)640, height=(int)480, framerate=(fraction)60/1; "
        + "image/jpeg, width=(int)640, height=(int)480, framerate=(fraction)[ 5/1, 30/1 ]")
    #expect(widened.map(\.frameRates) == [.range(min: HVTFrameRate(5), max: HVTFrameRate(60))])
  }

  @Test("rates: fractions as numbers, 0/1 as variable; odd formats keep readable names")
  func rateTextAndNames() throws {
    #expect(
      try lines("video/x-raw, format=(string)NV12, width=(int)1280, height=(int)720, framerate=(fraction)30000/1001")
        == ["NV12 1280x720 @ 29.97 fps"])
    #expect(
      try lines("video/x-raw, format=(string)NV12, width=(int)1280, height=(int)720, framerate=(fraction)0/1")
        == ["NV12 1280x720 @ variable rate"])
    #expect(
      try lines(
        "video/x-bayer, format=(string)bggr, width=(int)640, height=(int)480, framerate=(fraction)30/1; "
          + "video/x-h265, width=(int)640, height=(int)480; video/x-raw, width=(int)320, height=(int)240")
        == ["bayer bggr 640x480 @ 30 fps", "H265 640x480 @ any rate", "raw 320x240 @ any rate"])
  }

  @Test("structures without a size are skipped; caps that do not parse throw")
  func skippedAndInvalid() throws {
    #expect(try HVTCaptureMode.modes(in: "video/x-raw, format=(string)YUY2").isEmpty)
    #expect(try HVTCaptureMode.modes(in: "EMPTY").isEmpty)
    #expect(throws: HVTCameraError.self) { try HVTCaptureMode.modes(in: "video/x-raw, width=(int)[") }
  }
}
