import Dispatch
import Foundation

extension HVTCameraController {
  /// Where media comes from, as `UIImagePickerController.sourceType`: `.camera` (the default), which
  /// ``present()`` opens, or a library — `.photoLibrary`, `.savedPhotosAlbum` — which ``library`` browses
  /// and ``pick(_:)`` picks from. For a library with a window ``previewOutput`` (`.window`), `present()`
  /// opens the library window (``HVTLibraryWindow``): the user's pick reaches the delegate as ``pick(_:)``
  /// delivers it, a cancel as ``cancel()`` does, and the window closes; with any other preview output the
  /// error ``HVTCameraError/sourceTypeNotCamera(_:)`` says to use ``library`` and `pick(_:)` instead.
  /// Check ``isSourceTypeAvailable(_:source:)`` first. A change takes effect at the next `present()`.
  public var sourceType: SourceType {
    get { read(\.settings.sourceType) }
    set { change(\.sourceType, to: newValue) }
  }

  /// The library of ``sourceType``: its photos and movies of ``mediaTypes`` (only photos for `[.image]`),
  /// newest first, in ``HVTMediaLibrary/items`` (empty for `.camera`). The library window shows the same.
  public var library: HVTMediaLibrary {
    let settings = read(\.settings)
    return HVTMediaLibrary(settings.sourceType, mediaTypes: settings.mediaTypes)
  }

  /// Picks an item of a library (``library``'s ``HVTMediaLibrary/items``): its info dictionary
  /// (``HVTMediaLibrary/info(for:thumbnailMaximumDimension:)``, with a thumbnail of
  /// ``thumbnailMaximumDimension``) goes to the delegate's
  /// `cameraController(_:didFinishCapturingMediaWithInfo:)`, as a capture's does, or the error to
  /// `cameraController(_:didFailWithError:)`. Returns at once: the file is read and its first frame
  /// decoded off the caller's thread and the controller's queue. Needs no camera. An item whose media
  /// type is not in ``mediaTypes`` fails with ``HVTCameraError/mediaTypeNotEnabled(_:)``. With
  /// ``allowsEditing``, a photo is edited as a captured one: `.editedImage` is the square of
  /// ``editingCropRect`` (default the largest centred one) at most ``editedImageMaximumDimension`` pixels,
  /// `.cropRect` where it is in the photo.
  public func pick(_ item: HVTAlbumItem) {
    let settings = read(\.settings)
    guard settings.mediaTypes.contains(item.mediaType) else {
      queue.async { self.fail(HVTCameraError.mediaTypeNotEnabled(item.mediaType)) }
      return
    }
    let dimension = settings.thumbnailMaximumDimension
    DispatchQueue.global(qos: .userInitiated).async {
      do {
        var info = try HVTMediaLibrary.info(for: item, thumbnailMaximumDimension: dimension)
        // Edited as a capture is: a photo's square crop (the editing UI's trim of a movie is not there yet).
        if settings.allowsEditing, item.mediaType == .image, let width = item.width, let height = item.height {
          let edit = try EditedPhoto.make(
            ofPhotoAt: item.url, width: width, height: height, requested: settings.editingCropRect,
            maximumDimension: Self.editedImageMaximumDimension)
          info[.editedImage] = edit.image
          info[.cropRect] = edit.crop
        }
        let delivered = info
        self.queue.async {
          self.hub.toDelegate { [self] delegate in
            delegate.cameraController(self, didFinishCapturingMediaWithInfo: delivered)
          }
        }
      } catch {
        self.queue.async { self.fail(error) }
      }
    }
  }

  /// Whether the library window is open (``sourceType``).
  public var isShowingLibrary: Bool { read(\.showsLibrary) }

  /// `present()` for a library ``sourceType``: opens the library window and returns once it shows (or
  /// throws why it does not: ``HVTCameraError/sourceTypeNotCamera(_:)`` without a window preview,
  /// ``HVTCameraError/libraryEmpty(_:)``, ``HVTCameraError/noDisplay(reason:)``).
  func presentLibrary() async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      openLibraryWindow(read(\.settings)) { continuation.resume(with: $0) }
    }
  }

  /// Opens the library window for `settings` on the worker (reading the library and decoding the first
  /// page take a while), unless one is open; `opened` gets the outcome, on the worker.
  func openLibraryWindow(_ settings: Settings, opened: @escaping @Sendable (Result<Void, HVTCameraError>) -> Void) {
    guard case .window(let title) = settings.shownPreview(environment: ProcessInfo.processInfo.environment) else {
      return opened(.failure(.sourceTypeNotCamera(settings.sourceType)))
    }
    let window = HVTLibraryWindow(
      library: HVTMediaLibrary(settings.sourceType, mediaTypes: settings.mediaTypes),
      title: title ?? "HVTCamera library",
      onPick: { [weak self] item in
        self?.libraryWindowClosed()
        self?.pick(item)
      },
      onCancel: { [weak self] in
        self?.libraryWindowClosed()
        self?.cancel()
      },
      onSelect: { [weak self] index, item in
        guard let self else { return }
        queue.async { self.publish(.librarySelectionChanged(index: index, item: item)) }
      })
    guard send(.openLibrary) == .accepted else { return opened(.success(())) }
    resources.withLock { $0.libraryWindow = window }
    worker.async {
      do {
        try window.show()
        let count = window.items.count
        self.queue.async { self.publish(.libraryShown(items: count)) }
        opened(.success(()))
      } catch {
        self.libraryWindowClosed()
        opened(.failure(HVTCameraError(error)))
      }
    }
  }

  /// Forgets the library window, which has closed.
  private func libraryWindowClosed() {
    resources.withLock { $0.libraryWindow = nil }
    send(.libraryClosed)
  }
}
