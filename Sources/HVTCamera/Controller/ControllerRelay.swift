import Dispatch

/// How GStreamer's threads and the controller's other queues reach a controller: on its queue, after what
/// was queued there before, and only while the app still holds it. The relay holds the controller weakly,
/// so that a callback a pipeline keeps never keeps the controller (and with it the pipeline) alive, and the
/// controller's last release never happens on a streaming thread.
struct ControllerRelay: Sendable {
  private let queue: DispatchQueue
  private let controller: WeakReference<HVTCameraController>

  init(_ controller: HVTCameraController) {
    queue = controller.queue
    self.controller = WeakReference(controller)
  }

  /// Steps the machine with `input` on the queue, its effects run in the same block
  /// (``HVTCameraController/sendOnQueue(_:)``).
  func post(_ input: ControllerMachine.Input) {
    run { $0.sendOnQueue(input) }
  }

  /// Runs `body` on the queue with the controller, if it still lives by then.
  func run(_ body: @escaping @Sendable (HVTCameraController) -> Void) {
    queue.async { [controller] in controller.target.map(body) }
  }
}
