import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// The longest side of an edited photo (``InfoKey/editedImage``), in pixels: larger crops are scaled
  /// down to it.
  public static let editedImageMaximumDimension = 1024

  /// Whether a window or embedded preview shows the default controls (default true), as the reference's
  /// `showsCameraControls`: shutter or record button with the time recorded, mode switch, flash mode,
  /// camera switch and Cancel, drawn on the preview by one `overlaycomposition` (never into captures),
  /// worked by mouse and keyboard (space, Escape, `f`, `c`, `m`, `p`). A photo taken with them is shown for review,
  /// and only **Use Photo** (Enter) delivers it; **Retake** (`r`) discards it. Without them, the
  /// window's key and mouse actions arrive as ``HVTCameraEvent/navigation(_:)`` for the app's own
  /// controls.
  public var showsCameraControls: Bool {
    get { read(\.settings.showsCameraControls) }
    set { changePreview(\.showsCameraControls, to: newValue, rebuilding: true) }
  }

  /// Whether photos are edited (default false), as the reference's `allowsEditing`: the delivered info
  /// holds ``InfoKey/editedImage``, a square crop of at most ``editedImageMaximumDimension`` pixels, and
  /// its ``InfoKey/cropRect``. With the default controls the review screen shows the square crop box,
  /// which the user drags, scrolls, or moves with the arrow keys and scales with `+` and `-`; otherwise
  /// ``editingCropRect`` (default: the largest centred square) is used.
  public var allowsEditing: Bool {
    get { read(\.settings.allowsEditing) }
    set { changePreview(\.allowsEditing, to: newValue, rebuilding: true) }
  }

  /// The crop of edited photos taken without the review screen, in pixels of the photo; made square and
  /// kept inside the photo. `nil` (the default): the largest centred square. The review screen's crop
  /// box starts from it.
  public var editingCropRect: HVTRect? {
    get { read(\.settings.editingCropRect) }
    set { change(\.editingCropRect, to: newValue, restarts: false) }
  }

  /// Whether a photo is on the review screen of the default controls.
  public var isReviewingPhoto: Bool { read(\.isReviewing) }

  // MARK: - On the queue

  /// The preview as it should look now: the settings, with the record button's time and the review.
  func currentPreview(_ settings: Settings) -> HVTPipelineModel.PreviewSettings {
    var preview = settings.preview
    preview.controls?.recording = state.recordingElapsed.map { ($0, settings.videoMaximumDuration) }
    preview.controls?.paused = read(\.recordingPaused)
    if let review = state.review {
      preview.controls?.review = CameraControls.Review(crop: review.crop)
      preview.reviewing = true
    }
    return preview
  }

  /// Brings the running preview's controls up to date (after a recording's progress, a mode or flash
  /// change, the review).
  func refreshControls() {
    guard read(\.settings.showsCameraControls), read(\.settings.shownPreview).hasWindow else { return }
    updatePreview(rebuilding: false, announcing: false)
  }

  /// A key or mouse action in the preview's window (on the queue): the default controls act on it, or,
  /// without them, the app receives it.
  func handleNavigation(_ event: NavigationEvent, size: HVTFrameSize) {
    guard state.phase == .running else { return }
    guard read(\.settings.showsCameraControls) else { return publish(.navigation(event)) }
    guard let look = currentPreview(read(\.settings)).controls else { return }
    switch event {
    case .keyPress(let key):
      CameraControls.action(key: key, look: look, size: size).map(perform)
    case .mouseButtonPress(1, let x, let y):
      if let crop = state.review?.crop, crop.contains(x: x, y: y) {
        state.cropDrag = (x, y, crop)
      } else {
        CameraControls.action(clickAt: x, y, size: size, look: look).map(perform)
      }
    case .mouseMove(let x, let y):
      dragCrop(to: x, y)
    case .mouseButtonRelease(1, let x, let y):
      // Sinks may report the pointer's motion before the press (ximagesink coalesces motion first), so
      // the release's place counts too.
      dragCrop(to: x, y)
      state.cropDrag = nil
    case .mouseButtonPress(4, _, _), .scroll(_, _, _, ..<0):
      perform(.scaleCrop(1.1))
    case .mouseButtonPress(5, _, _), .scroll(_, _, _, 0.000_001...):
      perform(.scaleCrop(1 / 1.1))
    default:
      break
    }
  }

  /// Does what a control asks for.
  private func perform(_ action: CameraControls.Action) {
    switch action {
    case .shutter:
      if read(\.settings.cameraCaptureMode) == .photo {
        takePicture()
      } else if isRecording {
        stopVideoCapture()
      } else {
        _ = startVideoCapture()
      }
    case .cancel:
      cancel()
    case .pauseOrResume:
      _ = isVideoCapturePaused ? resumeVideoCapture() : pauseVideoCapture()
    case .flash:
      cameraFlashMode = read(\.settings.cameraFlashMode).next
    case .switchCamera:
      cameraDevice = read(\.settings.cameraDevice) == .rear ? .front : .rear
    case .switchMode:
      cameraCaptureMode = read(\.settings.cameraCaptureMode) == .photo ? .video : .photo
    case .retake:
      endReview(using: false)
    case .use:
      endReview(using: true)
    case .moveCrop(let dx, let dy):
      guard let crop = state.review?.crop else { return }
      moveCrop(to: HVTRect(x: crop.x + dx, y: crop.y + dy, width: crop.width, height: crop.height))
    case .scaleCrop(let factor):
      guard let crop = state.review?.crop else { return }
      let side = Int((Double(crop.width) * factor).rounded())
      moveCrop(
        to: HVTRect(
          x: crop.x + (crop.width - side) / 2, y: crop.y + (crop.height - side) / 2, width: side, height: side))
    }
  }

  /// Moves the crop box being dragged by the pointer's way from where the button went down.
  private func dragCrop(to x: Double, _ y: Double) {
    guard let drag = state.cropDrag else { return }
    moveCrop(
      to: HVTRect(
        x: drag.crop.x + Int((x - drag.x).rounded()), y: drag.crop.y + Int((y - drag.y).rounded()),
        width: drag.crop.width, height: drag.crop.height))
  }

  /// Puts the review's crop box at `rect`, made square and kept inside the photo.
  private func moveCrop(to rect: HVTRect) {
    guard let review = state.review, let image = review.capture.image else { return }
    state.review?.crop = EditedPhoto.square(rect, width: image.width, height: image.height)
    refreshControls()
  }

  /// Whether a finished photo goes to the review screen instead of its destination: a `takePicture()`
  /// photo with the default controls on a window or embedded preview.
  func reviewsPhoto(for destination: Destination) -> Bool {
    guard case .delegate = destination else { return false }
    let settings = read(\.settings)
    return settings.showsCameraControls && settings.shownPreview.hasWindow && state.phase == .running
  }

  /// Shows `capture` for review: its frame held still on the preview, the review's buttons, and the crop
  /// box with editing. `handedOver` runs when the photo is handed over or discarded.
  func beginReview(
    _ capture: HVTCapture, frame: FrameTap.Frame, destination: Destination,
    handedOver: (@Sendable () -> Void)?
  ) {
    endReview(using: false)
    let settings = read(\.settings)
    let mirrored = settings.mirrorsFrontPreview && capture.metadata.configuration.device == .front
    let crop = capture.image.map { image in
      let square = EditedPhoto.square(settings.editingCropRect, width: image.width, height: image.height)
      return mirrored ? square.mirrored(within: image.width) : square
    }
    state.review = Review(
      capture: capture, frame: frame, destination: destination, handedOver: handedOver,
      crop: settings.allowsEditing ? crop : nil, mirrored: mirrored)
    shared.withLock { $0.isReviewing = true }
    state.session?.previewHooks.stillFrame.withLock { $0 = frame.buffer }
    refreshControls()
    publish(.reviewStarted(url: capture.url))
  }

  /// Closes the review screen, if one is open: `using` delivers the photo (edited, with editing),
  /// otherwise its file is removed. The live preview comes back.
  func endReview(using: Bool) {
    guard let review = state.review else { return }
    state.review = nil
    state.cropDrag = nil
    shared.withLock { $0.isReviewing = false }
    state.session?.previewHooks.stillFrame.withLock { $0 = nil }
    refreshControls()
    publish(.reviewEnded(used: using))
    guard using else {
      try? FileManager.default.removeItem(at: review.capture.url)
      review.handedOver?()
      return
    }
    deliver(
      review.capture, frame: review.frame, to: review.destination, crop: review.photoCrop,
      handedOver: review.handedOver)
  }

  /// Delivers a photo; with ``allowsEditing``, first makes its edited image (on the photo queue) of
  /// `crop`, or of ``editingCropRect`` made square. `handedOver` as in ``deliver(_:to:handedOver:)``.
  func deliver(
    _ capture: HVTCapture, frame: FrameTap.Frame, to destination: Destination, crop: HVTRect? = nil,
    handedOver: (@Sendable () -> Void)?
  ) {
    let settings = read(\.settings)
    guard settings.allowsEditing, let image = capture.image, let encoder = state.session?.model.photoEncoder.last
    else { return deliver(.success(capture), to: destination, handedOver: handedOver) }
    let crop = crop ?? EditedPhoto.square(settings.editingCropRect, width: image.width, height: image.height)
    photoQueue.async {
      let result = Result { () throws -> HVTCapture in
        var capture = capture
        let edited = try EditedPhoto.make(
          from: frame, crop: crop, encoder: encoder, maximumDimension: Self.editedImageMaximumDimension)
        capture.edit = (edited, crop)
        return capture
      }
      self.queue.async {
        self.deliver(result.mapError(HVTCameraError.init), to: destination, handedOver: handedOver)
      }
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
