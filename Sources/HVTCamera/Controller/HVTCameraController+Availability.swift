import Foundation

extension HVTCameraController {
  /// Whether a source type can be used: `.camera` when a camera is found for `source` (a V4L2 device, or
  /// the simulated camera when enabled); the photo library and saved-photos album when the user's
  /// pictures folder can be written (see ``HVTSavedPhotosAlbum``).
  public static func isSourceTypeAvailable(_ type: SourceType, source: HVTCameraSource = .automatic) -> Bool {
    switch type {
    case .camera: cameras(for: source).contains { $0.failure == nil }
    case .photoLibrary, .savedPhotosAlbum: HVTSavedPhotosAlbum.isAvailable
    }
  }

  /// The media types a source type offers, or `nil` when it is unavailable. Cameras offer
  /// `[.image, .movie]`; so do the photo library and album.
  public static func availableMediaTypes(for type: SourceType, source: HVTCameraSource = .automatic)
    -> [HVTMediaType]?
  {
    isSourceTypeAvailable(type, source: source) ? [.image, .movie] : nil
  }

  /// Whether a camera position has a device for `source`.
  public static func isCameraDeviceAvailable(_ device: CameraDevice, source: HVTCameraSource = .automatic) -> Bool {
    cameras(for: source).contains { $0.position == device && $0.failure == nil }
  }

  /// Whether the camera at a position has a flash (the simulated rear camera has one).
  public static func isFlashAvailable(for device: CameraDevice, source: HVTCameraSource = .automatic) -> Bool {
    cameras(for: source).contains { $0.position == device && $0.hasFlash }
  }

  /// The cameras of `source`: `.rear` first, then `.front` when there is one.
  public static func cameras(for source: HVTCameraSource = .automatic) -> [HVTCameraDeviceInfo] {
    CameraDiscovery.devices(for: source, environment: ProcessInfo.processInfo.environment)
  }
}
