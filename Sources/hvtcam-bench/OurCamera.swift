import Dispatch
import Foundation
import HVTCamera
import HVTSupport

/// Receives an `HVTCameraController`'s callbacks on the main actor and hands them to the waiting
/// benchmark thread, stamped with the moment they arrived. Everything but the callbacks is nonisolated:
/// the benchmark thread calls it, and the state it shares with the callbacks is locked.
@MainActor final class BenchDelegate: HVTCameraControllerDelegate {
  /// A capture as the delegate received it.
  struct Delivery: Sendable {
    /// When the delegate was called.
    var arrival: Instant
    /// The capture's metadata.
    var metadata: HVTMediaMetadata
    /// The photo or movie file.
    var url: URL
    /// Whether the info dictionary held a thumbnail (`.thumbnail`).
    var hasThumbnail: Bool
  }

  private struct Waiters {
    var photo: Awaited<Delivery>?
    var movie: Awaited<Delivery>?
    var previewStarted: Awaited<Instant>?
    var recordingStarted: Awaited<URL>?
    var reviewStarted: Awaited<URL>?
    var preRollFilled: Awaited<HVTPreRollFill>?
    var failure: Awaited<Failure>?
    var errors: [String] = []
  }

  private let waiters = Locked(Waiters())

  nonisolated init() {}

  /// Becomes `controller`'s delegate.
  nonisolated func attach(to controller: HVTCameraController) {
    controller.cameraDelegate = self
  }

  /// The next photo.
  nonisolated func expectPhoto() -> Awaited<Delivery> { expect(\.photo) }
  /// The next movie.
  nonisolated func expectMovie() -> Awaited<Delivery> { expect(\.movie) }
  /// The moment the preview's first frame arrives (from `HVTCameraEvent.previewStarted`).
  nonisolated func expectPreviewStarted() -> Awaited<Instant> { expect(\.previewStarted) }
  /// The partial file of the next recording (from `HVTCameraEvent.recordingStarted`).
  nonisolated func expectRecordingStarted() -> Awaited<URL> { expect(\.recordingStarted) }
  /// The file shown when the review screen opens (from `HVTCameraEvent.reviewStarted`).
  nonisolated func expectReviewStarted() -> Awaited<URL> { expect(\.reviewStarted) }
  /// The pre-roll's fill when it first holds its duration (from `HVTCameraEvent.preRollFilled`).
  nonisolated func expectPreRollFilled() -> Awaited<HVTPreRollFill> { expect(\.preRollFilled) }

  private nonisolated func expect<Value>(_ slot: WritableKeyPath<Waiters, Awaited<Value>?>) -> Awaited<Value> {
    let awaited = Awaited<Value>()
    waiters.withLock { $0[keyPath: slot] = awaited }
    return awaited
  }

  /// An error the delegate was told of, and when.
  struct Failure: Sendable {
    var arrival: Instant
    var error: HVTCameraError?
    var text: String
  }

  /// The next error (from `didFailWithError`), when it arrived.
  nonisolated func expectFailure() -> Awaited<Failure> { expect(\.failure) }

  /// Errors reported so far.
  nonisolated var errors: [String] { waiters.withLock { $0.errors } }

  /// Waits until the callbacks already queued on the main actor have run (so that a photo is no longer
  /// in flight). Called from the benchmark's thread, never from the main thread.
  nonisolated func flush() { DispatchQueue.main.sync {} }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    let arrival = ContinuousClock.now
    guard let metadata = info[.mediaMetadata] as? HVTMediaMetadata,
      let url = (info[.imageURL] ?? info[.mediaURL]) as? URL
    else { return }
    let delivery = Delivery(arrival: arrival, metadata: metadata, url: url, hasThumbnail: info[.thumbnail] != nil)
    if info[.mediaType] as? HVTMediaType == .movie {
      waiters.withLock { $0.movie }?.fulfill(delivery)
    } else {
      waiters.withLock { $0.photo }?.fulfill(delivery)
    }
  }

  func cameraControllerDidCancel(_ controller: HVTCameraController) {}

  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) {
    let told = Failure(arrival: .now, error: error as? HVTCameraError, text: String(describing: error))
    waiters.withLock { $0.failure }?.fulfill(told)
    let failure = BenchError.failed("HVTCamera: \(error)")
    let pending = waiters.withLock { waiters in
      waiters.errors.append(String(describing: error))
      return (waiters.photo, waiters.movie, waiters.previewStarted, waiters.recordingStarted)
    }
    pending.0?.fail(failure)
    pending.1?.fail(failure)
    pending.2?.fail(failure)
    pending.3?.fail(failure)
    FileHandle.standardError.write(Data("hvtcam-bench: HVTCamera error: \(error)\n".utf8))
  }

  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) {
    switch event {
    case .previewStarted(let instant): waiters.withLock { $0.previewStarted }?.fulfill(instant)
    case .recordingStarted(let url): waiters.withLock { $0.recordingStarted }?.fulfill(url)
    case .reviewStarted(let url): waiters.withLock { $0.reviewStarted }?.fulfill(url)
    case .preRollFilled(let fill): waiters.withLock { $0.preRollFilled }?.fulfill(fill)
    default: break
    }
  }
}

/// One `HVTCameraController` on the simulated camera (or a V4L2 node), with the default preset at a given
/// quality, driven through its public API only.
final class OurCamera {
  let controller: HVTCameraController
  let delegate = BenchDelegate()

  /// A controller for `camera` (the simulated rear camera by default) at `quality`, writing into
  /// `directory`; not presented.
  init(quality: HVTCameraController.QualityType, directory: URL, camera: BenchCamera = .simulated) throws {
    controller = try HVTCameraController(source: camera.controllerSource)
    delegate.attach(to: controller)
    controller.previewOutput = .none  // no window, whatever the display; the preview rows choose theirs
    controller.outputDirectory = directory
    controller.videoQuality = quality
    try controller.setMediaTypes([.image, .movie])
    controller.cameraCaptureMode = .photo
  }

  /// The pipeline model the controller runs at `quality` (both modes: `launchCommand` picks the branch),
  /// read from a controller that is not presented.
  static func pipelineModel(
    quality: HVTCameraController.QualityType, directory: URL, camera: BenchCamera = .simulated
  ) throws -> HVTPipelineModel {
    try OurCamera(quality: quality, directory: directory, camera: camera).controller.pipelineModel()
  }

  /// `present()`; returns the time from the call to the first frame at the preview sink.
  func present() throws -> Duration {
    let started = delegate.expectPreviewStarted()
    let start = ContinuousClock.now
    try controller.present()
    return start.duration(to: try started.wait("the first preview frame"))
  }

  /// The preview's frame count now.
  var previewCount: PreviewCount { PreviewCount(controller.previewStatistics) }

  /// The frame rate the camera runs at (known once `present()` returned: the preview's start is announced
  /// after the configuration).
  var frameRate: Double {
    get throws {
      guard let configuration = controller.configuration else {
        throw BenchError.failed("the camera runs with no configuration")
      }
      return configuration.frameRate.framesPerSecond
    }
  }

  /// `takePicture()`; returns the time until the delegate holds the JPEG on disk, and the frame's age at
  /// the call (`HVTMediaMetadata.frameAge`).
  func takePicture() throws -> (shutter: Duration, frameAge: Double) {
    let (shutter, delivery) = try takePhoto()
    return (shutter, delivery.metadata.frameAge ?? .nan)
  }

  /// `takePicture()`; returns the time until the delegate holds the photo, and the delivery.
  func takePhoto() throws -> (shutter: Duration, delivery: BenchDelegate.Delivery) {
    let photo = delegate.expectPhoto()
    let start = ContinuousClock.now
    controller.takePicture()
    let delivery = try photo.wait("a photo")
    delegate.flush()  // the photo stays in flight until the delegate has returned
    return (start.duration(to: delivery.arrival), delivery)
  }

  /// Switches between photo and video mode (the camera keeps running).
  func setVideoMode(_ video: Bool) {
    controller.cameraCaptureMode = video ? .video : .photo
  }

  /// `startVideoCapture()`; returns the moment of the call (the start latency is known once the movie is
  /// delivered, from `HVTMediaMetadata.encodingStartedAt`).
  func startRecording() throws -> Instant {
    let start = ContinuousClock.now
    guard controller.startVideoCapture() else {
      throw BenchError.failed("startVideoCapture() returned false: \(delegate.errors.joined(separator: "; "))")
    }
    return start
  }

  /// `stopVideoCapture()`; returns the time until the delegate holds the finalized movie, and the movie.
  func stopRecording() throws -> (stop: Duration, movie: BenchDelegate.Delivery) {
    let movie = delegate.expectMovie()
    let start = ContinuousClock.now
    controller.stopVideoCapture()
    let delivery = try movie.wait("the finalized movie")
    return (start.duration(to: delivery.arrival), delivery)
  }

  /// `dismissAndWait()`, waited for here: the camera's device is closed when this returns, so that the
  /// next camera (ours, camerabin or a launch line) can open it (a camera still stopping made the next
  /// one's `S_FMT` fail with "busy" under debug logging in the VM).
  func dismiss() {
    let stopped = Awaited<Void>()
    Task { [controller] in
      await controller.dismissAndWait()
      stopped.fulfill(())
    }
    do {
      try stopped.wait("the camera's stop")
    } catch {
      FileHandle.standardError.write(Data("hvtcam-bench: \(error)\n".utf8))
    }
  }
}
