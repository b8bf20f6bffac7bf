import HVTGStreamer

extension Pipeline {
  /// Plays the pipeline until its bus says it ended (end of stream) or failed (an error), stops it, and
  /// returns that message.
  func playToEnd() async -> BusMessage? {
    let ended = AsyncStream.makeStream(of: BusMessage.self)
    bus.setSyncHandler { message in
      switch message {
      case .endOfStream, .error: ended.continuation.yield(message)
      default: break
      }
    }
    setState(.playing)
    var end: BusMessage?
    for await message in ended.stream {
      end = message
      break
    }
    setState(.null)
    bus.removeSyncHandler()
    return end
  }
}
