import Dispatch

/// Fans events out to the delegate (on the main actor) and to every `AsyncStream` handed out.
///
/// Delegate calls are queued on the main dispatch queue, in the order they are made, and run there under
/// `MainActor.assumeIsolated`: the main queue is the main actor's executor, and the check traps at run
/// time if it ever were not.
final class EventHub: Sendable {
  /// Holds the delegate weakly; a new box is made each time the delegate changes.
  final class DelegateBox: @unchecked Sendable {
    weak var delegate: (any HVTCameraControllerDelegate)?
    init(_ delegate: (any HVTCameraControllerDelegate)?) { self.delegate = delegate }
  }

  private struct State {
    var delegate = DelegateBox(nil)
    var streams: [Int: AsyncStream<HVTCameraEvent>.Continuation] = [:]
    var busStreams: [Int: AsyncStream<HVTBusMessage>.Continuation] = [:]
    var nextStream = 0
  }

  private let state = Locked(State())

  var delegate: (any HVTCameraControllerDelegate)? {
    get { state.withLock { $0.delegate.delegate } }
    set { state.withLock { $0.delegate = DelegateBox(newValue) } }
  }

  /// A new stream of every event from now on; it ends when the controller goes away.
  func stream() -> AsyncStream<HVTCameraEvent> {
    let (stream, continuation) = AsyncStream<HVTCameraEvent>.makeStream(bufferingPolicy: .unbounded)
    let id = state.withLock { state in
      state.nextStream += 1
      state.streams[state.nextStream] = continuation
      return state.nextStream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
    }
    return stream
  }

  /// A new stream of every bus message from now on; it ends when the controller goes away.
  func busStream() -> AsyncStream<HVTBusMessage> {
    let (stream, continuation) = AsyncStream<HVTBusMessage>.makeStream(bufferingPolicy: .unbounded)
    let id = state.withLock { state in
      state.nextStream += 1
      state.busStreams[state.nextStream] = continuation
      return state.nextStream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.busStreams.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sends a bus message to the bus streams (cheap when nobody listens).
  func publish(_ message: @autoclosure () -> HVTBusMessage) {
    let continuations = state.withLock { Array($0.busStreams.values) }
    guard !continuations.isEmpty else { return }
    let message = message()
    continuations.forEach { $0.yield(message) }
  }

  /// Runs `call` with the delegate on the main actor (if there is a delegate then); `before` runs there
  /// right before it, and `afterwards` right after, delegate or not.
  func toDelegate(
    before: (@Sendable () -> Void)? = nil,
    _ call: @escaping @MainActor @Sendable (any HVTCameraControllerDelegate) -> Void,
    afterwards: (@Sendable () -> Void)? = nil
  ) {
    let box = state.withLock { $0.delegate }
    DispatchQueue.main.async {
      before?()
      MainActor.assumeIsolated {
        if let delegate = box.delegate { call(delegate) }
      }
      afterwards?()
    }
  }

  /// Sends an event to the streams and, through `deliver`, to the delegate.
  func publish(
    _ event: HVTCameraEvent, deliver: @escaping @MainActor @Sendable (any HVTCameraControllerDelegate) -> Void
  ) {
    let continuations = state.withLock { Array($0.streams.values) }
    continuations.forEach { $0.yield(event) }
    toDelegate(deliver)
  }

  /// Ends every stream.
  func finish() {
    let (events, messages) = state.withLock { state in
      defer {
        state.streams = [:]
        state.busStreams = [:]
      }
      return (Array(state.streams.values), Array(state.busStreams.values))
    }
    events.forEach { $0.finish() }
    messages.forEach { $0.finish() }
  }
}
