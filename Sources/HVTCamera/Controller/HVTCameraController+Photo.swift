import Foundation
import HVTGStreamer

extension HVTCameraController {
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
    let id = nextRequestID()
    guard send(.askPhoto(id: id, inFlight: true)) == .accepted else { return }
    requestPhoto(id, to: nil, replacing: false, destination: .delegate, isInFlight: true)
  }

  /// Captures a still image, as ``takePicture()`` does, and returns it once written. Each call takes the
  /// frame of its own moment — calls issued back to back, faster than the frame rate, share a frame —
  /// and yields one photo or throws; none is dropped, whether or not another photo is in flight.
  ///
  /// `url` names the file (default: a generated name in ``outputDirectory``); its folder is created. An
  /// existing file there is an error unless `replacingExisting` and it is a regular file; something else
  /// (a symbolic link, a device) is never replaced. Throws ``HVTCameraError/notPresented``,
  /// ``HVTCameraError/mediaTypeNotEnabled(_:)``, file errors (path and reason), or GStreamer's error; a
  /// photo still waiting for its frame — asked for while the camera started, or waiting for the first lit
  /// frame of a flash — throws why when the camera does not start or fails first (GStreamer's error, a
  /// camera unplugged or stalled). After such a failure dismissed the camera, and until the next
  /// `present()` or `dismiss()`, it throws that failure rather than ``HVTCameraError/notPresented``.
  public func capturePhoto(to url: URL? = nil, replacingExisting: Bool = false) async throws -> HVTCapture {
    let id = nextRequestID()
    if case .refused(let error) = send(.askPhoto(id: id, inFlight: false)) { throw error }
    return try await withCheckedThrowingContinuation { continuation in
      let destination = ControllerMachine.Destination.caller { continuation.resume(with: $0.mapError { $0 }) }
      if let error = requestPhoto(
        id, to: url, replacing: replacingExisting, destination: destination, isInFlight: false)
      {
        continuation.resume(throwing: error)
      }
    }
  }

  // MARK: - The photo's life

  /// Takes the frame of the moment and reserves the file of photo `id`, which the machine accepted, and
  /// hands the photo to it; returns why the file could not be reserved (which a `takePicture()` photo
  /// also reports).
  @discardableResult
  private func requestPhoto(
    _ id: UInt64, to url: URL?, replacing: Bool, destination: ControllerMachine.Destination, isInFlight: Bool
  ) -> HVTCameraError? {
    let settings = read(\.settings)
    let session = currentSession
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
      send(
        .photo(
          .init(
            id: id, session: session?.id, frame: frame, requestTime: requestTime, requestInstant: requestInstant,
            requestDate: requestDate, flashMode: settings.cameraFlashMode, location: settings.location,
            mediaTags: settings.mediaTags, inPhotoMode: settings.cameraCaptureMode == .photo, file: file,
            destination: destination, isInFlight: isInFlight)))
      return nil
    } catch {
      let error = HVTCameraError(error)
      send(.photoNotReserved(id: id, error, inFlight: isInFlight))
      return error
    }
  }

  /// Takes photo `request` on session `id`: its frame of the moment if it was taken there, else the
  /// session's first frame (the camera was (re)starting at the call).
  func takePhoto(_ request: ControllerMachine.PhotoRequest, on id: UInt64) {
    guard let session = session(id) else { return photoFailed(request, .notPresented) }
    guard session.id == request.session, let frame = request.frame else {
      session.tap.onFrame(after: 0) { [queue] first in
        queue.async { self.takeFrame(first, on: session, for: request) }
      }
      return
    }
    takeFrame(frame, on: session, for: request)
  }

  /// Encodes `frame`, or — when the flash fires — lights the scene and encodes the first lit frame.
  private func takeFrame(
    _ frame: FrameTap.Frame?, on session: CaptureSession, for request: ControllerMachine.PhotoRequest
  ) {
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
  private func encode(
    _ frame: FrameTap.Frame, on session: CaptureSession, for request: ControllerMachine.PhotoRequest, flashFired: Bool
  ) {
    photoQueue.async {
      let result = Result { try self.writePhoto(frame, on: session, for: request, flashFired: flashFired) }
      self.post(.photoTaken(request, result.mapError(HVTCameraError.init), frame: frame))
    }
  }

  private func photoFailed(_ request: ControllerMachine.PhotoRequest, _ error: HVTCameraError) {
    request.file.discard()
    send(.photoTaken(request, .failure(error), frame: nil))
  }

  /// Delivers a photo with its edited image of `crop` (``allowsEditing``), made on the photo queue by the
  /// session's photo encoder; without a session, as it is.
  func deliverEdited(
    _ capture: HVTCapture, frame: FrameTap.Frame?, crop: HVTRect, to destination: ControllerMachine.Destination,
    handingOver: UInt64?
  ) {
    guard let frame, let encoder = currentSession?.model.photoEncoder.last else {
      return deliver(.success(capture), to: destination, handingOver: handingOver)
    }
    photoQueue.async {
      let result = Result { () throws -> HVTCapture in
        var capture = capture
        let edited = try EditedPhoto.make(
          from: frame, crop: crop, encoder: encoder, maximumDimension: Self.editedImageMaximumDimension)
        capture.edit = (edited, crop)
        return capture
      }
      self.queue.async {
        self.deliver(result.mapError(HVTCameraError.init), to: destination, handingOver: handingOver)
      }
    }
  }

  /// Encodes a frame and writes it (partial name, then the final one); on failure nothing is left.
  private func writePhoto(
    _ frame: FrameTap.Frame, on session: CaptureSession, for request: ControllerMachine.PhotoRequest, flashFired: Bool
  ) throws -> HVTCapture {
    let encoded: Data
    do {
      encoded = try session.photoEncoder().encode(frame)
    } catch {
      request.file.discard()
      throw error
    }
    debugLog.log(.debug, "photo of frame #\(frame.sequence) (pts \(frame.presentationTime) ns), flash \(flashFired)")
    let structure = frame.caps.structure(at: 0)
    let (width, height) = (structure.int("width") ?? 0, structure.int("height") ?? 0)
    // On the pipeline's clock when the call came while it played; else by when the frame reached the tee.
    let age =
      if let requestTime = request.requestTime, session.id == request.session {
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
