extension HVTCameraController {
  /// Where media comes from, as in `UIImagePickerController.SourceType`: ``HVTSourceType``.
  public typealias SourceType = HVTSourceType
  /// Which camera of the device, as in `UIImagePickerController.CameraDevice`: ``HVTCameraDevice``.
  public typealias CameraDevice = HVTCameraDevice
  /// Photo or video capture, as in `UIImagePickerController.CameraCaptureMode`: ``HVTCameraCaptureMode``.
  public typealias CameraCaptureMode = HVTCameraCaptureMode
  /// The flash or torch setting, as in `UIImagePickerController.CameraFlashMode`: ``HVTCameraFlashMode``.
  public typealias CameraFlashMode = HVTCameraFlashMode
  /// The size of captures, as in `UIImagePickerController.QualityType`: ``HVTQualityType``.
  public typealias QualityType = HVTQualityType
  /// Keys of the dictionary a capture is delivered in, as in `UIImagePickerController.InfoKey`:
  /// ``HVTInfoKey``.
  public typealias InfoKey = HVTInfoKey
}
