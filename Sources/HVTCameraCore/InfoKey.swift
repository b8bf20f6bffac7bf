import Foundation

/// Keys of the dictionary a capture is delivered in, as in `UIImagePickerController.InfoKey`.
/// Read values with a cast: `info[.mediaURL] as? URL`.
public struct HVTInfoKey: RawRepresentable, Hashable, Sendable {
  /// The key's name, as in `UIImagePickerController.InfoKey`.
  public let rawValue: String
  /// A key with this name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The ``HVTMediaType`` of the capture.
  public static let mediaType = HVTInfoKey(rawValue: "HVTCameraControllerMediaType")
  /// The photo as an ``HVTImage`` (JPEG bytes, width, height). Photos only.
  public static let originalImage = HVTInfoKey(rawValue: "HVTCameraControllerOriginalImage")
  /// The `URL` of the JPEG file. Photos only.
  public static let imageURL = HVTInfoKey(rawValue: "HVTCameraControllerImageURL")
  /// The `URL` of the movie file. Movies only.
  public static let mediaURL = HVTInfoKey(rawValue: "HVTCameraControllerMediaURL")
  /// A small JPEG of the photo or of the movie's first frame, as an ``HVTImage``, at most
  /// ``HVTCameraController/thumbnailMaximumDimension`` pixels on its longer side (camerabin's preview
  /// image). Made by GStreamer (`videoscale ! jpegenc`) before the capture is delivered.
  public static let thumbnail = HVTInfoKey(rawValue: "HVTCameraControllerThumbnail")
  /// The ``HVTMediaMetadata`` of the capture: when, with which device and settings, what came out.
  public static let mediaMetadata = HVTInfoKey(rawValue: "HVTCameraControllerMediaMetadata")
  /// With ``HVTCameraController/allowsEditing``: the square crop of the photo the user chose (or
  /// ``HVTCameraController/editingCropRect``), as an ``HVTImage``, at most
  /// ``HVTCameraController/editedImageMaximumDimension`` pixels on a side. Photos only.
  public static let editedImage = HVTInfoKey(rawValue: "HVTCameraControllerEditedImage")
  /// With ``HVTCameraController/allowsEditing``: the ``HVTRect`` of the original photo that
  /// ``editedImage`` shows. Photos only.
  public static let cropRect = HVTInfoKey(rawValue: "HVTCameraControllerCropRect")
}

/// A captured still image: the encoded JPEG and its size.
public struct HVTImage: Sendable, Hashable {
  /// The JPEG file's bytes.
  public var jpegData: Data
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates an image value.
  public init(jpegData: Data, width: Int, height: Int) {
    self.jpegData = jpegData
    self.width = width
    self.height = height
  }
}
