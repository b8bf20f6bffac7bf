/// Receives what a camera controller captures and what happens to it, on the main actor, as
/// `UIImagePickerControllerDelegate` does.
///
/// The protocol is `@MainActor`, so a main-actor class conforms plainly and Swift checks what its
/// methods touch:
///
/// ```swift
/// @MainActor final class Shooter: HVTCameraControllerDelegate {
///   func cameraController(
///     _ camera: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
///   ) {
///     print("saved", info[.imageURL] ?? info[.mediaURL] ?? "nothing")
///   }
///   func cameraControllerDidCancel(_ camera: HVTCameraController) { camera.dismiss() }
/// }
/// ```
///
/// The controller queues these calls on the main dispatch queue, which is the main actor's executor, in
/// the order they happen; they run when something serves that queue: `RunLoop.main.run()`,
/// `dispatchMain()`, or, in a command-line program whose top-level code uses `await`, that code whenever
/// it is suspended at an `await` (``HVTCameraController/waitUntilDismissed()`` keeps it there). A GLib
/// main loop (`gtk_main()`, `g_main_loop_run()`) does not serve it: an app there must run the main queue
/// from its loop (the article <doc:LifecycleAndThreading> shows how). A program whose main thread blocks
/// (a semaphore, `sleep()`, a loop) receives nothing until it stops blocking: there, use the `async` calls
/// (``HVTCameraController/capturePhoto(to:replacingExisting:)``,
/// ``HVTCameraController/recordMovie(to:replacingExisting:maximumDuration:)``) or
/// ``HVTCameraController/events``, which need no main actor.
@MainActor
public protocol HVTCameraControllerDelegate: AnyObject {
  /// A photo or movie is ready. `info[.mediaType]` says which; photos carry `.originalImage` and
  /// `.imageURL`, movies `.mediaURL`; both carry `.mediaMetadata`. Another `takePicture()` may be called
  /// from here: the controller takes it once this photo has been handed to this method.
  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  )

  /// The user cancelled (``HVTCameraController/cancel()``, the Cancel button or Escape). The camera stays
  /// presented until ``HVTCameraController/dismiss()``.
  func cameraControllerDidCancel(_ controller: HVTCameraController)

  /// Something failed: GStreamer reported an error (an ``HVTCameraError/gstreamer(_:)`` with its domain,
  /// code, message and debug string), or a capture could not be made or written. Default: does nothing.
  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error)

  /// A camera event: state changes, warnings, recording progress. Default: does nothing.
  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent)
}

extension HVTCameraControllerDelegate {
  /// Does nothing.
  public func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) {}

  /// Does nothing.
  public func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) {}
}
