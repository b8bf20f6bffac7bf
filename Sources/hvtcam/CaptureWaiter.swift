import Dispatch
import Foundation
import HVTCamera

/// The command line's delegate: collects captures and errors from the delegate queue and lets the main
/// thread wait for them.
final class CaptureWaiter: HVTCameraControllerDelegate, @unchecked Sendable {
  /// The serial queue delegate callbacks run on.
  let queue = DispatchQueue(label: "hvtcam.delegate")
  private let lock = NSLock()
  private let signal = DispatchSemaphore(value: 0)
  private var captures: [[HVTCameraController.InfoKey: any Sendable]] = []
  private var errors: [any Error] = []
  private let onEvent: @Sendable (HVTCameraEvent) -> Void
  /// The controller attached to, to wait for the work that follows an error (see `nextCapture()`).
  private weak var controller: HVTCameraController?

  init(onEvent: @escaping @Sendable (HVTCameraEvent) -> Void = { _ in }) {
    self.onEvent = onEvent
  }

  /// Becomes `controller`'s delegate, on this waiter's queue.
  func attach(to controller: HVTCameraController) {
    lock.withLock { self.controller = controller }
    controller.delegateQueue = queue
    controller.cameraDelegate = self
  }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    lock.withLock { captures.append(info) }
    signal.signal()
  }

  func cameraControllerDidCancel(_ controller: HVTCameraController) {}

  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) {
    lock.withLock { errors.append(error) }
    signal.signal()
  }

  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) {
    onEvent(event)
  }

  /// Waits for the next capture. Throws the first error reported instead, after letting any capture
  /// already queued behind it arrive (a recording cut short by an error is delivered right after it);
  /// that capture is then in `error.salvaged`.
  func nextCapture() throws -> [HVTCameraController.InfoKey: any Sendable] {
    while true {
      signal.wait()
      let (capture, error) = lock.withLock {
        (captures.isEmpty ? nil : captures.removeFirst(), errors.isEmpty ? nil : errors.removeFirst())
      }
      if let error {
        // The controller reports an error before it finalizes the recording the error cut short (on its
        // own queue, draining the recording branch first), so the movie reaches this queue later. Any
        // synchronous property read waits for the controller's queue to finish that work; then this
        // queue is drained so that the movie, if there is one, has arrived.
        _ = lock.withLock { controller }?.isRecording
        queue.sync {}
        let salvaged = capture ?? lock.withLock { captures.isEmpty ? nil : captures.removeFirst() }
        throw CaptureFailure(error: error, salvaged: salvaged)
      }
      if let capture { return capture }
    }
  }
}

/// A capture failed; GStreamer's message is in `error`, and whatever was saved anyway in `salvaged`.
struct CaptureFailure: Error, CustomStringConvertible {
  let error: any Error
  let salvaged: [HVTCameraController.InfoKey: any Sendable]?
  var description: String { String(describing: error) }
}
