import Foundation

extension HVTCameraController {
  /// Whether a source type can be used: `.camera` when a camera is found for `source` (a V4L2 device, or
  /// the simulated camera when enabled); the photo library and the saved-photos album when they hold a
  /// photo or movie GStreamer reads (``HVTSavedPhotosAlbum/hasItems(_:)``): there is something to browse.
  public static func isSourceTypeAvailable(_ type: SourceType, source: HVTCameraSource = .automatic) -> Bool {
    switch type {
    case .camera: cameras(for: source).contains { $0.failure == nil }
    case .photoLibrary, .savedPhotosAlbum: HVTSavedPhotosAlbum.hasItems(type)
    }
  }

  /// The media types a source type offers, or `nil` when it is unavailable. A camera offers `.image`, and
  /// `.movie` when a movie can be encoded here: the default preset's movie encoder and muxer (or one of
  /// their candidates) are installed; without them it is a stills-only camera, `[.image]`. The photo
  /// library and album offer `[.image, .movie]`.
  public static func availableMediaTypes(for type: SourceType, source: HVTCameraSource = .automatic)
    -> [HVTMediaType]?
  {
    guard isSourceTypeAvailable(type, source: source) else { return nil }
    guard type == .camera else { return [.image, .movie] }
    return canEncodeMovies ? [.image, .movie] : [.image]
  }

  /// Whether the default preset's movie encoder and muxer have an installed candidate.
  static var canEncodeMovies: Bool {
    guard let preset = try? HVTPreset.default else { return false }
    return preset.movieEncoder.installed != nil && preset.muxer.installed != nil
  }

  /// Why `source` offers no camera: the error of the camera that failed to open, else
  /// ``HVTCameraError/noCameraAvailable(reason:)``.
  static func unavailability(of source: HVTCameraSource) -> HVTCameraError {
    let cameras: [HVTCameraDeviceInfo]
    do {
      cameras = try CameraDiscovery.devices(for: source, environment: ProcessInfo.processInfo.environment)
    } catch {
      return error
    }
    return cameras.lazy.compactMap(\.failure).first
      ?? .noCameraAvailable(reason: "no V4L2 or PipeWire camera was found and the simulated camera is not enabled")
  }

  /// Whether a camera position has a device for `source`.
  public static func isCameraDeviceAvailable(_ device: CameraDevice, source: HVTCameraSource = .automatic) -> Bool {
    cameras(for: source).contains { $0.position == device && $0.failure == nil }
  }

  /// Whether the camera at a position has a flash (the simulated rear camera has one).
  public static func isFlashAvailable(for device: CameraDevice, source: HVTCameraSource = .automatic) -> Bool {
    cameras(for: source).contains { $0.position == device && $0.hasFlash }
  }

  /// The cameras of `source`: `.rear` first, then `.front` when there is one. None when the Camera
  /// portal (in a Flatpak sandbox, or with `HVT_CAMERA_PORTAL=1`) refuses; `present()` throws why.
  public static func cameras(for source: HVTCameraSource = .automatic) -> [HVTCameraDeviceInfo] {
    (try? CameraDiscovery.devices(for: source, environment: ProcessInfo.processInfo.environment)) ?? []
  }
}
