import Testing

@testable import HVTGStreamer

@Suite("appsrc and appsink", .timeLimit(.minutes(1)))
struct AppElementsTests {
  /// `appsrc format=time ! jpegenc ! appsink sync=false`, with the source and sink.
  func encoderPipeline(_ name: String) throws -> (pipeline: Pipeline, source: Element, sink: Element) {
    let source = try makeElement("appsrc", "frames", ["format": "time"])
    let sink = try makeElement("appsink", "photos", ["sync": "false"])
    return (try makePipeline(name, [source, try makeElement("jpegenc"), sink]), source, sink)
  }

  @Test func encodesAPushedFrameAsJPEG() async throws {
    let frame = try await captureFrame(pattern: "smpte", format: "I420")
    let (pipeline, source, sink) = try encoderPipeline("photo")
    defer { pipeline.setState(.null) }
    pipeline.setState(.playing)
    try source.pushSample(Sample(buffer: frame.buffer, caps: frame.caps))

    let photo = try #require(sink.pullSample(timeout: 20))
    let caps = try #require(photo.caps)
    #expect(caps.structure(at: 0).name == "image/jpeg")
    #expect(caps.structure(at: 0).int("width") == 320)
    #expect(caps.structure(at: 0).int("height") == 240)
    let buffer = try #require(photo.buffer)
    #expect(buffer.size > 1000)
    let bytes = buffer.withBytes { Array($0) }
    #expect(bytes.count == buffer.size)
    #expect(bytes.prefix(2) == [0xFF, 0xD8], "JPEG start-of-image marker")
    #expect(bytes.suffix(2) == [0xFF, 0xD9], "JPEG end-of-image marker")
    #expect(buffer.presentationTime == frame.buffer.presentationTime)
  }

  @Test func aSampleKeepsItsBufferAndCaps() async throws {
    let frame = try await captureFrame(pattern: "black", format: "I420", width: 64, height: 48)
    let sample = Sample(buffer: frame.buffer, caps: frame.caps)
    #expect(sample.caps?.description == frame.caps.description)
    #expect(sample.buffer?.size == 64 * 48 * 3 / 2)
  }

  @Test func pullSampleTimesOutWhenNothingArrives() throws {
    let (pipeline, _, sink) = try encoderPipeline("idle-photo")
    defer { pipeline.setState(.null) }
    pipeline.setState(.playing)
    #expect(sink.pullSample(timeout: 0.05) == nil)
  }

  /// An end of stream before the first buffer reaches the sink: through `appsrc`'s own action, which
  /// GStreamer 1.26 passes on where it drops an EOS event sent to the element from outside. The sink
  /// must report the end itself, not a pull that timed out.
  @Test func pullSampleReturnsNilAtEndOfStream() throws {
    let (pipeline, source, sink) = try encoderPipeline("ended-photo")
    defer { pipeline.setState(.null) }
    pipeline.setState(.playing)
    #expect(source.endAppSourceStream())
    #expect(sink.pullSample(timeout: 20) == nil)
    #expect(sink.isAppSinkAtEndOfStream)
  }

  @Test func pushingIntoAStoppedSourceThrows() async throws {
    let frame = try await captureFrame(pattern: "black", format: "I420", width: 64, height: 48)
    let (pipeline, source, _) = try encoderPipeline("stopped-photo")
    pipeline.setState(.playing)
    pipeline.setState(.null)
    let error = try #require(throws: GStreamerError.self) {
      try source.pushSample(Sample(buffer: frame.buffer, caps: frame.caps))
    }
    guard case .reported(let report) = error else {
      Issue.record("expected a reported error, got \(error)")
      return
    }
    #expect(report.message.contains("flushing"), "\(report.message)")
    #expect(report.source == source.path)
  }
}
