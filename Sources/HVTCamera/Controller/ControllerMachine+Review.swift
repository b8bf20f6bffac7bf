import Foundation
import HVTGStreamer

/// The review screen of the default controls: a `takePicture()` photo, or a `startVideoCapture()` movie,
/// shown still on the preview until Use delivers it or Retake removes its file; a photo's crop box, a
/// movie's timeline with its playhead and trim handles.
extension ControllerMachine.Transition {
  // MARK: - Opening and closing

  /// Whether a capture for `destination` goes to the review screen: one for the delegate (a
  /// `takePicture()` photo, a `startVideoCapture()` movie), with the default controls on a window or
  /// embedded preview of a running camera.
  func reviewsCapture(for destination: Machine.Destination) -> Bool {
    guard case .delegate = destination, state.phase.running != nil else { return false }
    return state.settings.showsCameraControls && state.settings.shownPreview(environment: state.environment).hasWindow
  }

  /// Whether a finished capture for `destination` opens the review screen now: it reviews captures, and
  /// none is on it (a photo finished while a movie is reviewed, or the other way round, is delivered).
  func canOpenReview(for destination: Machine.Destination) -> Bool {
    state.review == nil && reviewsCapture(for: destination)
  }

  /// Whether a `startVideoCapture()` movie is in flight: stopped to be reviewed, on the review screen, or
  /// being cut after Use Video.
  var movieInFlight: Bool {
    state.review?.movie != nil || state.endingRecordings.contains(where: \.reviewed) || state.moviesBeingCut > 0
  }

  /// Shows a photo for review: its frame held still on the preview, the review's buttons, and the crop
  /// box with editing.
  mutating func beginReview(_ capture: HVTCapture, frame: FrameTap.Frame?, handingOver: UInt64?) {
    let settings = state.settings
    let mirrored = settings.mirrorsFrontPreview && capture.metadata.configuration.device == .front
    let crop = capture.image.map { image in
      let square = EditedPhoto.square(settings.editingCropRect, width: image.width, height: image.height)
      return mirrored ? square.mirrored(within: image.width) : square
    }
    open(
      Machine.Review(
        capture: capture, frame: frame, destination: .delegate, handingOver: handingOver,
        crop: settings.allowsEditing ? crop : nil, mirrored: mirrored),
      still: frame?.buffer)
  }

  /// Shows a movie for review: its timeline (with the trim handles with editing, the trim at most
  /// ``HVTCameraController/videoMaximumDuration`` long) and its first frame, once decoded, held still on
  /// the preview.
  mutating func beginReview(movie capture: HVTCapture) {
    let metadata = capture.metadata
    let duration = metadata.duration ?? 0
    let frameRate = metadata.configuration.frameRate.framesPerSecond
    let frameInterval =
      if let frames = metadata.frameCount, frames > 0, duration > 0 {
        duration / Double(frames)
      } else {
        frameRate > 0 ? 1 / frameRate : 1 / 30
      }
    let timeline = CameraControls.Timeline(
      duration: duration, frameInterval: frameInterval, limit: state.settings.videoMaximumDuration,
      editing: state.settings.allowsEditing)
    open(
      Machine.Review(
        capture: capture, frame: nil, destination: .delegate, handingOver: nil, crop: nil, mirrored: false,
        movie: Machine.MovieReview(timeline: timeline)),
      still: nil)
    askForMovieFrame()
  }

  /// Opens the review screen on `review`, holding `still` on the preview.
  private mutating func open(_ review: Machine.Review, still: Buffer?) {
    state.review = review
    if let session = state.phase.session, let still { effects.append(.showStillFrame(session.id, still)) }
    refreshControls()
    effects.append(.publish(.reviewStarted(url: review.capture.url)))
  }

  /// Closes the review screen, if one is open: `using` delivers the photo (edited, with editing) or the
  /// movie (cut to its trim, with editing); otherwise its file is removed and it stops being in flight.
  /// The live preview comes back.
  mutating func endReview(using: Bool) {
    guard let review = state.review else { return }
    state.review = nil
    state.cropDrag = nil
    state.handleDrag = nil
    if let session = state.phase.session { effects.append(.showStillFrame(session.id, nil)) }
    refreshControls()
    // A retaken capture's file is gone before anyone hears that the review ended.
    if !using { effects.append(.removeFile(review.capture.url)) }
    effects.append(.publish(.reviewEnded(used: using)))
    guard using else {
      if let id = review.handingOver, state.photos.inFlight == id { state.photos.inFlight = nil }
      return
    }
    guard let movie = review.movie else {
      return deliverPhoto(
        review.capture, frame: review.frame, to: review.destination, crop: review.photoCrop,
        handingOver: review.handingOver)
    }
    let timeline = movie.timeline
    guard let cut = timeline.cut else {
      return effects.append(.deliver(.success(review.capture), to: review.destination, handingOver: nil))
    }
    state.moviesBeingCut += 1
    effects.append(.deliverTrimmed(review.capture, span: cut, limit: timeline.limit, to: review.destination))
  }

  // MARK: - Movies

  /// Hands recording `id`'s complete movie on — to the review screen when it was stopped for one and one
  /// can open, else to its destination — and only then removes its branch: the teardown (the encoder's
  /// threads stopped, its memory freed) takes milliseconds of the processors the delivery needs, and would
  /// start before it otherwise.
  mutating func movieFinished(
    _ id: UInt64, _ result: Result<HVTCapture, HVTCameraError>, _ delivery: Machine.MovieDelivery
  ) {
    if case .success(let capture) = result, delivery.reviewed, canOpenReview(for: delivery.destination) {
      beginReview(movie: capture)
    } else {
      effects.append(.deliver(result, to: delivery.destination, handingOver: nil))
    }
    effects.append(.removeRecording(id))
  }

  /// Asks for the reviewed movie's frame at the playhead: the one shown half a frame after it, which is
  /// the frame nearest to it — the one a trim handle put there keeps at its end (see `deliverTrimmed`);
  /// the frames asked before are not shown.
  mutating func askForMovieFrame() {
    guard let review = state.review, var movie = review.movie, let session = state.phase.session else { return }
    movie.frameRequest &+= 1
    state.review?.movie = movie
    let timeline = movie.timeline
    effects.append(
      .decodeMovieFrame(
        session.id, url: review.capture.url, at: timeline.playhead + timeline.frameInterval / 2,
        request: movie.frameRequest))
  }

  /// The frame asked for last is held still on the preview.
  mutating func movieFrameDecoded(request: UInt64, _ frame: Buffer?) {
    guard state.review?.movie?.frameRequest == request, let frame, let session = state.phase.session else { return }
    effects.append(.showStillFrame(session.id, frame))
  }

  /// Changes the reviewed movie's timeline; a move of the playhead asks for its frame.
  mutating func changeTimeline(_ change: (inout CameraControls.Timeline) -> Void) {
    guard let timeline = state.review?.movie?.timeline else { return }
    var changed = timeline
    change(&changed)
    guard changed != timeline else { return }
    state.review?.movie?.timeline = changed
    refreshControls()
    if changed.playhead != timeline.playhead { askForMovieFrame() }
  }

  /// Drags the grabbed trim handle, and the playhead with it (the frame shown is the handle's), to the
  /// pointer's place `x`.
  mutating func dragHandle(to x: Double, size: HVTFrameSize) {
    guard let handle = state.handleDrag else { return }
    changeTimeline { $0.drag(handle, to: CameraControls.time(at: x, on: $0, size: size)) }
  }

  // MARK: - Keys and clicks

  /// A key or mouse action in the preview's window: the default controls act on it, or, without them,
  /// the app receives it.
  mutating func navigate(_ event: NavigationEvent, size: HVTFrameSize) {
    guard state.phase.running != nil else {
      return effects.append(.log(.debug, "\(event) left alone: the camera is not running", session: nil))
    }
    guard state.settings.showsCameraControls else { return effects.append(.publish(.navigation(event))) }
    guard let look = currentPreview.controls else { return }
    switch event {
    case .keyPress(let key):
      let action = CameraControls.action(key: key, look: look, size: size)
      effects.append(.log(.debug, "key \(key): \(action.map { "\($0)" } ?? "no control")", session: nil))
      action.map { perform($0) }
    case .mouseButtonPress(1, let x, let y):
      if let crop = state.review?.crop, crop.contains(x: x, y: y) {
        state.cropDrag = Machine.CropDrag(x: x, y: y, crop: crop)
      } else if let target = CameraControls.timelineTarget(at: x, y, size: size, look: look) {
        switch target {
        case .handle(let handle):
          state.handleDrag = handle
          dragHandle(to: x, size: size)
        case .time(let time):
          perform(.seek(time))
        }
      } else {
        CameraControls.action(clickAt: x, y, size: size, look: look).map { perform($0) }
      }
    case .mouseMove(let x, let y):
      dragCrop(to: x, y)
      dragHandle(to: x, size: size)
    case .mouseButtonRelease(1, let x, let y):
      // Sinks may report the pointer's motion before the press (ximagesink coalesces motion first), so the
      // release's place counts too.
      dragCrop(to: x, y)
      dragHandle(to: x, size: size)
      state.cropDrag = nil
      state.handleDrag = nil
    case .mouseButtonPress(4, _, _), .scroll(_, _, _, ..<0):
      perform(.scaleCrop(1.1))
    case .mouseButtonPress(5, _, _), .scroll(_, _, _, 0.000_001...):
      perform(.scaleCrop(1 / 1.1))
    default:
      break
    }
  }

  /// Does what a control asks for: the review's own buttons, crop box and timeline here, the rest through
  /// the public API.
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
    case .movePlayhead, .stepFrames, .seek, .trimAtPlayhead:
      changeTimeline { $0.apply(action) }
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
