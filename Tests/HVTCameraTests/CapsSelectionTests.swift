import HVTGStreamer
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

/// One request made of a real webcam's caps and the caps the documented rule must choose.
struct WebcamRequest: Sendable, CustomTestStringConvertible {
  let model: WebcamCaps.Model
  let size: HVTFrameSize?
  let frameRate: HVTFrameRate
  let expected: String

  init(_ model: WebcamCaps.Model, _ width: Int?, _ height: Int?, fps: Int, _ expected: String) {
    self.model = model
    self.size = width.map { HVTFrameSize(width: $0, height: height!) }
    self.frameRate = HVTFrameRate(fps)
    self.expected = expected
  }

  var testDescription: String { "\(model.displayName): \(size.map(\.description) ?? "largest") @ \(frameRate)" }
}

@Suite("Caps selection against real webcams")
struct WebcamCapsSelectionTests {
  /// The sizes every model is asked for: the qualities' sizes, and `nil` for `.typeHigh`.
  static let sizes: [HVTFrameSize?] = [
    HVTFrameSize(width: 640, height: 480), HVTFrameSize(width: 1280, height: 720),
    HVTFrameSize(width: 1920, height: 1080), HVTFrameSize(width: 3840, height: 2160), nil,
  ]
  /// The frame rates every model is asked for.
  static let frameRates = [HVTFrameRate(15), HVTFrameRate(30)]

  /// What the rule must choose for each model, size and rate: raw when it reaches the rate, MJPEG
  /// otherwise; a size the camera lacks falls back to 1920x1080, then to the nearest of the same shape;
  /// `.typeHigh` takes the largest size that reaches the rate.
  static let expectations: [WebcamRequest] = [
    .init(WebcamCaps.logitechC920, 640, 480, fps: 30, "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"),
    .init(WebcamCaps.logitechC920, 640, 480, fps: 15, "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1"),
    .init(WebcamCaps.logitechC920, 1280, 720, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.logitechC920, 1280, 720, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.logitechC920, 1920, 1080, fps: 30, "image/jpeg,width=1920,height=1080,framerate=30/1"),
    .init(WebcamCaps.logitechC920, 1920, 1080, fps: 15, "image/jpeg,width=1920,height=1080,framerate=15/1"),
    .init(WebcamCaps.logitechC920, 3840, 2160, fps: 30, "image/jpeg,width=1920,height=1080,framerate=30/1"),
    .init(WebcamCaps.logitechC920, 3840, 2160, fps: 15, "image/jpeg,width=1920,height=1080,framerate=15/1"),
    .init(WebcamCaps.logitechC920, nil, nil, fps: 30, "image/jpeg,width=1920,height=1080,framerate=30/1"),
    .init(WebcamCaps.logitechC920, nil, nil, fps: 15, "image/jpeg,width=1920,height=1080,framerate=15/1"),
    .init(WebcamCaps.logitechC270, 640, 480, fps: 30, "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"),
    .init(WebcamCaps.logitechC270, 640, 480, fps: 15, "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1"),
    .init(WebcamCaps.logitechC270, 1280, 720, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.logitechC270, 1280, 720, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.logitechC270, 1920, 1080, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.logitechC270, 1920, 1080, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.logitechC270, 3840, 2160, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.logitechC270, 3840, 2160, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.logitechC270, nil, nil, fps: 30, "image/jpeg,width=1280,height=960,framerate=30/1"),
    .init(WebcamCaps.logitechC270, nil, nil, fps: 15, "image/jpeg,width=1280,height=960,framerate=15/1"),
    .init(WebcamCaps.lifeCamHD3000, 640, 480, fps: 30, "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"),
    .init(WebcamCaps.lifeCamHD3000, 640, 480, fps: 15, "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1"),
    .init(WebcamCaps.lifeCamHD3000, 1280, 720, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.lifeCamHD3000, 1280, 720, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.lifeCamHD3000, 1920, 1080, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.lifeCamHD3000, 1920, 1080, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.lifeCamHD3000, 3840, 2160, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.lifeCamHD3000, 3840, 2160, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.lifeCamHD3000, nil, nil, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.lifeCamHD3000, nil, nil, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(
      WebcamCaps.integratedChicony, 640, 480, fps: 30, "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"),
    .init(
      WebcamCaps.integratedChicony, 640, 480, fps: 15, "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, 1280, 720, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, 1280, 720, fps: 15, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, 1920, 1080, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, 1920, 1080, fps: 15, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, 3840, 2160, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, 3840, 2160, fps: 15, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, nil, nil, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.integratedChicony, nil, nil, fps: 15, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.logitechBRIO, 640, 480, fps: 30, "video/x-raw,format=NV12,width=640,height=480,framerate=30/1"),
    .init(WebcamCaps.logitechBRIO, 640, 480, fps: 15, "video/x-raw,format=NV12,width=640,height=480,framerate=15/1"),
    .init(WebcamCaps.logitechBRIO, 1280, 720, fps: 30, "video/x-raw,format=NV12,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.logitechBRIO, 1280, 720, fps: 15, "video/x-raw,format=NV12,width=1280,height=720,framerate=15/1"),
    .init(
      WebcamCaps.logitechBRIO, 1920, 1080, fps: 30, "video/x-raw,format=NV12,width=1920,height=1080,framerate=30/1"),
    .init(
      WebcamCaps.logitechBRIO, 1920, 1080, fps: 15, "video/x-raw,format=NV12,width=1920,height=1080,framerate=15/1"),
    .init(WebcamCaps.logitechBRIO, 3840, 2160, fps: 30, "image/jpeg,width=3840,height=2160,framerate=30/1"),
    .init(
      WebcamCaps.logitechBRIO, 3840, 2160, fps: 15, "video/x-raw,format=NV12,width=3840,height=2160,framerate=15/1"),
    .init(WebcamCaps.logitechBRIO, nil, nil, fps: 30, "image/jpeg,width=4096,height=2160,framerate=30/1"),
    .init(WebcamCaps.logitechBRIO, nil, nil, fps: 15, "video/x-raw,format=NV12,width=4096,height=2160,framerate=15/1"),
    .init(WebcamCaps.razerKiyo, 640, 480, fps: 30, "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"),
    .init(WebcamCaps.razerKiyo, 640, 480, fps: 15, "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1"),
    .init(WebcamCaps.razerKiyo, 1280, 720, fps: 30, "image/jpeg,width=1280,height=720,framerate=30/1"),
    .init(WebcamCaps.razerKiyo, 1280, 720, fps: 15, "image/jpeg,width=1280,height=720,framerate=15/1"),
    .init(WebcamCaps.razerKiyo, 1920, 1080, fps: 30, "image/jpeg,width=1920,height=1080,framerate=30/1"),
    .init(WebcamCaps.razerKiyo, 1920, 1080, fps: 15, "image/jpeg,width=1920,height=1080,framerate=15/1"),
    .init(WebcamCaps.razerKiyo, 3840, 2160, fps: 30, "image/jpeg,width=1920,height=1080,framerate=30/1"),
    .init(WebcamCaps.razerKiyo, 3840, 2160, fps: 15, "image/jpeg,width=1920,height=1080,framerate=15/1"),
    .init(WebcamCaps.razerKiyo, nil, nil, fps: 30, "image/jpeg,width=1920,height=1080,framerate=30/1"),
    .init(WebcamCaps.razerKiyo, nil, nil, fps: 15, "image/jpeg,width=1920,height=1080,framerate=15/1"),
    // Beyond the common requests: a rate only YUY2 reaches at that size, and rates above 30.
    .init(WebcamCaps.logitechC920, 1280, 720, fps: 10, "video/x-raw,format=YUY2,width=1280,height=720,framerate=10/1"),
    .init(WebcamCaps.logitechC920, 800, 600, fps: 30, "image/jpeg,width=800,height=600,framerate=30/1"),
    .init(WebcamCaps.logitechC920, 800, 600, fps: 24, "video/x-raw,format=YUY2,width=800,height=600,framerate=24/1"),
    .init(WebcamCaps.logitechBRIO, 1920, 1080, fps: 60, "image/jpeg,width=1920,height=1080,framerate=60/1"),
    .init(WebcamCaps.logitechBRIO, 640, 480, fps: 120, "image/jpeg,width=640,height=480,framerate=120/1"),
    .init(WebcamCaps.razerKiyo, 1280, 720, fps: 60, "image/jpeg,width=1280,height=720,framerate=60/1"),
    .init(WebcamCaps.logitechC270, 1280, 960, fps: 30, "image/jpeg,width=1280,height=960,framerate=30/1"),
    .init(WebcamCaps.logitechC270, 1280, 960, fps: 5, "video/x-raw,format=YUY2,width=1280,height=960,framerate=5/1"),
  ]

  @Test("chooses the documented caps", arguments: expectations)
  func documentedChoice(_ request: WebcamRequest) throws {
    let choice = try #require(
      try HVTCapsSelection.choose(deviceCaps: request.model.caps, size: request.size, frameRate: request.frameRate))
    #expect(choice.caps == request.expected)
  }

  @Test("every model is asked every common size at 15 and 30 fps")
  func expectationsCoverEveryRequest() {
    for model in WebcamCaps.all {
      for size in Self.sizes {
        for rate in Self.frameRates {
          #expect(
            Self.expectations.contains { $0.model.model == model.model && $0.size == size && $0.frameRate == rate },
            "no expectation for \(model.model) \(size.map(\.description) ?? "largest") @ \(rate)")
        }
      }
    }
  }

  @Test("every choice intersects the device's caps and is a mode the device lists", arguments: WebcamCaps.all)
  func choicesNegotiate(_ model: WebcamCaps.Model) throws {
    let device = try Caps(model.caps)
    let modes = try HVTCaptureMode.modes(in: model.caps)
    for size in Self.sizes {
      for rate in Self.frameRates {
        let choice = try #require(try HVTCapsSelection.choose(deviceCaps: model.caps, size: size, frameRate: rate))
        #expect(!(try Caps(choice.caps)).intersection(device).isEmpty, "\(choice) does not intersect \(model.model)")
        let listed = modes.contains { mode in
          guard mode.format == choice.format, mode.size == choice.size, case .discrete(let rates) = mode.frameRates
          else { return false }
          return rates.contains(choice.frameRate)
        }
        #expect(listed, "\(choice) is not a mode \(model.model) lists")
      }
    }
  }

  @Test("the H.264 rows of a C920 are never chosen, and the caps stay usable without them")
  func ignoresH264() throws {
    let withoutH264 = WebcamCaps.logitechC920.caps.components(separatedBy: "; ").filter {
      !$0.hasPrefix("video/x-h264")
    }
    .joined(separator: "; ")
    for size in Self.sizes {
      for rate in Self.frameRates {
        let all = try HVTCapsSelection.choose(deviceCaps: WebcamCaps.logitechC920.caps, size: size, frameRate: rate)
        let trimmed = try HVTCapsSelection.choose(deviceCaps: withoutH264, size: size, frameRate: rate)
        #expect(all == trimmed)
      }
    }
  }
}

@Suite("Caps selection: several structures for one format and size")
struct RepeatedStructureTests {
  @Test("the nearest rate over every structure of that format and size, not only the first")
  func nearestOverEveryStructure() throws {
    let caps = """
      video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)15/1; \
      video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1
      """
    let choice = try #require(
      try HVTCapsSelection.choose(
        deviceCaps: caps, size: HVTFrameSize(width: 640, height: 480), frameRate: HVTFrameRate(30)))
    #expect(choice.caps == "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1")
  }
}
