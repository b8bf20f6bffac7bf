import Testing

@testable import HVTGStreamer

@Suite("Caps field values")
struct CapsFieldValuesTests {
  func structure(_ text: String) throws -> CapsStructure { try Caps(text).structure(at: 0) }

  @Test func integersFixedListedAndRanged() throws {
    let caps = try structure(
      "video/x-raw, width=(int)640, height=(int){ 360, 480 }, depth=(int)[ 16, 3840 ], stride=(int)[ 32, 2592, 2 ], "
        + "format=(string)YUY2")
    #expect(caps.intValues("width") == .fixed(640))
    #expect(caps.intValues("height") == .list([360, 480]))
    #expect(caps.intValues("depth") == .range(16...3840, step: 1))
    #expect(caps.intValues("stride") == .range(32...2592, step: 2))
    #expect(caps.intValues("format") == nil)
    #expect(caps.intValues("missing") == nil)
  }

  @Test func fractionsFixedListedAndRanged() throws {
    let fixed = try structure("video/x-raw, framerate=(fraction)30000/1001")
    #expect(fixed.fractionValues("framerate") == .fixed(Fraction(30000, 1001)))
    let listed = try structure("video/x-raw, framerate=(fraction){ 30/1, 15/2 }")
    #expect(listed.fractionValues("framerate") == .list([Fraction(30, 1), Fraction(15, 2)]))
    let ranged = try structure("video/x-raw, framerate=(fraction)[ 1/1, 30/1 ]")
    #expect(ranged.fractionValues("framerate") == .range(min: Fraction(1, 1), max: Fraction(30, 1)))
    #expect(ranged.fractionValues("width") == nil)
    #expect(try structure("video/x-raw, width=(int)1").fractionValues("width") == nil)
    #expect(Fraction(15, 2).description == "15/2")
  }
}
