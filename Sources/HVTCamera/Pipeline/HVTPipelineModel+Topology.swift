/// How the model's chains connect: the one place the pipeline's shape is written down. The live pipeline
/// (`CaptureSession`, `RecordingBranch`, `PhotoEncoder`), the `gst-launch-1.0` text and preset checking
/// all build from these.
extension HVTPipelineModel {
  /// The tee that splits the camera's frames between the preview and recordings; the photo tap sits on
  /// its sink pad.
  static let tee = HVTElementDescription("tee", name: teeName)

  /// From the camera to the tee: the source chain, then the tee (its last element).
  public var cameraChain: [HVTElementDescription] { source + [Self.tee] }

  /// The photo pipeline as it runs: the frame of the moment, taken at the tee's sink pad, is pushed into
  /// `appsrc`, encoded by the photo encoder chain and pulled from `appsink`. A pipeline of its own, kept
  /// in PLAYING between photos, so that a photo is a frame that has already passed the tee.
  public var photoPipeline: [HVTElementDescription] { Self.stillPipeline(photoEncoder) }

  /// `appsrc ! <chain> ! appsink`: a pipeline that turns one pushed frame into one pulled result
  /// (``PhotoEncoder`` runs it) — the photo encoder, an edited photo's crop, an overlay's PNG.
  static func stillPipeline(_ chain: [HVTElementDescription]) -> [HVTElementDescription] {
    [HVTElementDescription("appsrc", name: photoSourceName, ["format": "time", "block": "false"])]
      + chain
      + [HVTElementDescription("appsink", name: photoSinkName, ["sync": "false", "enable-last-sample": "false"])]
  }

  /// A recording branch after the tee: the recording chain, then the file sink writing `location`.
  public func recordingBranch(location: String) -> [HVTElementDescription] {
    recording + [Self.movieFileSink(location: location)]
  }

  /// The file sink at the end of the recording branch. Unbuffered, so that every byte the muxer pushed
  /// is in the file: a crash loses nothing the muxer wrote, and the movie is complete as soon as the end
  /// of stream reaches the sink (before the branch is torn down). `async=false`: it joins a pipeline
  /// that is already playing.
  static func movieFileSink(location: String) -> HVTElementDescription {
    HVTElementDescription(
      "filesink", name: "file", ["location": location, "buffer-mode": "unbuffered", "async": "false"])
  }

  static let photoSourceName = "photo-source"
  static let photoSinkName = "photo-sink"
}
