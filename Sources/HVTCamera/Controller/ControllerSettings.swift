import Foundation

extension HVTCameraController {
  /// What the app configures: part of the machine's state (``ControllerMachine/State``), changed by
  /// ``ControllerMachine/SettingsChange``s, read by the getters without waiting
  /// (``HVTCameraController/read(_:)``).
  struct Settings: Sendable {
    var mediaTypes: [HVTMediaType] = [.image]
    var videoQuality = QualityType.type1920x1080
    var videoSize: HVTCaptureSize?
    var photoSize: HVTCaptureSize?
    var videoMaximumDuration: Double = 600
    var preRollDuration: Double = 0
    var encoding = EncoderTuning.Request()
    var capturesAudio = true
    var microphone: HVTMicrophone?
    var thumbnailMaximumDimension = 320
    var location: HVTLocation?
    var mediaTags = HVTMediaTags()
    var cameraDevice = CameraDevice.rear
    var cameraCaptureMode = CameraCaptureMode.photo
    var cameraFlashMode = CameraFlashMode.auto
    var outputDirectory = CaptureFiles.defaultDirectory
    var previewOutput = HVTPreviewOutput.automatic
    var mirrorsFrontPreview = true
    var previewRectangle: HVTRect?
    var cameraViewTransform = HVTAffineTransform.identity
    var cameraOverlays: [HVTCameraOverlay] = []
    /// ``cameraOverlays`` with app-drawn pixels replaced by their image files: what is drawn.
    var drawnOverlays: [HVTCameraOverlay] = []
    var overlayBurnsIntoCaptures: HVTOverlayTargets = []
    var showsCameraControls = true
    var allowsEditing = false
    var sourceType = HVTCameraController.SourceType.camera
    var editingCropRect: HVTRect?
    var preset: HVTPreset
    var drainStallTimeout: Double = 10
    var slowEncoderPolicy = HVTSlowEncoderPolicy.leaveFramesOut
    var startTimeout: Double = 10
    var cameraSettingsStore = HVTCameraSettingsStore.standard
    var cameraStallTimeout: Double = 3

    /// The size asked of the camera: the photo size when one is set, else the movies'; `nil` for the
    /// largest it offers (or the ``QualityType/typeHigh`` quality's).
    var cameraSize: HVTFrameSize? {
      photoSize.map(\.requested) ?? movieSize
    }

    /// The movies' size: ``videoSize``'s, else the quality's; `nil` for the camera's largest.
    var movieSize: HVTFrameSize? {
      videoSize.map(\.requested) ?? videoQuality.requestedSize
    }

    /// Where the preview goes: ``previewOutput`` with ``HVTPreviewOutput/automatic`` resolved for the
    /// preset and the display `environment` names.
    func shownPreview(environment: [String: String]) -> HVTPreviewOutput {
      previewOutput.resolved(presetPreview: preset.preview, environment: environment)
    }

    /// What the preview branch is built from, with the controls as they look while nothing is recorded
    /// or reviewed (the machine adds those as the preview changes).
    func preview(environment: [String: String]) -> HVTPipelineModel.PreviewSettings {
      .init(
        output: shownPreview(environment: environment), mirrorsFront: mirrorsFrontPreview,
        transform: cameraViewTransform,
        overlays: drawnOverlays,
        controls: showsCameraControls
          ? CameraControls.Look(
            mode: cameraCaptureMode, flash: cameraFlashMode,
            canSwitchMode: mediaTypes.contains(.image) && mediaTypes.contains(.movie), editing: allowsEditing,
            recording: nil, review: nil)
          : nil)
    }
  }
}
