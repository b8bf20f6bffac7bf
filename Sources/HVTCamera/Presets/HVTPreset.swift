import Foundation

/// A declarative description of the camera pipeline: formats, encoders, muxer, preview, extensions.
/// Read from a JSON file (see `pipelines/schema.json`); set with ``HVTCameraController/preset``.
///
/// Elements are written as on a `gst-launch-1.0` line (`x264enc speed-preset=ultrafast`). A slot may list
/// candidates in order of preference; the first whose factory is installed is used.
public struct HVTPreset: Sendable, Hashable {
  /// The preset's name (its file name without `.json`).
  public var name: String
  /// One line saying what it is for.
  public var summary: String
  /// The quality the controller takes when the preset is set.
  public var quality: HVTCameraController.QualityType
  /// Frames per second asked of the camera.
  public var frameRate: HVTFrameRate
  /// The format asked of the camera: a raw format (`I420`, `NV12`, `YUY2`…) or `MJPEG`.
  public var format: String
  /// A source element to use instead of the camera's own (`v4l2src` or the simulated `videotestsrc`).
  public var source: HVTElementDescription?
  /// Elements between the camera and the tee (so they apply to preview, photos and movies).
  public var filters: [HVTElementDescription]
  /// The preview sink (candidates).
  public var preview: HVTElementSlot
  /// The photo encoder (candidates), e.g. `jpegenc quality=90`.
  public var photoEncoder: HVTElementSlot
  /// The photo file extension, e.g. `jpg`.
  public var photoExtension: String
  /// The movie encoder (candidates), e.g. hardware H.264 encoders, then `x264enc`.
  public var movieEncoder: HVTElementSlot
  /// The parser after the encoder; when `nil`, the one matching the encoder's output (`h264parse` for
  /// H.264, `h265parse` for H.265, none for VP8/VP9).
  public var movieParser: HVTElementDescription?
  /// Caps between the conversion and the encoder; when `nil`, the I420/NV12 formats the encoder takes.
  public var movieCaps: String?
  /// The muxer (candidates), e.g. `mp4mux fragment-duration=500`.
  public var muxer: HVTElementSlot
  /// The movie file extension, e.g. `mp4`.
  public var movieExtension: String
  /// The microphone's element (`audio.source`), instead of the camera's: `autoaudiosrc` for real cameras,
  /// the simulated microphone for the simulated camera.
  public var audioSource: HVTElementDescription? = nil
  /// The audio encoder (candidates, `audio.encoder`); when `nil`, the one the muxer takes: AAC for MP4
  /// (`avenc_aac`, `voaacenc`, `fdkaacenc`), Opus or Vorbis for WebM and Matroska.
  public var audioEncoder: HVTElementSlot? = nil
  /// The streams the preset declares (`streams`): where `hvtcam stream --preset` sends the camera, and
  /// what an app may start with ``HVTCameraController/startStreaming(_:)``. None by default.
  public var streams: [HVTStream] = []
  /// The file it was read from, if any.
  public var url: URL?
}

/// An element slot: candidates in order of preference, of which the first installed one is used.
public struct HVTElementSlot: Sendable, Hashable, CustomStringConvertible {
  /// The candidates, at least one.
  public var candidates: [HVTElementDescription]

  /// A slot holding the given candidates.
  public init(_ candidates: [HVTElementDescription]) {
    self.candidates = candidates
  }

  /// The first candidate whose element factory is installed (`gst_element_factory_find`), or `nil`.
  public var installed: HVTElementDescription? {
    candidates.first { HVTElementDescription.isInstalled($0.factory) }
  }

  /// The candidates' factories, joined by ` | `.
  public var description: String { candidates.map(\.factory).joined(separator: " | ") }
}
