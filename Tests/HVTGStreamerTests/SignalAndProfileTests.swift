import Foundation
import HVTSupport
import MediaInspection
import Testing

@testable import HVTGStreamer

@Suite("Action signals, deep-element-added, object properties, encoding profiles", .timeLimit(.minutes(1)))
struct SignalAndProfileTests {
  @Test func anEncodingProfileDescribesItsStreams() throws {
    let mp4 = try EncodingProfile.container(format: "video/quicktime,variant=iso", presetName: "mp4mux")
    try mp4.add(
      EncodingProfile.video(format: "video/x-h264", restriction: "video/x-raw,format=I420", presetName: "x264enc"))
    #expect(mp4.presetName == "mp4mux")
    #expect(mp4.format.hasPrefix("video/quicktime"))
    #expect(mp4.description.hasSuffix("[video/x-h264]"), "\(mp4)")
    #expect(throws: GStreamerError.self) { try EncodingProfile.video(format: "not caps,,", presetName: nil) }
  }

  @Test func objectPropertiesTakeObjectsOfTheirType() throws {
    let camerabin = try Element(factory: "camerabin")
    let sink = try makeElement("fakesink")
    try camerabin.set("viewfinder-sink", sink)
    let profile = try EncodingProfile.container(format: "video/quicktime,variant=iso", presetName: nil)
    try camerabin.set("video-profile", profile)
    #expect(throws: GStreamerError.self) { try camerabin.set("video-profile", sink) }
    #expect(throws: GStreamerError.self) { try camerabin.set("no-such-sink", sink) }
    #expect(throws: GStreamerError.self) { try sink.set("name", sink) }
  }

  @Test func emittingAnUnknownOrArgumentTakingSignalThrows() throws {
    let camerabin = try Element(factory: "camerabin")
    #expect(throws: GStreamerError.unknownSignal(element: camerabin.name, signal: "no-such-signal")) {
      try camerabin.emit("no-such-signal")
    }
    let bin = Bin(name: "bin")
    #expect(throws: GStreamerError.self) { try bin.emit("deep-element-added") }  // takes arguments
  }

  @Test func deepElementAddedSeesElementsOfNestedBins() throws {
    let outer = Bin(name: "outer")
    let added = Locked<[String]>([])
    outer.onDeepElementAdded { element in added.withLock { $0.append(element.name) } }
    let inner = Bin(name: "inner")
    try outer.add(inner)
    try inner.add(try makeElement("identity", "deep"))
    #expect(added.value == ["inner", "deep"])
  }

  @Test("camerabin takes a still on start-capture and says image-done; its jpegenc is reachable")
  func camerabinStill() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let directory = folder.url
    let camerabin = try Pipeline(factory: "camerabin", name: "camerabin")
    let wrapper = try Element(factory: "wrappercamerabinsrc")
    try wrapper.set("video-source", try makeElement("videotestsrc", nil, ["is-live": "true"]))
    try camerabin.set("camera-source", wrapper)
    try camerabin.set("viewfinder-sink", try makeElement("fakesink", nil, ["sync": "false"]))
    try camerabin.setProperty("image-capture-caps", fromString: "video/x-raw,format=I420,width=320,height=240")
    try camerabin.setProperty("location", fromString: directory.appendingPathComponent("still.jpg").path)
    let encoders = Locked<[String]>([])
    camerabin.onDeepElementAdded { element in
      if element.factoryName == "jpegenc" { encoders.withLock { $0.append(element.name) } }
    }
    let messages = BusMessages(camerabin)
    camerabin.setState(.playing)
    #expect(camerabin.state(timeout: 10).current == .playing)
    try camerabin.emit("start-capture")
    var done: String?
    for await message in messages.stream {
      if case .element(_, "image-done", let structure) = message {
        done = structure
        break
      }
      if case .error(let report) = message { Issue.record("\(report)") }
    }
    camerabin.setState(.null)
    #expect(done?.contains("still.jpg") == true)
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("still.jpg").path))
    #expect(!encoders.value.isEmpty)
  }
}
