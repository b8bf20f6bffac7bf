import Dispatch
import Foundation
import Testing

@testable import HVTCamera

/// The README's embedding example, verbatim but for the simulated source and a signal for the test.
final class Shooter: HVTCameraControllerDelegate {
  nonisolated let saved = DispatchSemaphore(value: 0)
  func cameraController(
    _ camera: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    if let url = (info[.imageURL] ?? info[.mediaURL]) as? URL { print("saved", url.path) }
    saved.signal()
  }
  func cameraControllerDidCancel(_ camera: HVTCameraController) {
    camera.dismiss()
    cancelled.signal()
  }
  nonisolated let cancelled = DispatchSemaphore(value: 0)
}

@Suite("README")
struct ReadmeExampleTests {
  @Test("the embedding example runs", .timeLimit(.minutes(1)))
  func embeddingExample() async throws {
    let shooter = Shooter()
    let camera = try HVTCameraController(source: .simulated)
    camera.cameraDelegate = shooter
    camera.videoQuality = .type640x480
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    camera.outputDirectory = directory
    try await camera.presentAndWait()
    camera.takePicture()
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        shooter.saved.wait()
        continuation.resume()
      }
    }
    camera.cancel()  // the example's delegate dismisses on cancel
    // The cancel reaches the delegate from the controller's queue: wait for the delegate, not its queue.
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        shooter.cancelled.wait()
        continuation.resume()
      }
    }
    #expect(!camera.isPresented)
  }

  @Test("the async example runs", .timeLimit(.minutes(1)))
  func asyncExample() async throws {
    let camera = try HVTCameraController(source: .simulated)
    camera.videoQuality = .type640x480
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    camera.outputDirectory = directory
    try camera.setMediaTypes([.image, .movie])
    camera.cameraCaptureMode = .video
    try await camera.presentAndWait()
    let photo = try await camera.capturePhoto()  // the frame of this call's moment
    let movie = try await camera.recordMovie(maximumDuration: 1)  // returns the finalized movie
    print(photo.url.path, movie.url.path, movie.metadata.frameCount ?? 0)
    await camera.dismissAndWait()  // once every callback has run
    #expect(movie.metadata.frameCount == 30)
    #expect(!camera.isPresented)
  }
}
