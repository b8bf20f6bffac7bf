import Foundation

/// A finished capture, as the `async` calls return it: the same facts the delegate receives in its info
/// dictionary, typed.
public struct HVTCapture: Sendable {
  /// Photo or movie.
  public var mediaType: HVTMediaType
  /// The file: a JPEG for photos, the movie for movies.
  public var url: URL
  /// Photos: the JPEG and its size.
  public var image: HVTImage?
  /// When and how it was made, and what came out.
  public var metadata: HVTMediaMetadata
  /// Movies cut short by a failure (``HVTMediaMetadata/stopReason`` is `.error`): the error. The movie
  /// holds every frame captured before it.
  public var interruption: HVTCameraError?
  /// Photos taken with ``HVTCameraController/allowsEditing``: the square crop and where it is.
  public var edit: (image: HVTImage, cropRect: HVTRect)?
  /// A small JPEG of the photo, or of the movie's first frame, at most
  /// ``HVTCameraController/thumbnailMaximumDimension`` pixels on its longer side; `nil` when it could not
  /// be made (the capture itself is complete all the same).
  public var thumbnail: HVTImage? = nil

  /// The capture as the delegate's info dictionary (`.mediaType`, `.mediaMetadata`, `.thumbnail`, and
  /// `.originalImage` with `.imageURL` for photos, and `.editedImage` with `.cropRect` when edited, or
  /// `.mediaURL` for movies).
  public var info: [HVTInfoKey: any Sendable] {
    var info: [HVTInfoKey: any Sendable] = [.mediaType: mediaType, .mediaMetadata: metadata]
    if let thumbnail { info[.thumbnail] = thumbnail }
    if let image {
      info[.originalImage] = image
      info[.imageURL] = url
      if let edit {
        info[.editedImage] = edit.image
        info[.cropRect] = edit.cropRect
      }
    } else {
      info[.mediaURL] = url
    }
    return info
  }

  /// Each stored property, as a memberwise initializer takes them.
  package init(
    mediaType: HVTMediaType, url: URL, image: HVTImage? = nil, metadata: HVTMediaMetadata,
    interruption: HVTCameraError? = nil, edit: (image: HVTImage, cropRect: HVTRect)? = nil, thumbnail: HVTImage? = nil
  ) {
    self.mediaType = mediaType
    self.url = url
    self.image = image
    self.metadata = metadata
    self.interruption = interruption
    self.edit = edit
    self.thumbnail = thumbnail
  }
}
