import Testing

@testable import HVTGStreamer

@Suite("Caps")
struct CapsTests {
  @Test func parsesAndDescribesCaps() throws {
    let caps = try Caps("video/x-raw,format=I420,width=1280,height=720,framerate=30/1")
    #expect(
      caps.description == "video/x-raw, format=(string)I420, width=(int)1280, height=(int)720, framerate=(fraction)30/1"
    )
    #expect(caps.count == 1)
    #expect(!caps.isEmpty)
    let again = try Caps(caps.description)
    #expect(again.description == caps.description)
  }

  @Test func keepsEveryAlternative() throws {
    let caps = try Caps("video/x-raw,format=NV12; image/jpeg,width=640")
    #expect(caps.count == 2)
    #expect(caps.structures.map(\.name) == ["video/x-raw", "image/jpeg"])
    #expect(caps.structure(at: 1).int("width") == 640)
    // GStreamer 1.22 ends a structure's text with ";"; it still parses as caps.
    #expect(caps.structure(at: 1).description.hasPrefix("image/jpeg, width=(int)640"))
    #expect(try Caps(caps.structure(at: 1).description).structure(at: 0).int("width") == 640)
  }

  @Test(arguments: ["video/x-raw,width=", "video/x-raw,width=(int)wide", "video/x-raw,framerate=[30/1", "!!!"])
  func invalidCapsThrow(_ text: String) {
    #expect(throws: GStreamerError.invalidCaps(text)) {
      try Caps(text)
    }
  }

  @Test func emptyCapsAreEmpty() throws {
    let caps = try Caps("EMPTY")
    #expect(caps.isEmpty)
    #expect(caps.count == 0)
    #expect(caps.structures.isEmpty)
  }

  @Test func intersectionKeepsWhatBothAllow() throws {
    let camera = try Caps("video/x-raw,format={ YUY2, NV12 },width=[ 320, 1920 ],height=[ 240, 1080 ]; image/jpeg")
    let wanted = try Caps("video/x-raw,format=NV12,width=1280,height=720")
    let both = camera.intersection(wanted)
    #expect(both.count == 1)
    let structure = both.structure(at: 0)
    #expect(structure.name == "video/x-raw")
    #expect(structure.string("format") == "NV12")
    #expect(structure.int("width") == 1280)
    #expect(structure.int("height") == 720)
  }

  @Test func intersectionOfDisjointCapsIsEmpty() throws {
    let both = try Caps("video/x-raw,width=640").intersection(try Caps("video/x-raw,width=1280"))
    #expect(both.isEmpty)
    #expect(try Caps("audio/x-raw").intersection(try Caps("video/x-raw")).isEmpty)
  }

  @Test func intersectionKeepsThisCapsOrderOfPreference() throws {
    let preferred = try Caps("image/jpeg; video/x-raw")
    let both = preferred.intersection(try Caps("video/x-raw; image/jpeg"))
    #expect(both.count == 2)
    #expect(both.structures.map(\.name) == ["image/jpeg", "video/x-raw"])
  }

  @Test func readsFixedFields() throws {
    let structure = try Caps("video/x-raw,format=I420,width=640,height=480,framerate=30000/1001").structure(at: 0)
    #expect(structure.int("width") == 640)
    #expect(structure.intRange("width") == 640...640)
    #expect(structure.string("format") == "I420")
    #expect(structure.strings("format") == ["I420"])
    let framerate = try #require(structure.fraction("framerate"))
    #expect(framerate.numerator == 30000)
    #expect(framerate.denominator == 1001)
  }

  @Test func readsRangesAndLists() throws {
    let structure = try Caps("video/x-raw,format={ YUY2, NV12, I420 },width=[ 160, 1920 ],framerate=[ 1/1, 60/1 ]")
      .structure(at: 0)
    #expect(structure.intRange("width") == 160...1920)
    #expect(structure.int("width") == nil)
    #expect(structure.strings("format") == ["YUY2", "NV12", "I420"])
    #expect(structure.string("format") == nil)
    #expect(structure.fraction("framerate") == nil)
  }

  @Test func missingOrMistypedFieldsAreNil() throws {
    let structure = try Caps("video/x-raw,format=I420,width=640").structure(at: 0)
    #expect(structure.int("height") == nil)
    #expect(structure.intRange("height") == nil)
    #expect(structure.string("colorimetry") == nil)
    #expect(structure.strings("colorimetry") == [])
    #expect(structure.int("format") == nil)
    #expect(structure.string("width") == nil)
    #expect(structure.strings("width") == [])
    #expect(structure.fraction("width") == nil)
  }

  @Test func fixatesToTheNearestFrameRate() throws {
    let camera = try Caps(
      "video/x-raw,format={ NV12, YUY2 },width=[ 320, 1920 ],height=[ 240, 1080 ],framerate=[ 1/1, 60/1 ]"
    )
    .structure(at: 0)
    let fixed = camera.fixated(nearestFraction: "framerate", numerator: 30, denominator: 1)
    #expect(fixed.fraction("framerate")! == (30, 1))
    #expect(fixed.string("format") == "NV12")
    #expect(fixed.int("width") == 320)
    #expect(fixed.int("height") == 240)
    // The original is untouched.
    #expect(camera.fraction("framerate") == nil)
    #expect(camera.intRange("width") == 320...1920)
  }

  @Test func fixatesAListOfFrameRatesToTheClosestEntry() throws {
    let camera = try Caps("image/jpeg,width=1280,height=720,framerate={ 5/1, 15/1, 30/1, 60/1 }").structure(at: 0)
    #expect(
      camera.fixated(nearestFraction: "framerate", numerator: 25, denominator: 1).fraction("framerate")! == (30, 1))
    #expect(
      camera.fixated(nearestFraction: "framerate", numerator: 12, denominator: 1).fraction("framerate")! == (15, 1))
    #expect(
      camera.fixated(nearestFraction: "framerate", numerator: 120, denominator: 1).fraction("framerate")! == (60, 1))
    #expect(
      camera.fixated(nearestFraction: "framerate", numerator: 30000, denominator: 1001).fraction("framerate")! == (
        30, 1
      ))
  }
}
