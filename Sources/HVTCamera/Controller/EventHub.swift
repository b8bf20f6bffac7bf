import Dispatch
import HVTSupport

/// Fans events out to the delegate (on the main actor) and to every `AsyncStream` handed out (bounded:
/// ``EventBroadcast``), and the bus's messages to theirs.
///
/// Delegate calls are queued on the main dispatch queue, in the order they are made, and run there under
/// `MainActor.assumeIsolated`: the main queue is the main actor's executor, and the check traps at run
/// time if it ever were not.
final class EventHub: Sendable {
  /// Holds the delegate weakly; a new box is made each time the delegate changes.
  ///
  /// `@unchecked Sendable`: its one property is a `weak let`, and the delegate is used on the main actor only.
  final class DelegateBox: @unchecked Sendable {
    weak let delegate: (any HVTCameraControllerDelegate)?
    init(_ delegate: (any HVTCameraControllerDelegate)?) { self.delegate = delegate }
  }

  private let box = Locked(DelegateBox(nil))
  /// The events' streams (``HVTCameraController/events``).
  let events = EventBroadcast<HVTCameraEvent>(capacity: HVTCameraController.eventBufferLimit, of: "events")
  /// The bus messages' streams (``HVTCameraController/busMessages``).
  let busMessages = EventBroadcast<HVTBusMessage>(
    capacity: HVTCameraController.busMessageBufferLimit, of: "bus messages")

  var delegate: (any HVTCameraControllerDelegate)? {
    get { box.withLock { $0.delegate } }
    set { box.withLock { $0 = DelegateBox(newValue) } }
  }

  /// Runs `call` with the delegate on the main actor (if there is a delegate then); `before` runs there
  /// right before it, and `afterwards` right after, delegate or not.
  func toDelegate(
    before: (@Sendable () -> Void)? = nil,
    _ call: @escaping @MainActor @Sendable (any HVTCameraControllerDelegate) -> Void,
    afterwards: (@Sendable () -> Void)? = nil
  ) {
    let current = box.withLock { $0 }
    DispatchQueue.main.async {
      before?()
      MainActor.assumeIsolated {
        if let delegate = current.delegate { call(delegate) }
      }
      afterwards?()
    }
  }

  /// Sends an event to the streams and, through `deliver`, to the delegate.
  func publish(
    _ event: HVTCameraEvent, deliver: @escaping @MainActor @Sendable (any HVTCameraControllerDelegate) -> Void
  ) {
    events.yield(event)
    toDelegate(deliver)
  }

  /// Ends every stream.
  func finish() {
    events.finish()
    busMessages.finish()
  }
}
