import Foundation
import HVTCamera

/// The person's time in `hvtcam library browse`'s window: prints what the controller reports — the
/// window shown, the selection, the pick (its path on stdout) — and ends on a pick, a cancel or an error.
@MainActor final class LibraryBrowsing: HVTCameraControllerDelegate {
  private let ending = Outcome<Void>()

  init(controller: HVTCameraController) {
    controller.cameraDelegate = self
  }

  /// Returns after a pick or a cancel; throws the error that closed the window.
  nonisolated func untilFinished() async throws { try await ending.wait() }

  private nonisolated func end(_ result: Result<Void, any Error>) { ending.finish(result) }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    guard let url = (info[.imageURL] ?? info[.mediaURL]) as? URL else { return }
    Console.out(Console.escaped(url.path))
    Console.error("picked \(Console.escaped(url.path))")
    end(.success(()))
  }

  func cameraControllerDidCancel(_ controller: HVTCameraController) {
    Console.error("cancelled")
    end(.success(()))
  }

  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) {
    end(.failure(error))
  }

  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) {
    switch event {
    case .libraryShown(let items): Console.error("showing \(items) items")
    case .librarySelectionChanged(let index, let item):
      Console.error("selected \(index + 1): \(Console.escaped(item.url.path))")
    default: break
    }
  }
}
