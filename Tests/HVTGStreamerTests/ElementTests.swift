import Testing

@testable import HVTGStreamer

@Suite("Element")
struct ElementTests {
  @Test func makesAnElementFromItsFactory() throws {
    let element = try Element(factory: "videotestsrc", name: "camera")
    #expect(element.name == "camera")
    #expect(element.factoryName == "videotestsrc")
    #expect(element.currentState == .null)
  }

  @Test func anUnnamedElementGetsAGeneratedName() throws {
    let element = try Element(factory: "identity")
    #expect(element.name.hasPrefix("identity"))
    #expect(element.factoryName == "identity")
  }

  @Test func aMisspeltFactoryThrowsWithTheNearestName() {
    #expect(throws: GStreamerError.missingElement(factory: "x264enk", suggestion: "x264enc")) {
      try Element(factory: "x264enk")
    }
  }

  @Test func aFactoryFarFromAnyNameThrowsWithoutSuggestion() {
    #expect(throws: GStreamerError.missingElement(factory: "zzzzqqqqxxxx", suggestion: nil)) {
      try Element(factory: "zzzzqqqqxxxx")
    }
  }

  @Test func pathNamesEveryAncestor() throws {
    let pipeline = Pipeline(named: "camera")
    let bin = Bin(name: "branch")
    let sink = try Element(factory: "fakesink", name: "sink")
    #expect(sink.path == "/GstFakeSink:sink")
    try bin.add(sink)
    try pipeline.add(bin)
    #expect(pipeline.path == "/GstPipeline:camera")
    #expect(sink.path == "/GstPipeline:camera/GstBin:branch/GstFakeSink:sink")
  }

  @Test func registryKnowsInstalledFactories() {
    #expect(GStreamer.hasElement("videotestsrc"))
    #expect(!GStreamer.hasElement("x264enk"))
    let names = GStreamer.elementFactoryNames()
    #expect(names.contains("x264enc"))
    #expect(names == names.sorted())
    #expect(GStreamer.versionString.hasPrefix("GStreamer 1."))
  }

  @Test func linkingIncompatibleElementsThrows() throws {
    let pipeline = Pipeline(named: "mismatch")
    let audio = try Element(factory: "audiotestsrc", name: "audio")
    let video = try Element(factory: "videoconvert", name: "video")
    try pipeline.add(audio)
    try pipeline.add(video)
    #expect(throws: GStreamerError.linkFailed(from: "audio", to: "video")) {
      try audio.link(to: video)
    }
  }
}
