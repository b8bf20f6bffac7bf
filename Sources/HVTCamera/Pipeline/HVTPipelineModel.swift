/// The camera pipeline as a value: everything the live pipeline, the `gst-launch-1.0` line, the graph
/// and preset checking are rendered from. Its topology is declared once, in `HVTPipelineModel+Topology`:
///
/// ```
/// source… ! tee name=t                                   cameraChain
///   t. ! preview…                                        preview (always)
///   t's sink pad → the frame of the moment →
///     appsrc ! photo encoder… ! appsink                  photoPipeline (a pipeline of its own)
///   t. ! recording… ! filesink                           recordingBranch(location:) (while recording)
/// ```
///
/// With a pre-roll the encoding runs all the time: `t. ! encoding… ! tee name=encoded`, and a recording
/// is `encoded. ! queue ! muxer ! filesink` (``PreRoll``).
public struct HVTPipelineModel: Sendable, Hashable {
  /// From the camera up to the tee: source element, caps, decoder for MJPEG, simulated light.
  public var source: [HVTElementDescription]
  /// The preview branch after the tee, ending in its sink.
  public var preview: [HVTElementDescription]
  /// The default controls the preview's `overlaycomposition` element draws (``CameraControls/element``),
  /// or `nil` without them. Not a property of the element: the engine answers the element's `draw`
  /// signal with them (``ControlsOverlay``), which a `gst-launch-1.0` line cannot do, so the launch
  /// renderings show the element, which there passes frames on undrawn.
  var previewControls: ControlsPicture? = nil
  /// The photo encoder chain (conversion and `jpegenc`), without source or sink.
  public var photoEncoder: [HVTElementDescription]
  /// The recording branch after the tee, from its queue to the muxer, without the file sink (after the
  /// encoded tee, a queue and the muxer, with a ``preRoll``).
  public var recording: [HVTElementDescription]
  /// The encoding that runs all the time to keep a pre-roll, or `nil` (the default) without one.
  public var preRoll: PreRoll? = nil
  /// How much may wait for an encoder that runs all the time — the pre-roll's, the streams' — before
  /// frames are left out (``HVTSlowEncoderPolicy/leaveFramesOut``, ``ContinuousEncoderBacklog``); `nil`
  /// (the default): every frame waits, up to the queue's 3 s, and then the camera's `tee` waits for it.
  var continuousBacklog: RecordingBacklog.Limit? = nil
  /// The movie's sound, or `nil` for silent movies (see ``audioUnavailableReason``).
  public var audio: Audio? = nil
  /// Why movies are silent although sound was asked for (``HVTCameraController/capturesAudio``): no
  /// microphone, or no audio encoder the muxer takes. `nil` when they have sound or none was asked for.
  public var audioUnavailableReason: String? = nil
  /// What the camera runs with.
  public var configuration: HVTCaptureConfiguration
  /// The movie container's file extension, e.g. `"mp4"`.
  public var movieExtension: String
  /// The photo file extension, e.g. `"jpg"`.
  public var photoExtension: String
  /// The V4L2 node whose flash LED the engine fires (a camera with `V4L2_CID_FLASH_LED_MODE`), if any.
  public var flashNode: String? = nil
  /// The Camera portal's PipeWire connection the source reaches its camera through (`pipewiresrc fd=`),
  /// kept open for as long as the model (and the session running it) lives.
  var pipeWireRemote: PipeWireRemote? = nil

  /// The movie encoder as it runs, with its properties: in the recording branch, or in the pre-roll's
  /// encoding when there is one.
  public var movieEncoderElement: HVTElementDescription? {
    (recording + (preRoll?.encoding ?? [])).first { $0.name == HVTPipelineModel.movieEncoderName }
  }
  /// The factory of the movie encoder, e.g. `"x264enc"`.
  public var movieEncoder: String { movieEncoderElement?.factory ?? "" }
  /// The factory of the muxer in the recording branch, e.g. `"mp4mux"`.
  public var movieMuxer: String { recording.first { $0.name == HVTPipelineModel.muxerName }?.factory ?? "" }
  /// The photo encoder as it runs, with its properties.
  public var photoEncoderElement: HVTElementDescription? {
    photoEncoder.first { $0.name == HVTPipelineModel.photoEncoderName }
  }
  /// The factory of the photo encoder, e.g. `"jpegenc"`.
  public var photoEncoderFactory: String { photoEncoderElement?.factory ?? "" }

  /// Element names the engine looks elements up by.
  static let sourceName = "camera"
  static let lightName = "light"
  static let teeName = "t"
  static let movieEncoderName = "movie-encoder"
  static let movieParserName = "movie-parser"
  static let muxerName = "muxer"
  static let photoEncoderName = "photo-encoder"
  /// The bin of a recording's branch, when no other is in the pipeline.
  static let recordingBranchName = "recording"
}
