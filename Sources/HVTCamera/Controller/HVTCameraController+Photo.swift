import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// A photo asked for: the frame of its moment (taken at the call), and where it goes.
  struct PhotoRequest: Sendable {
    /// The camera at the call, or `nil` while it was (re)starting: then the next camera's first frame
    /// is taken.
    let session: CaptureSession?
    /// The newest frame at the call, or `nil` when none had arrived yet (the first one is taken).
    let frame: FrameTap.Frame?
    /// The pipeline's running time at the call, to tell the frame's age (`nil` before it plays).
    let requestTime: UInt?
    /// The moment of the call, for the frame's age when the running time is not known yet.
    let requestInstant: ContinuousClock.Instant
    /// The moment of the call on the wall clock, for the capture date.
    let requestDate: Date
    let flashMode: CameraFlashMode
    /// The app's location and tags at the call, written into the photo.
    let location: HVTLocation?
    let mediaTags: HVTMediaTags
    /// Photo mode: the flash may fire on a camera with a light.
    let inPhotoMode: Bool
    let file: CaptureFiles.Reservation
    let destination: Destination
    /// A `takePicture()` photo, which keeps ``isReadyForCapture`` false until the delegate has it.
    let isInFlight: Bool
  }

  // MARK: - Public API

  /// Captures a still image: the newest frame at the moment of the call (zero shutter lag), encoded as
  /// JPEG at the configured quality's size, written into ``outputDirectory`` and delivered to the
  /// delegate.
  ///
  /// As with `UIImagePickerController`, has no effect while a photo is in flight — until the delegate
  /// receives it in `cameraController(_:didFinishCapturingMediaWithInfo:)`, from where the next
  /// `takePicture()` may be called (see ``isReadyForCapture``); the call that has no effect is announced
  /// as ``HVTCameraEvent/callIgnored(call:reason:)``. When the camera is not presented, without
  /// `.image` in ``mediaTypes``, or when the file cannot be created, the delegate receives the error
  /// (``HVTCameraError/notPresented``, ``HVTCameraError/mediaTypeNotEnabled(_:)``, a file error).
  /// Works while recording, without disturbing it. In photo mode on a camera with a flash, a flash that
  /// fires lights the scene and the next lit frame is taken instead (as real cameras do). Before the
  /// camera delivers its first frame — after `present()`, or while it restarts with a new device or
  /// quality — the first frame is taken.
  public func takePicture() {
    let allowed = shared.withLock { shared -> Bool? in
      guard shared.isPresented else { return nil }
      guard !shared.photoInFlight else { return false }
      shared.photoInFlight = true
      return true
    }
    guard let allowed else { return queue.async { self.fail(HVTCameraError.notPresented) } }
    guard allowed else {
      return ignored("takePicture()", because: "a photo is in flight until the delegate receives it")
    }
    if case .failure(let error) = requestPhoto(to: nil, replacing: false, destination: .delegate, isInFlight: true) {
      shared.withLock { $0.photoInFlight = false }
      queue.async {
        self.fail(error)
        self.announceReadiness()
      }
    }
  }

  /// Captures a still image, as ``takePicture()`` does, and returns it once written. Each call takes the
  /// frame of its own moment — calls issued back to back, faster than the frame rate, share a frame —
  /// and yields one photo or throws; none is dropped, whether or not another photo is in flight.
  ///
  /// `url` names the file (default: a generated name in ``outputDirectory``); its folder is created. An
  /// existing file there is an error unless `replacingExisting` and it is a regular file; something else
  /// (a symbolic link, a device) is never replaced. Throws ``HVTCameraError/notPresented``,
  /// ``HVTCameraError/mediaTypeNotEnabled(_:)``, file errors (path and reason), or GStreamer's error.
  public func capturePhoto(to url: URL? = nil, replacingExisting: Bool = false) async throws -> HVTCapture {
    try await withCheckedThrowingContinuation { continuation in
      let destination = Destination.caller { continuation.resume(with: $0.mapError { $0 }) }
      if case .failure(let error) = requestPhoto(
        to: url, replacing: replacingExisting, destination: destination, isInFlight: false)
      {
        continuation.resume(throwing: error)
      }
    }
  }

  // MARK: - The photo's life

  /// Takes the frame of the moment, reserves the file and hands the photo to the queue (any thread).
  private func requestPhoto(to url: URL?, replacing: Bool, destination: Destination, isInFlight: Bool)
    -> Result<Void, HVTCameraError>
  {
    let (settings, session, presented) = read { ($0.settings, $0.session, $0.isPresented) }
    guard presented else { return .failure(.notPresented) }
    guard settings.mediaTypes.contains(.image) else { return .failure(.mediaTypeNotEnabled(.image)) }
    let (requestInstant, requestDate) = (ContinuousClock.now, Date())
    let frame = session?.tap.latest
    let requestTime = session?.pipeline.runningTime
    do {
      let file =
        if let url {
          try CaptureFiles.reserve(url, movie: false, replacing: replacing)
        } else {
          try CaptureFiles.reserve(
            in: settings.outputDirectory, prefix: "IMG", extension: settings.preset.photoExtension, movie: false)
        }
      let request = PhotoRequest(
        session: session, frame: frame, requestTime: requestTime, requestInstant: requestInstant,
        requestDate: requestDate, flashMode: settings.cameraFlashMode, location: settings.location,
        mediaTags: settings.mediaTags,
        inPhotoMode: settings.cameraCaptureMode == .photo, file: file, destination: destination,
        isInFlight: isInFlight)
      queue.async { self.beginPhoto(request) }
      return .success(())
    } catch {
      return .failure(HVTCameraError(error))
    }
  }

  /// Starts a photo on the queue: on the camera of its moment if that still runs, else — while the
  /// camera (re)starts — on the next camera's first frame.
  func beginPhoto(_ request: PhotoRequest) {
    if request.isInFlight { announceReadiness() }
    guard read(\.isPresented) else {
      request.file.discard()
      return photoFinished(request, .failure(.notPresented), counted: false)
    }
    guard state.phase == .running, let session = state.session else {
      state.photosAwaitingCamera.append(request)
      return
    }
    state.photosInProgress += 1
    guard session === request.session, let frame = request.frame else {
      session.tap.onFrame(after: 0) { [queue] first in
        queue.async { self.takeFrame(first, on: session, for: request) }
      }
      return
    }
    takeFrame(frame, on: session, for: request)
  }

  /// Fails the photos waiting for a camera that will not come.
  func abandonAwaitingPhotos(_ error: HVTCameraError) {
    let waiting = state.photosAwaitingCamera
    state.photosAwaitingCamera = []
    for request in waiting {
      request.file.discard()
      photoFinished(request, .failure(error), counted: false)
    }
  }

  /// Encodes `frame`, or — when the flash fires — lights the scene and encodes the first lit frame.
  private func takeFrame(_ frame: FrameTap.Frame?, on session: CaptureSession, for request: PhotoRequest) {
    guard let frame else { return photoFailed(request, .notPresented) }
    guard request.inPhotoMode, session.canLight, HVTFlashDecision.fires(request.flashMode, for: frame) else {
      return encode(frame, on: session, for: request, flashFired: false)
    }
    do { try session.setLight(true, torch: false) } catch { return photoFailed(request, HVTCameraError(error)) }
    // Frames that passed the tee since `frame` was taken are unlit, and so may be the one the light's
    // element is working on now: the first lit frame is the second one to reach the tee from here.
    session.tap.onFrame(after: session.tap.frameCount + 1) { [queue] lit in
      queue.async {
        do { try session.setLight(false, torch: false) } catch {
          return self.photoFailed(request, HVTCameraError(error))
        }
        guard let lit else { return self.photoFailed(request, .notPresented) }
        self.encode(lit, on: session, for: request, flashFired: true)
      }
    }
  }

  /// Encodes and writes the photo on the photo queue (the encoder answers within its timeout).
  private func encode(_ frame: FrameTap.Frame, on session: CaptureSession, for request: PhotoRequest, flashFired: Bool)
  {
    photoQueue.async {
      let result = Result { try self.writePhoto(frame, on: session, for: request, flashFired: flashFired) }
      self.queue.async {
        self.photoFinished(request, result.mapError(HVTCameraError.init), counted: true, frame: frame)
      }
    }
  }

  private func photoFailed(_ request: PhotoRequest, _ error: HVTCameraError) {
    request.file.discard()
    photoFinished(request, .failure(error), counted: true)
  }

  /// Hands the photo over — to the review screen first with the default controls, edited with
  /// ``allowsEditing`` — ; a `takePicture()` photo stays in flight until the delegate receives it.
  private func photoFinished(
    _ request: PhotoRequest, _ result: Result<HVTCapture, HVTCameraError>, counted: Bool,
    frame: FrameTap.Frame? = nil
  ) {
    if counted { state.photosInProgress -= 1 }
    let handedOver: (@Sendable () -> Void)? =
      request.isInFlight
      ? { @Sendable in
        // On the main actor, right before the delegate receives the photo: a `takePicture()` made from
        // the delegate's method takes the next one.
        self.shared.withLock { $0.photoInFlight = false }
        self.queue.async { self.announceReadiness() }
      } : nil
    if case .success(let capture) = result, let frame {
      if reviewsPhoto(for: request.destination) {
        beginReview(capture, frame: frame, destination: request.destination, handedOver: handedOver)
      } else {
        deliver(capture, frame: frame, to: request.destination, handedOver: handedOver)
      }
    } else {
      deliver(result, to: request.destination, handedOver: handedOver)
    }
    continueStopping()
  }

  /// Encodes a frame and writes it (partial name, then the final one); on failure nothing is left.
  private func writePhoto(
    _ frame: FrameTap.Frame, on session: CaptureSession, for request: PhotoRequest, flashFired: Bool
  ) throws -> HVTCapture {
    let encoded: Data
    do {
      encoded = try session.photoEncoder.encode(frame)
    } catch {
      request.file.discard()
      throw error
    }
    debugLog.log(.debug, "photo of frame #\(frame.sequence) (pts \(frame.presentationTime) ns), flash \(flashFired)")
    let structure = frame.caps.structure(at: 0)
    let (width, height) = (structure.int("width") ?? 0, structure.int("height") ?? 0)
    // On the pipeline's clock when the call came while it played; else by when the frame reached the tee.
    let age =
      if let requestTime = request.requestTime, session === request.session {
        ClockTime.seconds(requestTime) - ClockTime.seconds(frame.presentationTime)
      } else {
        Self.seconds(request.requestInstant - frame.arrival)
      }
    let configuration = session.model.configuration
    let tags = PhotoTags(
      capture: CaptureTags(
        date: request.requestDate.addingTimeInterval(-age), configuration: configuration,
        location: request.location, tags: request.mediaTags),
      width: width, height: height, hasFlash: session.canLight, flashMode: request.flashMode, flashFired: flashFired)
    let tagged = JPEGSegments.tagging(encoded, with: tags)
    if tagged == nil {
      debugLog.log(.warning, "the photo encoder's output is not a JPEG: the photo has no EXIF or XMP")
    }
    let jpeg = tagged ?? encoded
    let url = try CaptureFiles.write(jpeg, to: request.file)
    var metadata = HVTMediaMetadata(
      captureDate: tags.capture.date, configuration: configuration,
      frameTimestamp: ClockTime.seconds(frame.presentationTime), frameAge: age, flashFired: flashFired,
      duration: nil, frameCount: nil, encoder: session.model.photoEncoderFactory, muxer: nil, stopReason: nil,
      fileSize: jpeg.count)
    if tagged != nil { metadata.record(tags.capture) }
    let image = HVTImage(jpegData: jpeg, width: width, height: height)
    var capture = HVTCapture(mediaType: .image, url: url, image: image, metadata: metadata, interruption: nil)
    capture.thumbnail = thumbnail(of: frame.buffer, caps: frame.caps, on: session)
    return capture
  }

  /// The thumbnail of a capture's frame (``CaptureSession/thumbnail(of:caps:maximumDimension:)``), or `nil`
  /// with a warning in the log when it could not be made: the capture is complete without it. On the
  /// photo queue.
  func thumbnail(of buffer: Buffer, caps: Caps, on session: CaptureSession) -> HVTImage? {
    do {
      return try session.thumbnail(
        of: buffer, caps: caps, maximumDimension: read(\.settings.thumbnailMaximumDimension))
    } catch {
      debugLog.log(.warning, "no thumbnail: \(error)")
      return nil
    }
  }
}
