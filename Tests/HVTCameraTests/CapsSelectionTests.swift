import Testing

@testable import HVTCamera

/// Caps tables of real webcams, in GStreamer caps syntax as `gst-device-monitor-1.0` prints them.
enum CapsFixtures {
  /// A typical UVC webcam: YUY2 only at low rates for big sizes, MJPEG at 30 fps.
  static let uvcWebcam = """
    video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 15/1 }; \
    video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, framerate=(fraction)10/1; \
    video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, framerate=(fraction)5/1; \
    image/jpeg, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 15/1 }; \
    image/jpeg, width=(int)1280, height=(int)720, framerate=(fraction){ 30/1, 15/1 }; \
    image/jpeg, width=(int)1920, height=(int)1080, framerate=(fraction){ 30/1, 15/1 }
    """

  /// A raw-only camera with size and rate ranges, up to 1280x720.
  static let rangedRaw = """
    video/x-raw, format=(string){ YUY2, NV12 }, width=(int)[ 160, 1280 ], height=(int)[ 120, 720 ], \
    framerate=(fraction)[ 5/1, 30/1 ]
    """

  /// A raw-only camera whose full-HD mode is slow.
  static let slowRaw = """
    video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, framerate=(fraction)15/1; \
    video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1
    """
}

@Suite("Caps selection")
struct CapsSelectionTests {
  func choose(_ caps: String, _ width: Int?, _ height: Int?, fps: Int = 30) throws -> HVTCapsChoice? {
    try HVTCapsSelection.choose(
      deviceCaps: caps, size: width.map { HVTFrameSize(width: $0, height: height!) }, frameRate: HVTFrameRate(fps))
  }

  @Test("raw when it meets the frame rate")
  func rawMeetsRate() throws {
    let choice = try #require(try choose(CapsFixtures.uvcWebcam, 640, 480))
    #expect(choice.caps == "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1")
  }

  @Test("MJPEG when raw is too slow at that size")
  func mjpegWhenRawIsSlow() throws {
    let choice = try #require(try choose(CapsFixtures.uvcWebcam, 1280, 720))
    #expect(choice.caps == "image/jpeg,width=1280,height=720,framerate=30/1")
    #expect(choice.isMJPEG)
  }

  @Test("raw when the requested rate is low enough")
  func rawAtLowRate() throws {
    let choice = try #require(try choose(CapsFixtures.uvcWebcam, 1280, 720, fps: 10))
    #expect(choice.caps == "video/x-raw,format=YUY2,width=1280,height=720,framerate=10/1")
  }

  @Test("a size the device lacks falls back to 1920x1080")
  func fallbackToFullHD() throws {
    let choice = try #require(try choose(CapsFixtures.uvcWebcam, 3840, 2160))
    #expect(choice.size == HVTFrameSize(width: 1920, height: 1080))
    #expect(choice.isMJPEG)
  }

  @Test("without 1920x1080, the nearest size offered")
  func fallbackToNearest() throws {
    let choice = try #require(try choose(CapsFixtures.rangedRaw, 1920, 1080))
    #expect(choice.size == HVTFrameSize(width: 1280, height: 720))
    #expect(choice.format == "NV12" || choice.format == "YUY2")
    #expect(choice.frameRate == HVTFrameRate(30))
  }

  @Test("ranges: any size inside them is offered as asked, preferring NV12 over YUY2")
  func ranges() throws {
    let choice = try #require(try choose(CapsFixtures.rangedRaw, 960, 540))
    #expect(choice.caps == "video/x-raw,format=NV12,width=960,height=540,framerate=30/1")
  }

  @Test("when nothing meets the rate, the fastest mode that can negotiate")
  func fastestAvailable() throws {
    let choice = try #require(try choose(CapsFixtures.slowRaw, 1920, 1080))
    #expect(choice.caps == "video/x-raw,format=YUY2,width=1920,height=1080,framerate=15/1")
  }

  @Test(".typeHigh takes the largest size offered")
  func largest() throws {
    let choice = try #require(try choose(CapsFixtures.uvcWebcam, nil, nil))
    #expect(choice.size == HVTFrameSize(width: 1920, height: 1080))
  }

  @Test("no video at all gives nil; bad caps throw")
  func noVideo() throws {
    #expect(try choose("audio/x-raw, rate=(int)48000", 640, 480) == nil)
    #expect(throws: HVTCameraError.self) { try choose("video/x-raw, width=(int)[", 640, 480) }
  }
}
