import Foundation
import Testing

@testable import HVTCamera

@Suite("Debugging the live pipeline", .timeLimit(.minutes(1)))
struct DebuggingTests {
  @Test("busMessages relays every bus message with the element's path, in order")
  func busMessages() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    var messages = camera.controller.busMessages.makeAsyncIterator()
    try await camera.controller.presentAndWait()
    var seen: [HVTBusMessage] = []
    while let message = await messages.next() {
      seen.append(message)
      if message.type == "state-changed", message.element.hasSuffix("/GstPipeline:\(camera.controller.name)"),
        message.details.hasPrefix("PAUSED -> PLAYING")
      {
        break
      }
    }
    let source = seen.filter { $0.element.hasSuffix("GstVideoTestSrc:camera") && $0.type == "state-changed" }
    #expect(source.map(\.details) == ["NULL -> READY", "READY -> PAUSED", "PAUSED -> PLAYING"])
    #expect(seen.contains { $0.type == "stream-start" })
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.date <= $1.date })
    // The recording branch's elements post under the recording bin.
    try await camera.startRecording()
    var branchMessage: HVTBusMessage?
    while let message = await messages.next() {
      if message.element.contains("/GstBin:recording/") {
        branchMessage = message
        break
      }
    }
    #expect(branchMessage != nil)
    await camera.controller.dismissAndWait()
  }

  @Test("pipelineGraph is GStreamer's DOT of the live pipeline, recording branch included")
  func graph() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    #expect(camera.controller.pipelineGraph() == nil)
    try await camera.controller.presentAndWait()
    let idle = try #require(camera.controller.pipelineGraph())
    #expect(idle.hasPrefix("digraph pipeline"))
    #expect(idle.contains("camera") && idle.contains("preview") && !idle.contains("GstFileSink"))
    try await camera.startRecording()
    let recording = try #require(camera.controller.pipelineGraph())
    #expect(recording.contains("movie-encoder") && recording.contains("muxer") && recording.contains("GstFileSink"))
    await camera.controller.dismissAndWait()
  }
}
