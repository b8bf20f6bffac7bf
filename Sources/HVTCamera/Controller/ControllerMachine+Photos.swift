import Foundation
import HVTGStreamer

/// Photos, and the preview the default controls change.
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
      preview.controls?.review = CameraControls.Review(crop: review.crop, timeline: review.movie?.timeline)
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
      refusal = notPresented(toCaller: !inFlight)
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
      let error = Machine.failure(to: request.destination, cause: state.dismissedBy, otherwise: .notPresented)
      return photoFinished(request, .failure(error), counted: false)
    }
    guard let session = state.phase.running else { return state.photos.awaitingCamera.append(request) }
    state.photos.inProgress += 1
    effects.append(.takePhoto(request, on: session.id))
  }

  /// Hands the photo over — to the review screen first with the default controls on a window, edited
  /// with ``HVTCameraController/allowsEditing`` —; a `takePicture()` photo stays in flight until the
  /// delegate receives it. A photo taken on a camera (`counted`) that never got its frame because a
  /// failure stopped the camera (``State/stopCause``) fails, for a caller, with that failure.
  mutating func photoFinished(
    _ request: Machine.PhotoRequest, _ result: Result<HVTCapture, HVTCameraError>, counted: Bool,
    frame: FrameTap.Frame? = nil
  ) {
    if counted { state.photos.inProgress -= 1 }
    let handingOver = request.isInFlight ? request.id : nil
    switch result {
    case .success(let capture) where canOpenReview(for: request.destination):
      beginReview(capture, frame: frame, handingOver: handingOver)
    case .success(let capture):
      deliverPhoto(capture, frame: frame, to: request.destination, crop: nil, handingOver: handingOver)
    case .failure(let error):
      let answer =
        counted && error == .notPresented
        ? Machine.failure(to: request.destination, cause: state.stopCause, otherwise: error) : error
      effects.append(.deliver(.failure(answer), to: request.destination, handingOver: handingOver))
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
}
