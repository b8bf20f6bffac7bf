import HVTGStreamer

/// When the flash (photo mode) or torch (video mode) is lit.
enum HVTFlashDecision {
  /// Mean luma (0…1) below which `.auto` fires: about a dim room.
  static let darkSceneThreshold = 0.25

  /// Whether to light up for this flash mode, given the mean luma of the current frame
  /// (`nil` when it could not be measured, which `.auto` treats as bright).
  static func fires(_ mode: HVTCameraController.CameraFlashMode, meanLuma: Double?) -> Bool {
    switch mode {
    case .off: false
    case .on: true
    case .auto: (meanLuma ?? 1) < darkSceneThreshold
    }
  }

  /// The `videobalance` brightness of the simulated camera's light when lit.
  static let simulatedLightBrightness = 0.35

  /// Whether the frame is dark enough for `.auto`, measured on its luma.
  static func fires(_ mode: HVTCameraController.CameraFlashMode, for frame: FrameTap.Frame) -> Bool {
    fires(mode, meanLuma: mode == .auto ? frame.buffer.meanFirstComponent(caps: frame.caps) : nil)
  }
}
