import Testing

@testable import HVTCamera

/// The event and bus-message streams are bounded: a reader that stops reading keeps the newest elements,
/// and the ones dropped are counted.
@Suite("Bounded event streams", .timeLimit(.minutes(1)))
struct EventStreamTests {
  @Test("a reader that stops reading finds the newest elements when it reads again; the others are counted")
  func readerThatStops() async {
    let broadcast = EventBroadcast<Int>(capacity: 8, of: "numbers")
    var reader = broadcast.stream().makeAsyncIterator()
    broadcast.yield(0)
    broadcast.yield(1)
    #expect(await reader.next() == 0)
    // The reader stops, with one element unread, while 29 more come.
    for number in 2...30 { broadcast.yield(number) }
    #expect(broadcast.dropped == 22, "29 came after the one left unread: 8 are kept of those 30")
    broadcast.finish()
    var rest: [Int] = []
    while let number = await reader.next() { rest.append(number) }
    #expect(rest == Array(23...30), "the newest eight, in order")
  }

  @Test("each stream is bounded on its own: a reader that keeps up loses nothing to one that stops")
  func streamsApart() async {
    let broadcast = EventBroadcast<Int>(capacity: 4, of: "numbers")
    let stopped = broadcast.stream()
    var reading = broadcast.stream().makeAsyncIterator()
    var read: [Int] = []
    for number in 0..<20 {
      broadcast.yield(number)
      if let next = await reading.next() { read.append(next) }
    }
    #expect(read == Array(0..<20))
    #expect(broadcast.dropped == 16, "only the stopped stream's")
    broadcast.finish()
    var kept: [Int] = []
    for await number in stopped { kept.append(number) }
    #expect(kept == [16, 17, 18, 19])
  }

  @Test("a controller's events: the newest eventBufferLimit kept for a reader that stops, the others counted")
  func controllerEvents() async throws {
    let controller = try HVTCameraController(source: .simulated)
    let events = controller.events
    let limit = HVTCameraController.eventBufferLimit
    for second in 0..<(limit + 100) { controller.publish(.recordingProgress(elapsed: Double(second), limit: 0)) }
    #expect(controller.droppedEventCount == 100)
    #expect(controller.droppedBusMessageCount == 0)
    controller.hub.finish()
    var first: Double?
    var count = 0
    for await event in events {
      if case .recordingProgress(let elapsed, _) = event { first = first ?? elapsed }
      count += 1
    }
    #expect(count == limit && first == 100)
  }
}
