import Dispatch
import Foundation

extension HVTCameraController {
  /// Where media comes from, as `UIImagePickerController.sourceType`: `.camera` (the default), which
  /// ``present()`` opens, or a library — `.photoLibrary`, `.savedPhotosAlbum` — which ``library`` browses
  /// and ``pick(_:)`` picks from; `present()` throws ``HVTCameraError/sourceTypeNotCamera(_:)`` for a
  /// library (the window shows cameras only). Check ``isSourceTypeAvailable(_:source:)`` first. A change
  /// takes effect at the next `present()`.
  public var sourceType: SourceType {
    get { read(\.settings.sourceType) }
    set { change(\.sourceType, to: newValue, restarts: false) }
  }

  /// The library of ``sourceType``: its photos and movies, newest first, in ``HVTMediaLibrary/items``
  /// (empty for `.camera`).
  public var library: HVTMediaLibrary { HVTMediaLibrary(sourceType) }

  /// Picks an item of a library (``library``'s ``HVTMediaLibrary/items``): its info dictionary
  /// (``HVTMediaLibrary/info(for:thumbnailMaximumDimension:)``, with a thumbnail of
  /// ``thumbnailMaximumDimension``) goes to the delegate's
  /// `cameraController(_:didFinishCapturingMediaWithInfo:)`, as a capture's does, or the error to
  /// `cameraController(_:didFailWithError:)`. Returns at once: the file is read and its first frame
  /// decoded off the caller's thread and the controller's queue. Needs no camera.
  public func pick(_ item: HVTAlbumItem) {
    let dimension = read(\.settings.thumbnailMaximumDimension)
    DispatchQueue.global(qos: .userInitiated).async {
      do {
        let info = try HVTMediaLibrary.info(for: item, thumbnailMaximumDimension: dimension)
        self.queue.async {
          self.hub.toDelegate { [self] delegate in
            delegate.cameraController(self, didFinishCapturingMediaWithInfo: info)
          }
        }
      } catch {
        self.queue.async { self.fail(error) }
      }
    }
  }
}
