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
  /// type is not in ``mediaTypes`` fails with ``HVTCameraError/mediaTypeNotEnabled(_:)``.
  ///
  /// With ``allowsEditing``, the item is edited as a capture is. A photo: `.editedImage` is the square
  /// of ``editingCropRect`` (default the largest centred one) at most ``editedImageMaximumDimension``
  /// pixels, `.cropRect` where it is in the photo. A movie longer than ``videoMaximumDuration`` (by more
  /// than a frame): cut to its first `videoMaximumDuration` seconds, as the trim screen of the library
  /// window starts it (where the user moves the trim, and the movie is cut to what they chose). The cut movie is a new
  /// file in the temporary folder (`FileManager.default.temporaryDirectory`, `NAME.trimmed-XXXXXXXX.mp4`),
  /// which `.mediaURL` names and the app moves or removes; the library's file is never changed. H.264
  /// movies are cut to the frame (``HVTMovieTrim/Precision/frame``), others at the key frame at or before
  /// the trim's start.
  public func pick(_ item: HVTAlbumItem) {
    pick(item, trim: nil)
  }

  /// ``pick(_:)`` of `item`, a movie cut at `trim` (a library window's ``HVTLibraryWindow/Pick/trim``)
  /// with ``allowsEditing``, or to ``videoMaximumDuration`` without one.
  func pick(_ item: HVTAlbumItem, trim: ClosedRange<Double>?) {
    let settings = read(\.settings)
    guard settings.mediaTypes.contains(item.mediaType) else {
      queue.async { self.fail(HVTCameraError.mediaTypeNotEnabled(item.mediaType)) }
      return
    }
    let dimension = settings.thumbnailMaximumDimension
    DispatchQueue.global(qos: .userInitiated).async {
      do {
        var info: [InfoKey: any Sendable]
        if settings.allowsEditing, item.mediaType == .movie,
          let cut = trim ?? Self.defaultCut(of: item, limit: settings.videoMaximumDuration)
        {
          // The cut movie is what is delivered, with its own thumbnail (kept out of the shared cache).
          var edited = item
          edited.url = try Self.cutPickedMovie(item, at: cut, limit: settings.videoMaximumDuration)
          info = try HVTMediaLibrary.info(for: edited, thumbnailMaximumDimension: dimension, cache: nil)
        } else {
          info = try HVTMediaLibrary.info(for: item, thumbnailMaximumDimension: dimension)
        }
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

  /// The cut of a picked movie the user did not trim: its first `limit` seconds, or `nil` when it is not
  /// longer by more than a frame (0.05 s, a frame at 20 frames a second), the margin a recording stopped
  /// by ``videoMaximumDuration`` may have.
  private static func defaultCut(of item: HVTAlbumItem, limit: Double) -> ClosedRange<Double>? {
    guard let duration = item.duration, duration > limit + 0.05 else { return nil }
    return 0...limit
  }

  /// Cuts a picked movie at `cut`, at most `limit` seconds long, into a new file in the temporary
  /// folder, and returns it: to the frame for H.264, else (when that fails) from the key frame at or
  /// before the cut's start. Blocks while the movie is read and written.
  private static func cutPickedMovie(_ item: HVTAlbumItem, at cut: ClosedRange<Double>, limit: Double) throws -> URL {
    let name = item.url.deletingPathExtension().lastPathComponent
    let suffix = UUID().uuidString.prefix(8).lowercased()
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(name).trimmed-\(suffix).\(item.url.pathExtension.isEmpty ? "mp4" : item.url.pathExtension)")
    do {
      return try HVTMovieTrim.trimBlocking(
        item.url, start: cut.lowerBound, end: cut.upperBound, precision: .frame, maximumDuration: limit,
        to: destination
      ).url
    } catch HVTCameraError.invalidTrim {
      debugLog.log(.info, "library pick: \(item.url.lastPathComponent) is not cut to the frame; at a key frame")
      return try HVTMovieTrim.trimBlocking(
        item.url, start: cut.lowerBound, end: cut.upperBound, precision: .keyFrame, maximumDuration: limit,
        to: destination
      ).url
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
    let relay = ControllerRelay(self)
    let window = HVTLibraryWindow(
      library: HVTMediaLibrary(settings.sourceType, mediaTypes: settings.mediaTypes),
      title: title ?? "HVTCamera library",
      movieTrimLimit: settings.allowsEditing ? settings.videoMaximumDuration : nil,
      onPick: { [weak self] picked in
        self?.libraryWindowClosed()
        self?.pick(picked.item, trim: picked.trim)
      },
      onCancel: { [weak self] in
        self?.libraryWindowClosed()
        self?.cancel()
      },
      onSelect: { index, item in relay.run { $0.publish(.librarySelectionChanged(index: index, item: item)) } })
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
