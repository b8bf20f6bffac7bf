import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// Captures a still image: the newest frame at the moment of the call (zero shutter lag), encoded as
  /// JPEG at the configured quality's size and delivered to the delegate.
  ///
  /// Has no effect while a photo is in progress (until the delegate has returned from receiving it), when the camera is
  /// not presented, or when `mediaTypes` lacks `.image`. Works while recording, without disturbing it.
  /// In photo mode on a camera with a flash, a flash that fires lights the scene and the next lit frame
  /// is taken instead (as real cameras do).
  public func takePicture() {
    queue.sync {
      guard let session = state.session, !state.photoInFlight,
        state.mediaTypes.contains(.image)
      else { return }
      state.photoInFlight = true
      let requestTime = session.pipeline.runningTime
      let flashMode = state.cameraFlashMode
      let usesFlash = session.canLight && state.cameraCaptureMode == .photo
      let directory = state.outputDirectory
      let capture: @Sendable (Result<FrameTap.Frame, any Error>, Bool) -> Void = { [self] frame, flashFired in
        photoQueue.async {
          let result = Result {
            try self.writePhoto(
              frame.get(), session: session, directory: directory, requestTime: requestTime, flashFired: flashFired)
          }
          // The photo stays in flight until the delegate has it, as with UIImagePickerController.
          let done: @Sendable () -> Void = { self.queue.async { self.state.photoInFlight = false } }
          self.queue.async {
            switch result {
            case .success(let info): self.deliver(info, afterwards: done)
            case .failure(let error): self.fail(error, afterwards: done)
            }
          }
        }
      }
      let takeFrame: @Sendable (FrameTap.Frame?) -> Void = { frame in
        guard let frame else { return capture(.failure(HVTCameraError.notPresented), false) }
        guard usesFlash, HVTFlashDecision.fires(flashMode, for: frame) else { return capture(.success(frame), false) }
        // Light the scene, then take the first frame made after the light came on.
        do { try session.setLight(true) } catch { return capture(.failure(error), false) }
        session.tap.onFrame(after: frame.sequence + 1) { lit in
          let result = Result { () throws -> FrameTap.Frame in
            try session.setLight(false)
            guard let lit else { throw HVTCameraError.notPresented }
            return lit
          }
          capture(result, true)
        }
      }
      // The frame of the moment: the newest one that entered the tee (the first, if none has yet).
      if let frame = session.tap.latest {
        takeFrame(frame)
      } else {
        session.tap.onFrame(after: 0, takeFrame)
      }
    }
  }

  /// Encodes a frame, writes it (partial name, then rename) and builds the delegate's info.
  private func writePhoto(
    _ frame: FrameTap.Frame, session: CaptureSession, directory: URL, requestTime: UInt?, flashFired: Bool
  ) throws -> [InfoKey: any Sendable] {
    let jpeg = try session.photoEncoder.encode(frame)
    debugLog.log(.debug, "photo of frame #\(frame.sequence) (pts \(frame.presentationTime) ns), flash \(flashFired)")
    let file = try CaptureFiles.reserve(
      in: directory, prefix: "IMG", extension: session.model.photoExtension, movie: false)
    try CaptureFiles.write(jpeg, to: file)
    let structure = frame.caps.structure(at: 0)
    let age = requestTime.map { (ClockTime.seconds($0) - ClockTime.seconds(frame.presentationTime)) }
    let metadata = HVTMediaMetadata(
      captureDate: Date(timeIntervalSinceNow: -(age ?? 0)), configuration: session.model.configuration,
      frameTimestamp: ClockTime.seconds(frame.presentationTime), frameAge: age, flashFired: flashFired,
      duration: nil, frameCount: nil, encoder: session.model.photoEncoderFactory, muxer: nil, stopReason: nil,
      fileSize: jpeg.count)
    return [
      .mediaType: HVTMediaType.image,
      .originalImage: HVTImage(
        jpegData: jpeg, width: structure.int("width") ?? 0, height: structure.int("height") ?? 0),
      .imageURL: file.final,
      .mediaMetadata: metadata,
    ]
  }
}
