import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// The longest side of an edited photo (``HVTInfoKey/editedImage``), in pixels: larger crops are scaled
  /// down to it.
  public static let editedImageMaximumDimension = 1024

  /// Whether a window or embedded preview shows the default controls (default true), as the reference's
  /// `showsCameraControls`: shutter or record button with the time recorded, mode switch, flash mode,
  /// camera switch and Cancel, drawn on the preview by one `overlaycomposition` (never into captures),
  /// worked by mouse and keyboard (space, Escape, `f`, `c`, `m`, `p`). A photo taken with them is shown for review,
  /// and only **Use Photo** (Enter) delivers it; **Retake** (`r`) discards it. A ``startVideoCapture()``
  /// movie is shown for review when it stops, on a timeline whose playhead Left and Right move by a second,
  /// `,` and `.` by a frame, Home and End to the ends (or a click), showing the frame there; **Use Video**
  /// (Enter) delivers it, **Retake** (`r`) removes it. Without them, the
  /// window's key and mouse actions arrive as ``HVTCameraEvent/navigation(_:)`` for the app's own
  /// controls.
  public var showsCameraControls: Bool {
    get { read(\.settings.showsCameraControls) }
    set { changePreview(\.showsCameraControls, to: newValue, rebuilding: true) }
  }

  /// Whether photos and movies are edited (default false), as the reference's `allowsEditing`: the
  /// delivered info holds ``HVTInfoKey/editedImage``, a square crop of at most ``editedImageMaximumDimension``
  /// pixels, and its ``HVTInfoKey/cropRect``. With the default controls the review screen shows the square
  /// crop box, which the user drags, scrolls, or moves with the arrow keys and scales with `+` and `-`;
  /// otherwise ``editingCropRect`` (default: the largest centred square) is used.
  ///
  /// A movie's review screen gets trim handles: `[` and `]` put the start and the end at the playhead (the
  /// frame shown is the first, or the last, kept), the mouse drags them; they stop at most
  /// ``videoMaximumDuration`` apart. **Use Video** delivers the movie cut to them by a frame-exact trim
  /// (``HVTMovieTrim/Precision/frame``): ``HVTInfoKey/mediaURL`` is the cut `….trimmed.mp4`, and the uncut
  /// file is removed.
  public var allowsEditing: Bool {
    get { read(\.settings.allowsEditing) }
    set { changePreview(\.allowsEditing, to: newValue, rebuilding: true) }
  }

  /// The crop of edited photos taken without the review screen, in pixels of the photo; made square and
  /// kept inside the photo. `nil` (the default): the largest centred square. The review screen's crop
  /// box starts from it.
  public var editingCropRect: HVTRect? {
    get { read(\.settings.editingCropRect) }
    set { change(\.editingCropRect, to: newValue) }
  }

  // MARK: - Effects

  /// Does what a default control asks for, through the public API (on the queue): the shutter takes a
  /// picture, or starts or stops a recording; the others change the pause, the flash, the camera or the
  /// mode.
  func perform(_ action: CameraControls.Action) {
    switch action {
    case .shutter:
      if read(\.settings.cameraCaptureMode) == .photo {
        takePicture()
      } else if isRecording {
        stopVideoCapture()
      } else {
        _ = startVideoCapture()
      }
    case .pauseOrResume:
      _ = isVideoCapturePaused ? resumeVideoCapture() : pauseVideoCapture()
    case .flash:
      cameraFlashMode = read(\.settings.cameraFlashMode).next
    case .switchCamera:
      cameraDevice = read(\.settings.cameraDevice) == .rear ? .front : .rear
    case .switchMode:
      cameraCaptureMode = read(\.settings.cameraCaptureMode) == .photo ? .video : .photo
    case .cancel, .retake, .use, .moveCrop, .scaleCrop, .movePlayhead, .stepFrames, .seek, .trimAtPlayhead:
      // The machine handles the review's buttons, crop box and timeline itself.
      break
    }
  }
}

extension HVTRect {
  /// The rectangle at the mirrored place of a picture `width` pixels wide.
  func mirrored(within width: Int) -> HVTRect {
    HVTRect(x: width - x - self.width, y: y, width: self.width, height: height)
  }

  /// Whether the point is inside.
  func contains(x px: Double, y py: Double) -> Bool {
    px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
  }
}
