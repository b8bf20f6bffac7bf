/// Receives what a camera controller captures and what happens to it, on the controller's
/// `delegateQueue`, as `UIImagePickerControllerDelegate` does.
public protocol HVTCameraControllerDelegate: AnyObject {
  /// A photo or movie is ready. `info[.mediaType]` says which; photos carry `.originalImage` and
  /// `.imageURL`, movies `.mediaURL`; both carry `.mediaMetadata`.
  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  )

  /// The user cancelled (`cancel()`). The camera stays presented until `dismiss()`.
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
