import Testing

@testable import HVTGStreamer

@Suite("Pad")
struct PadTests {
  @Test func staticPadsHaveTheirNames() throws {
    let queue = try makeElement("queue")
    #expect(queue.staticPad("sink")?.name == "sink")
    #expect(queue.staticPad("src")?.name == "src")
    #expect(queue.staticPad("src_0") == nil)
  }

  @Test func requestPadsAreNumberedAndReleased() throws {
    let tee = try makeElement("tee")
    let first = try #require(tee.requestPad("src_%u"))
    let second = try #require(tee.requestPad("src_%u"))
    #expect(first.name == "src_0")
    #expect(second.name == "src_1")
    tee.releaseRequestPad(first)
    #expect(tee.requestPad("nonsense_%u") == nil)
  }

  @Test func padsLinkAndUnlink() throws {
    let pipeline = Pipeline(named: "pads")
    let source = try makeElement("videotestsrc", "source")
    let sink = try makeElement("fakesink", "sink")
    try pipeline.add(source)
    try pipeline.add(sink)
    let out = try #require(source.staticPad("src"))
    let into = try #require(sink.staticPad("sink"))
    try out.link(to: into)
    #expect(throws: GStreamerError.linkFailed(from: "src", to: "sink")) { try out.link(to: into) }
    #expect(out.unlink(from: into))
    #expect(!out.unlink(from: into))
    try out.link(to: into)
  }

  @Test func currentCapsAreNilBeforeNegotiation() throws {
    let queue = try makeElement("queue")
    #expect(try #require(queue.staticPad("src")).currentCaps == nil)
  }
}
