import Testing

@testable import HVTCairo

/// PNGs through cairo's encoder and decoder: RGBx pixels come back as they went, and bytes that are not a
/// whole PNG are refused rather than half-read.
@Suite("PNG images")
struct PNGImageTests {
  /// A 7x5 picture whose every pixel differs (sides that are not a multiple of cairo's stride alignment).
  static let picture: PNGImage = {
    let (width, height) = (7, 5)
    var pixels: [UInt8] = []
    for index in 0..<(width * height) {
      pixels += [UInt8(index * 7), UInt8(255 - index * 5), UInt8(index * 3 + 10), 255]
    }
    return PNGImage(width: width, height: height, pixels: pixels)!
  }()

  @Test("encoded and decoded, the pixels are the same; the file starts with PNG's signature")
  func roundTrip() throws {
    let png = try #require(Self.picture.png())
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(PNGImage(png: png) == Self.picture)
  }

  @Test("no bytes, garbage, a truncated file and a flipped byte in the image data are refused")
  func refused() throws {
    let png = try #require(Self.picture.png())
    #expect(PNGImage(png: []) == nil)
    #expect(PNGImage(png: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 31) }) == nil)
    #expect(PNGImage(png: Array(png.prefix(png.count - 20))) == nil)
    var flipped = png
    flipped[png.count - 20] ^= 0xFF
    #expect(PNGImage(png: flipped) == nil)
    #expect(PNGImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil)
  }
}
