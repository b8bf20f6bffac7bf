/// Where media comes from, as in `UIImagePickerController.SourceType`.
public enum HVTSourceType: Sendable, Hashable, CaseIterable {
  /// A camera: a V4L2 device or the simulated camera.
  case camera
  /// The user's pictures and videos folders (`XDG_PICTURES_DIR`, `XDG_VIDEOS_DIR`).
  case photoLibrary
  /// The folder captures are saved to with `HVTSavedPhotosAlbum` (a subfolder of the pictures folder).
  case savedPhotosAlbum
}

/// Which camera of the device, as in `UIImagePickerController.CameraDevice`.
///
/// On the simulated camera both exist (different test patterns). On real cameras see
/// ``HVTCameraDeviceInfo`` for how devices map onto `.rear` and `.front`.
public enum HVTCameraDevice: String, Sendable, Hashable, CaseIterable {
  /// The main camera (the default).
  case rear
  /// The user-facing camera.
  case front
}

/// Photo or video capture, as in `UIImagePickerController.CameraCaptureMode`.
public enum HVTCameraCaptureMode: String, Sendable, Hashable, CaseIterable {
  /// Still photos (the default). `startVideoCapture()` returns false in this mode.
  case photo
  /// Movies; photos can still be taken while recording.
  case video
}

/// The flash (photo mode) or torch (video mode) setting, as in `UIImagePickerController.CameraFlashMode`.
public enum HVTCameraFlashMode: String, Sendable, Hashable, CaseIterable {
  /// Never fire.
  case off
  /// Fire when the scene is dark (mean luma of the frame below 0.25 (a quarter of full scale)).
  case auto
  /// Always fire.
  case on
}
