import Foundation
import HVTSupport
import Testing

@testable import HVTGStreamer

/// Makes an element and sets its properties from gst-launch text, in order.
func makeElement(
  _ factory: String, _ name: String? = nil, _ properties: KeyValuePairs<String, String> = [:]
) throws -> Element {
  let element = try Element(factory: factory, name: name)
  for (property, value) in properties {
    try element.setProperty(property, fromString: value)
  }
  return element
}

/// Makes a pipeline holding `elements`, linked one after the other.
func makePipeline(_ name: String, _ elements: [Element]) throws -> Pipeline {
  let pipeline = Pipeline(named: name)
  for element in elements {
    try pipeline.add(element)
  }
  for (upstream, downstream) in zip(elements, elements.dropFirst()) {
    try upstream.link(to: downstream)
  }
  return pipeline
}

/// Records the last caps event that passes one of an element's pads.
func recordCaps(at element: Element, _ padName: String) throws -> Locked<Caps?> {
  let caps = Locked<Caps?>(nil)
  let pad = try #require(element.staticPad(padName))
  pad.addProbe(.eventDownstream) { _, info in
    if case .caps(let new) = info.event { caps.withLock { $0 = new } }
    return .ok
  }
  return caps
}

/// Every message a pipeline's bus delivers, fed by a sync handler on the posting thread.
struct BusMessages {
  let stream: AsyncStream<BusMessage>

  /// Installs the bus sync handler; do this before the pipeline leaves NULL.
  init(_ pipeline: Pipeline) {
    let (stream, continuation) = AsyncStream.makeStream(of: BusMessage.self)
    self.stream = stream
    pipeline.bus.setSyncHandler { continuation.yield($0) }
  }

  /// The messages up to and including the first end-of-stream or error.
  func untilEnd() async -> [BusMessage] {
    var seen: [BusMessage] = []
    for await message in stream {
      seen.append(message)
      switch message {
      case .endOfStream, .error: return seen
      default: continue
      }
    }
    return seen
  }
}

/// Plays a pipeline that ends by itself (e.g. `num-buffers`) until end-of-stream or an error, stops it,
/// and returns its bus messages.
@discardableResult
func playToEnd(_ pipeline: Pipeline) async -> [BusMessage] {
  let messages = BusMessages(pipeline)
  pipeline.setState(.playing)
  let seen = await messages.untilEnd()
  pipeline.setState(.null)
  return seen
}

extension [BusMessage] {
  /// The error reports among the messages.
  var errors: [MessageReport] {
    compactMap {
      if case .error(let report) = $0 { return report }
      return nil
    }
  }

  /// Whether the messages include end-of-stream.
  var reachedEndOfStream: Bool {
    contains {
      if case .endOfStream = $0 { return true }
      return false
    }
  }
}

/// One frame from `videotestsrc pattern=… ! video/x-raw,format=… ! fakesink`, kept after the pipeline stops.
func captureFrame(pattern: String, format: String, width: Int = 320, height: Int = 240) async throws -> (
  buffer: Buffer, caps: Caps
) {
  let source = try makeElement("videotestsrc", nil, ["num-buffers": "1", "pattern": pattern])
  let filter = try makeElement(
    "capsfilter", nil, ["caps": "video/x-raw,format=\(format),width=\(width),height=\(height),framerate=30/1"])
  let sink = try makeElement("fakesink")
  let pipeline = try makePipeline("frame-\(pattern)-\(format)", [source, filter, sink])
  let caps = try recordCaps(at: sink, "sink")
  let frame = Locked<Buffer?>(nil)
  try #require(sink.staticPad("sink")).addProbe(.buffer) { _, info in
    if let buffer = info.buffer?.retained() { frame.withLock { $0 = buffer } }
    return .ok
  }
  let seen = await playToEnd(pipeline)
  #expect(seen.errors.isEmpty)
  return (try #require(frame.value), try #require(caps.value))
}
