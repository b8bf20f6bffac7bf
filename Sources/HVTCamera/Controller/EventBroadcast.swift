import HVTSupport

/// One sequence of elements copied to every `AsyncStream` handed out, each stream bounded: it holds at
/// most ``capacity`` elements its reader has not taken yet, and when its reader falls further behind the
/// oldest are dropped — the newest kept — and counted (``dropped``), with a line in the `hvtcamera` log.
/// A reader that stops reading costs a bounded amount of memory, and never holds up the camera.
final class EventBroadcast<Element: Sendable>: Sendable {
  private struct State {
    var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    var next = 0
    var dropped = 0
  }

  /// How many elements each stream holds for its reader.
  let capacity: Int
  /// What the elements are, for the log: "events", "bus messages".
  private let what: String
  private let state = Locked(State())

  init(capacity: Int, of what: String) {
    self.capacity = capacity
    self.what = what
  }

  /// A new stream of every element from now on; it ends at ``finish()``.
  func stream() -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
    let id = state.withLock { state in
      state.next += 1
      state.continuations[state.next] = continuation
      return state.next
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sends an element to every stream (made only when one is open); counts those a full stream dropped.
  func yield(_ element: @autoclosure () -> Element) {
    let continuations = state.withLock { Array($0.continuations.values) }
    guard !continuations.isEmpty else { return }
    let element = element()
    let dropped = continuations.reduce(0) { count, continuation in
      if case .dropped = continuation.yield(element) { count + 1 } else { count }
    }
    guard dropped > 0 else { return }
    let total = state.withLock { state in
      state.dropped += dropped
      return state.dropped
    }
    // Logged at the first drop, then each time the count passes a power of two: not once an element.
    if (total - dropped).leadingZeroBitCount != total.leadingZeroBitCount {
      debugLog.log(.warning, "a reader of \(what) fell \(capacity) behind: its oldest are dropped (\(total) so far)")
    }
  }

  /// Elements dropped so far, over every stream, because their readers fell ``capacity`` behind.
  var dropped: Int { state.withLock { $0.dropped } }

  /// Ends every stream.
  func finish() {
    let continuations = state.withLock { state in
      defer { state.continuations = [:] }
      return Array(state.continuations.values)
    }
    continuations.forEach { $0.finish() }
  }
}
