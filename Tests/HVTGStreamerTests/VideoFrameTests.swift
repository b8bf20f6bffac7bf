import Testing

@testable import HVTGStreamer

/// A test pattern in a pixel format, and the mean first component it should have.
struct FrameCase: Sendable, CustomTestStringConvertible {
  var pattern: String
  var format: String
  var expected: Double

  var testDescription: String { "\(pattern) \(format)" }

  /// Luma of limited-range YUV: 16 is black, 235 is white.
  static let black = 16.0 / 255
  static let white = 235.0 / 255

  static let firstComponentAtPixelStart: [FrameCase] = [
    FrameCase(pattern: "black", format: "I420", expected: black),
    FrameCase(pattern: "white", format: "I420", expected: white),
    FrameCase(pattern: "black", format: "NV12", expected: black),
    FrameCase(pattern: "white", format: "NV12", expected: white),
    FrameCase(pattern: "white", format: "YUY2", expected: white),
    FrameCase(pattern: "white", format: "GRAY8", expected: white),
    // RGB: the first component is red.
    FrameCase(pattern: "red", format: "RGBx", expected: 1),
    FrameCase(pattern: "blue", format: "RGBx", expected: 0),
    FrameCase(pattern: "red", format: "RGB", expected: 1),
  ]

  /// Packed formats whose first component is not the pixel's first byte.
  static let firstComponentInsidePixel: [FrameCase] = [
    FrameCase(pattern: "red", format: "BGRx", expected: 1),
    FrameCase(pattern: "red", format: "xRGB", expected: 1),
    FrameCase(pattern: "white", format: "UYVY", expected: white),
  ]
}

@Suite("Buffer.meanFirstComponent", .timeLimit(.minutes(1)))
struct VideoFrameTests {
  @Test(arguments: FrameCase.firstComponentAtPixelStart)
  func measuresTheFirstComponent(_ test: FrameCase) async throws {
    let frame = try await captureFrame(pattern: test.pattern, format: test.format)
    let mean = try #require(frame.buffer.meanFirstComponent(caps: frame.caps))
    #expect(abs(mean - test.expected) < 0.01, "\(mean)")
  }

  @Test func blackIsDarkerThanWhite() async throws {
    let black = try await captureFrame(pattern: "black", format: "I420")
    let white = try await captureFrame(pattern: "white", format: "I420")
    let dark = try #require(black.buffer.meanFirstComponent(caps: black.caps))
    let light = try #require(white.buffer.meanFirstComponent(caps: white.caps))
    #expect(abs(dark - 0.063) < 0.005)
    #expect(abs(light - 0.92) < 0.005)
  }

  @Test func smallFramesAreSampledEverywhere() async throws {
    let frame = try await captureFrame(pattern: "white", format: "I420", width: 16, height: 8)
    let mean = try #require(frame.buffer.meanFirstComponent(caps: frame.caps))
    #expect(abs(mean - 235.0 / 255) < 0.01)
  }

  @Test(arguments: FrameCase.firstComponentInsidePixel)
  func findsTheFirstComponentInsideThePixel(_ test: FrameCase) async throws {
    let frame = try await captureFrame(pattern: test.pattern, format: test.format)
    let mean = try #require(frame.buffer.meanFirstComponent(caps: frame.caps))
    #expect(abs(mean - test.expected) < 0.01, "\(mean)")
  }

  @Test func isNilForCapsThatAreNotRawVideo() async throws {
    let frame = try await captureFrame(pattern: "black", format: "I420", width: 64, height: 48)
    #expect(frame.buffer.meanFirstComponent(caps: try Caps("image/jpeg,width=64,height=48")) == nil)
    #expect(frame.buffer.meanFirstComponent(caps: try Caps("audio/x-raw,format=S16LE,rate=48000,channels=1")) == nil)
  }

  @Test func isNilForComponentsDeeperThanEightBits() async throws {
    let frame = try await captureFrame(pattern: "white", format: "I420_10LE", width: 64, height: 48)
    #expect(frame.buffer.meanFirstComponent(caps: frame.caps) == nil)
  }
}
