import Foundation
import HVTGStreamer

/// Photos, the review screen of the default controls, and the preview they change.
extension ControllerMachine.Transition {
  // MARK: - Readiness and the preview

  /// Announces a change of ``HVTCameraController/isReadyForCapture``.
  mutating func announceReadiness() {
    let ready = state.isReadyForCapture
    guard ready != state.announcedReadiness else { return }
    state.announcedReadiness = ready
    effects.append(.publish(.readyForCapture(ready)))
  }

  /// The preview as it should look now: the settings, with the record button's time and the review.
  var currentPreview: HVTPipelineModel.PreviewSettings {
    var preview = state.settings.preview(environment: state.environment)
    preview.controls?.recording = state.recordingElapsed.map { ($0, state.settings.videoMaximumDuration) }
    preview.controls?.paused = state.recording?.paused ?? false
    if let review = state.review {
      preview.controls?.review = CameraControls.Review(crop: review.crop)
      preview.reviewing = true
    }
    return preview
  }

  /// Brings the running preview's controls up to date.
  mutating func refreshControls() {
    guard state.settings.showsCameraControls, state.settings.shownPreview(environment: state.environment).hasWindow
    else { return }
    updatePreview(rebuilding: false, announcing: false)
  }

  /// Changes the starting or running session's preview to the current settings and state.
  mutating func updatePreview(rebuilding: Bool, announcing: Bool) {
    let session: Machine.Session
    switch state.phase {
    case .starting(let starting, _, _): session = starting
    case .running(let running, _): session = running
    case .idle, .building, .stopping, .closing: return
    }
    effects.append(
      .updatePreview(
        session.id,
        .init(
          preview: currentPreview, preset: state.settings.preset, rectangle: state.settings.previewRectangle,
          rebuilding: rebuilding, announcing: announcing)))
  }

  // MARK: - Photos

  /// Whether photo `id` may be taken: the camera is presented, takes photos, and — for a `takePicture()`
  /// photo — none is in flight (which it becomes).
  mutating func askPhoto(_ id: UInt64, inFlight: Bool) {
    let refusal: HVTCameraError?
    if !state.isPresented {
      refusal = .notPresented
    } else if inFlight, state.photos.inFlight != nil {
      ignored("takePicture()", because: "a photo is in flight until the delegate receives it")
      return reply(.ignored)
    } else if !state.settings.mediaTypes.contains(.image) {
      refusal = .mediaTypeNotEnabled(.image)
    } else {
      refusal = nil
    }
    if let refusal {
      // A `takePicture()` reports to the delegate; an `async` capture throws.
      if inFlight { effects.append(.fail(refusal)) }
      return reply(.refused(refusal))
    }
    if inFlight { state.photos.inFlight = id }
    reply(.accepted)
  }

  /// Starts a photo: on the camera of its moment if that still runs, else — while the camera (re)starts —
  /// on the next camera's first frame.
  mutating func beginPhoto(_ request: Machine.PhotoRequest) {
    guard state.isPresented else {
      effects.append(.discard(request.file))
      return photoFinished(request, .failure(.notPresented), counted: false)
    }
    guard let session = state.phase.running else { return state.photos.awaitingCamera.append(request) }
    state.photos.inProgress += 1
    effects.append(.takePhoto(request, on: session.id))
  }

  /// Hands the photo over — to the review screen first with the default controls on a window, edited
  /// with ``HVTCameraController/allowsEditing`` —; a `takePicture()` photo stays in flight until the
  /// delegate receives it.
  mutating func photoFinished(
    _ request: Machine.PhotoRequest, _ result: Result<HVTCapture, HVTCameraError>, counted: Bool,
    frame: FrameTap.Frame? = nil
  ) {
    if counted { state.photos.inProgress -= 1 }
    let handingOver = request.isInFlight ? request.id : nil
    switch result {
    case .success(let capture) where reviewsPhoto(for: request.destination):
      beginReview(capture, frame: frame, destination: request.destination, handingOver: handingOver)
    case .success(let capture):
      deliverPhoto(capture, frame: frame, to: request.destination, crop: nil, handingOver: handingOver)
    case .failure:
      effects.append(.deliver(result, to: request.destination, handingOver: handingOver))
    }
    continueStopping()
  }

  /// Delivers a photo; with ``HVTCameraController/allowsEditing``, with its edited image of `crop`, or of
  /// ``HVTCameraController/editingCropRect`` made square.
  mutating func deliverPhoto(
    _ capture: HVTCapture, frame: FrameTap.Frame?, to destination: Machine.Destination, crop: HVTRect?,
    handingOver: UInt64?
  ) {
    guard state.settings.allowsEditing, let image = capture.image else {
      return effects.append(.deliver(.success(capture), to: destination, handingOver: handingOver))
    }
    let square = crop ?? EditedPhoto.square(state.settings.editingCropRect, width: image.width, height: image.height)
    effects.append(.deliverEdited(capture, frame: frame, crop: square, to: destination, handingOver: handingOver))
  }

  // MARK: - The review screen

  /// Whether a finished photo goes to the review screen: a `takePicture()` photo with the default
  /// controls on a window or embedded preview.
  func reviewsPhoto(for destination: Machine.Destination) -> Bool {
    guard case .delegate = destination, state.phase.running != nil else { return false }
    return state.settings.showsCameraControls && state.settings.shownPreview(environment: state.environment).hasWindow
  }

  /// Shows `capture` for review: its frame held still on the preview, the review's buttons, and the crop
  /// box with editing.
  mutating func beginReview(
    _ capture: HVTCapture, frame: FrameTap.Frame?, destination: Machine.Destination, handingOver: UInt64?
  ) {
    endReview(using: false)
    let settings = state.settings
    let mirrored = settings.mirrorsFrontPreview && capture.metadata.configuration.device == .front
    let crop = capture.image.map { image in
      let square = EditedPhoto.square(settings.editingCropRect, width: image.width, height: image.height)
      return mirrored ? square.mirrored(within: image.width) : square
    }
    state.review = Machine.Review(
      capture: capture, frame: frame, destination: destination, handingOver: handingOver,
      crop: settings.allowsEditing ? crop : nil, mirrored: mirrored)
    if let session = state.phase.session { effects.append(.showStillFrame(session.id, frame)) }
    refreshControls()
    effects.append(.publish(.reviewStarted(url: capture.url)))
  }

  /// Closes the review screen, if one is open: `using` delivers the photo (edited, with editing),
  /// otherwise its file is removed and it stops being in flight. The live preview comes back.
  mutating func endReview(using: Bool) {
    guard let review = state.review else { return }
    state.review = nil
    state.cropDrag = nil
    if let session = state.phase.session { effects.append(.showStillFrame(session.id, nil)) }
    refreshControls()
    effects.append(.publish(.reviewEnded(used: using)))
    guard using else {
      effects.append(.removeFile(review.capture.url))
      if let id = review.handingOver, state.photos.inFlight == id { state.photos.inFlight = nil }
      return
    }
    deliverPhoto(
      review.capture, frame: review.frame, to: review.destination, crop: review.photoCrop,
      handingOver: review.handingOver)
  }

  /// A key or mouse action in the preview's window: the default controls act on it, or, without them,
  /// the app receives it.
  mutating func navigate(_ event: NavigationEvent, size: HVTFrameSize) {
    guard state.phase.running != nil else { return }
    guard state.settings.showsCameraControls else { return effects.append(.publish(.navigation(event))) }
    guard let look = currentPreview.controls else { return }
    switch event {
    case .keyPress(let key):
      CameraControls.action(key: key, look: look, size: size).map { perform($0) }
    case .mouseButtonPress(1, let x, let y):
      if let crop = state.review?.crop, crop.contains(x: x, y: y) {
        state.cropDrag = Machine.CropDrag(x: x, y: y, crop: crop)
      } else {
        CameraControls.action(clickAt: x, y, size: size, look: look).map { perform($0) }
      }
    case .mouseMove(let x, let y):
      dragCrop(to: x, y)
    case .mouseButtonRelease(1, let x, let y):
      // Sinks may report the pointer's motion before the press (ximagesink coalesces motion first), so the
      // release's place counts too.
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

  /// Does what a control asks for: the review's own buttons and crop box here, the rest through the
  /// public API.
  mutating func perform(_ action: CameraControls.Action) {
    switch action {
    case .cancel:
      cancel()
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
    case .shutter, .pauseOrResume, .flash, .switchCamera, .switchMode:
      effects.append(.perform(action))
    }
  }

  /// Moves the crop box being dragged by the pointer's way from where the button went down.
  mutating func dragCrop(to x: Double, _ y: Double) {
    guard let drag = state.cropDrag else { return }
    moveCrop(
      to: HVTRect(
        x: drag.crop.x + Int((x - drag.x).rounded()), y: drag.crop.y + Int((y - drag.y).rounded()),
        width: drag.crop.width, height: drag.crop.height))
  }

  /// Puts the review's crop box at `rect`, made square and kept inside the photo.
  mutating func moveCrop(to rect: HVTRect) {
    guard let review = state.review, let image = review.capture.image else { return }
    state.review?.crop = EditedPhoto.square(rect, width: image.width, height: image.height)
    refreshControls()
  }
}
