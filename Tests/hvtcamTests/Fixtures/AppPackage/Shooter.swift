// An app's view of HVTCamera, as a new Swift 6 package's `main.swift` (AppPackageTests builds and runs
// it): a @MainActor delegate, the waiting calls in top-level code, a photo through the delegate, and a
// movie still recording when the camera is dismissed, which dismissAndWait() must finalize.
import Foundation
import HVTCamera

@MainActor final class Shooter: HVTCameraControllerDelegate {
  let photos = AsyncStream.makeStream(of: URL.self)
  var movie: URL?
  var failures: [String] = []

  func cameraController(
    _ camera: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    dispatchPrecondition(condition: .onQueue(.main))
    switch info[.mediaType] as? HVTMediaType {
    case .image?: (info[.imageURL] as? URL).map { _ = photos.continuation.yield($0) }
    case .movie?: movie = info[.mediaURL] as? URL
    case nil: failures.append("a capture without a media type")
    }
  }

  func cameraControllerDidCancel(_ camera: HVTCameraController) { camera.dismiss() }

  func cameraController(_ camera: HVTCameraController, didFailWithError error: any Error) {
    failures.append("\(error)")
  }
}

let shooter = Shooter()
let camera = try HVTCameraController()
camera.cameraDelegate = shooter
camera.outputDirectory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
camera.previewOutput = .none
camera.videoQuality = .type640x480
try camera.setMediaTypes([.image, .movie])
try await camera.presentAndWait()
print("ready for capture:", camera.isReadyForCapture)

camera.takePicture()
for await photo in shooter.photos.stream {
  print("photo:", photo.path)
  break
}

camera.cameraCaptureMode = .video
let events = camera.events
guard camera.startVideoCapture() else { fatalError("startVideoCapture() returned false") }
for await event in events {
  if case .recordingProgress(let elapsed, _) = event, elapsed >= 1 { break }
}
await camera.dismissAndWait()  // the movie still recording is finalized and delivered first
print("movie:", shooter.movie?.path ?? "none")
print("failures:", shooter.failures.count, shooter.failures)
