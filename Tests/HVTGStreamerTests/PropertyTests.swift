import Testing

@testable import HVTGStreamer

@Suite("Element properties")
struct PropertyTests {
  @Test("an object property: a queue's parent is its bin, while the body runs; nil outside a bin or for another type")
  func readsAnObjectProperty() throws {
    let bin = Bin(name: "holder")
    let queue = try Element(factory: "queue")
    #expect(try queue.withObjectProperty("parent") { $0 } == nil)
    try bin.add(queue)
    #expect(try queue.withObjectProperty("parent") { $0 } == UnsafeMutableRawPointer(bin.pointer))
    #expect(try queue.withObjectProperty("max-size-buffers") { $0 } == nil)
    #expect(throws: GStreamerError.self) { try queue.withObjectProperty("parnet") { $0 } }
  }

  @Test func setsAnIntegerProperty() throws {
    let source = try Element(factory: "videotestsrc")
    try source.setProperty("num-buffers", fromString: "42")
    #expect(try source.propertyString("num-buffers") == "42")
    try source.set("num-buffers", 7)
    #expect(try source.propertyString("num-buffers") == "7")
  }

  @Test func setsAnUnsigned64BitProperty() throws {
    let queue = try Element(factory: "queue")
    try queue.setProperty("max-size-time", fromString: "5000000000")
    #expect(try queue.propertyString("max-size-time") == "5000000000")
  }

  @Test func setsAnEnumPropertyByNick() throws {
    let encoder = try Element(factory: "x264enc")
    #expect(try encoder.propertyString("speed-preset") == "medium")
    try encoder.setProperty("speed-preset", fromString: "ultrafast")
    #expect(try encoder.propertyString("speed-preset") == "ultrafast")
  }

  @Test func readsAnEnumPropertyBackAsItsNick() throws {
    // Nick "black", name "100% Black": gst-launch text uses the nick.
    let source = try Element(factory: "videotestsrc")
    try source.setProperty("pattern", fromString: "black")
    #expect(try source.propertyString("pattern") == "black")
  }

  @Test func setsABooleanProperty() throws {
    let source = try Element(factory: "videotestsrc")
    #expect(try source.propertyString("is-live") == "false")
    try source.setProperty("is-live", fromString: "true")
    #expect(try source.propertyString("is-live") == "true")
    try source.set("is-live", false)
    #expect(try source.propertyString("is-live") == "false")
  }

  @Test func setsADoubleProperty() throws {
    let volume = try Element(factory: "volume")
    try volume.setProperty("volume", fromString: "0.25")
    #expect(try Double(volume.propertyString("volume")) == 0.25)
  }

  @Test func setsTheCapsOfACapsfilter() async throws {
    let filter = try makeElement("capsfilter", "filter")
    try filter.setProperty("caps", fromString: "video/x-raw,format=I420,width=320,height=240,framerate=30/1")
    // The property reads back in GValue serialization (quoted and escaped), which sets it again unchanged.
    let serialized = try filter.propertyString("caps")
    #expect(serialized.contains("width\\=\\(int\\)320"), "\(serialized)")
    try filter.setProperty("caps", fromString: serialized)
    #expect(try filter.propertyString("caps") == serialized)

    // The stream downstream of the filter carries exactly those caps.
    let sink = try makeElement("fakesink")
    let pipeline = try makePipeline(
      "capsfilter", [try makeElement("videotestsrc", nil, ["num-buffers": "1"]), filter, sink])
    let negotiated = try recordCaps(at: sink, "sink")
    await playToEnd(pipeline)
    let caps = try #require(negotiated.value)
    let structure = caps.structure(at: 0)
    #expect(caps.count == 1)
    #expect(structure.name == "video/x-raw")
    #expect(structure.string("format") == "I420")
    #expect(structure.int("width") == 320)
    #expect(structure.int("height") == 240)
    #expect(structure.fraction("framerate")! == (30, 1))
  }

  @Test(arguments: [
    "/tmp/hvt tests/my movie.mp4",
    "/tmp/\"quoted\" and 'single' = x.mp4",
    "/tmp/café ☕️ 映画 😀.mp4",
    "/tmp/back\\slash, comma; semicolon ! bang.mp4",
  ])
  func setsAStringPropertyVerbatim(_ location: String) throws {
    let sink = try Element(factory: "filesink")
    try sink.setProperty("location", fromString: location)
    #expect(try sink.propertyString("location") == location)
  }

  @Test func anUnknownPropertyThrowsWithTheNearestName() throws {
    let encoder = try Element(factory: "x264enc", name: "encoder")
    #expect(
      throws: GStreamerError.unknownProperty(element: "encoder", property: "speed-preest", suggestion: "speed-preset")
    ) {
      try encoder.setProperty("speed-preest", fromString: "ultrafast")
    }
    #expect(
      throws: GStreamerError.unknownProperty(element: "encoder", property: "bitrat", suggestion: "bitrate")
    ) {
      try encoder.propertyString("bitrat")
    }
    #expect(throws: GStreamerError.unknownProperty(element: "encoder", property: "colour-of-sky", suggestion: nil)) {
      try encoder.setProperty("colour-of-sky", fromString: "blue")
    }
  }

  @Test func aBadEnumValueThrowsListingTheNicks() throws {
    let encoder = try Element(factory: "x264enc", name: "encoder")
    let error = try #require(throws: GStreamerError.self) {
      try encoder.setProperty("speed-preset", fromString: "ludicrous")
    }
    guard case .invalidPropertyValue(let element, let property, let value, let expected) = error else {
      Issue.record("expected invalidPropertyValue, got \(error)")
      return
    }
    #expect(element == "encoder")
    #expect(property == "speed-preset")
    #expect(value == "ludicrous")
    for nick in [
      "None", "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "veryslow", "placebo",
    ] {
      #expect(expected.contains(nick), "\(expected) lacks \(nick)")
    }
    #expect(try encoder.propertyString("speed-preset") == "medium", "a rejected value must leave the property alone")
  }

  @Test func anOutOfRangeUnsignedValueThrowsWithTheRange() throws {
    // x264enc bitrate: Unsigned Integer. Range: 1 - 2048000 (gst-inspect-1.0 x264enc).
    let encoder = try Element(factory: "x264enc", name: "encoder")
    for text in ["0", "2048001"] {
      let error = try #require(throws: GStreamerError.self) {
        try encoder.setProperty("bitrate", fromString: text)
      }
      guard case .invalidPropertyValue(_, "bitrate", text, let expected) = error else {
        Issue.record("expected invalidPropertyValue, got \(error)")
        continue
      }
      #expect(expected.contains("1...2048000"), "\(expected)")
    }
    #expect(try encoder.propertyString("bitrate") == "2048")
    try encoder.setProperty("bitrate", fromString: "2048000")
    #expect(try encoder.propertyString("bitrate") == "2048000")
  }

  @Test func anOutOfRangeSignedValueThrows() throws {
    // videotestsrc num-buffers: Integer. Range: -1 - 2147483647.
    let source = try Element(factory: "videotestsrc", name: "source")
    #expect(throws: GStreamerError.self) {
      try source.setProperty("num-buffers", fromString: "-2")
    }
    #expect(try source.propertyString("num-buffers") == "-1")
  }

  @Test func aNegativeValueForAnUnsignedPropertyThrows() throws {
    // queue max-size-buffers: Unsigned Integer. Range: 0 - 4294967295 (gst-inspect-1.0 queue).
    let queue = try Element(factory: "queue", name: "queue")
    let error = try #require(throws: GStreamerError.self) {
      try queue.setProperty("max-size-buffers", fromString: "-5")
    }
    guard case .invalidPropertyValue(_, "max-size-buffers", "-5", _) = error else {
      Issue.record("expected invalidPropertyValue, got \(error)")
      return
    }
    #expect(try queue.propertyString("max-size-buffers") == "200")
  }

  @Test func aValueTooLargeForASignedPropertyThrows() throws {
    // videotestsrc num-buffers: Integer. Range: -1 - 2147483647; 4294967295 is out of range.
    let source = try Element(factory: "videotestsrc", name: "source")
    #expect(throws: GStreamerError.self) {
      try source.setProperty("num-buffers", fromString: "4294967295")
    }
    try source.setProperty("num-buffers", fromString: "5")
    #expect(throws: GStreamerError.self) {
      try source.setProperty("num-buffers", fromString: "2147483648")
    }
    #expect(try source.propertyString("num-buffers") == "5")
  }

  @Test func textThatIsNotANumberThrows() throws {
    let queue = try Element(factory: "queue", name: "queue")
    #expect(throws: GStreamerError.self) { try queue.setProperty("max-size-buffers", fromString: "lots") }
    #expect(throws: GStreamerError.self) { try queue.setProperty("silent", fromString: "maybe") }
  }

  @Test func aReadOnlyPropertyThrows() throws {
    let queue = try Element(factory: "queue", name: "queue")
    #expect(throws: GStreamerError.readOnlyProperty(element: "queue", property: "current-level-buffers")) {
      try queue.setProperty("current-level-buffers", fromString: "3")
    }
    #expect(try queue.propertyString("current-level-buffers") == "0")
  }

  @Test func listsPropertyNames() throws {
    let queue = try Element(factory: "queue")
    let names = try #require(Optional(queue.propertyNames))
    #expect(names.contains("max-size-buffers"))
    #expect(names.contains("leaky"))
    #expect(names.contains("name"))
  }

  @Test func errorsDescribeThemselves() {
    let error = GStreamerError.unknownProperty(element: "encoder", property: "speed-preest", suggestion: "speed-preset")
    #expect(error.description == "element 'encoder' has no property 'speed-preest'; did you mean 'speed-preset'?")
  }
}
