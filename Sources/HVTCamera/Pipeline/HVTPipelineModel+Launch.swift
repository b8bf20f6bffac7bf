extension HVTPipelineModel {
  /// The `gst-launch-1.0` command that runs this pipeline, quoted for a POSIX shell.
  ///
  /// In `.photo` mode the photo branch writes one JPEG (`jpegenc snapshot=true`) to `output`; in `.video`
  /// mode the recording branch writes the movie to `output`. With `frames`, the source stops after that
  /// many frames (`num-buffers`) and `-e` makes the muxer finalize the file, so the command ends by itself.
  /// With `streams`, the stream branches follow, as ``HVTCameraController/startStreaming(_:)`` adds them:
  /// the streams' encoder (or the pre-roll's encoded tee) and each target's muxer and sink, and in `.video`
  /// mode the movie takes the encoded video of the streams of its encoding, as a recording made while
  /// streaming does; an RTSP server of the process's own (gst-rtsp-server) has no launch syntax and is
  /// left out. The targets' secrets (``HVTStreamTarget/secrets``) are written as `***`. A preview with the
  /// default controls shows their element as it is, `overlaycomposition name=preview-controls`: the engine
  /// answers its `draw` signal with the controls it renders (`previewControls`), and a launch line cannot
  /// hold a handler, so there it passes frames on undrawn.
  public func launchCommand(
    mode: HVTCameraController.CameraCaptureMode, output: String, frames: Int?, streams: [HVTStream] = []
  ) -> String {
    // A launch line has no probes to leave frames out: its queues keep every frame.
    guard continuousBacklog == nil else {
      return keepingEveryFrame.launchCommand(mode: mode, output: output, frames: frames, streams: streams)
    }
    // An RTSP server of the process's own cannot be written as a launch line.
    let launchable = streams.filter { if case .rtspServer = $0.target { false } else { true } }
    var chains = streamChains(launchable)
    // The encoder of the streams of the movies' encoding (the first chain, when there is one) comes
    // before a movie that takes its video: its tee must be named first.
    let shares = preRoll == nil && mode == .video && launchable.contains { $0.encoding.isMovie }
    let encoder = shares ? chains.removeFirst().words : nil
    let words = launchWords(mode: mode, output: output, frames: frames, streamEncoder: encoder)
    return (["gst-launch-1.0", "-e"] + words + chains.flatMap(\.words))
      .map(LaunchQuoting.shellWord).joined(separator: " ")
  }

  /// The pipeline of ``launchCommand(mode:output:frames:streams:)`` as `gst_parse_launch` takes it: the same
  /// description, without the command, its options and the shell's quoting (for `Pipeline(launch:)`).
  public func launchDescription(mode: HVTCameraController.CameraCaptureMode, output: String, frames: Int?) -> String {
    keepingEveryFrame.launchWords(mode: mode, output: output, frames: frames).joined(separator: " ")
  }

  /// This model with the encoders that run all the time keeping every frame (no ``continuousBacklog``),
  /// as a launch line runs them.
  private var keepingEveryFrame: HVTPipelineModel {
    var model = self
    model.continuousBacklog = nil
    return model
  }

  /// The description's words, each quoted for `gst-launch-1.0` syntax.
  /// With `streamEncoder` (the streams' encoder's words), the movie takes the streams' encoded video.
  private func launchWords(
    mode: HVTCameraController.CameraCaptureMode, output: String, frames: Int?, streamEncoder: [String]? = nil
  ) -> [String] {
    var words: [String] = []
    var camera = cameraChain
    if let frames {
      camera[0] = camera[0].setting("num-buffers", to: String(frames))
    }
    words += Self.launchWords(camera) + ["\(Self.teeName).", "!"] + Self.launchWords(preview)
    switch mode {
    case .photo:
      // gst-launch-1.0 cannot push a frame that already passed the tee, so the photo pipeline's
      // appsrc and appsink become a queue after the tee and a file sink; `snapshot` makes it one JPEG.
      let encoder = photoEncoder.map { $0.name == Self.photoEncoderName ? $0.setting("snapshot", to: "true") : $0 }
      let queue = HVTElementDescription("queue", name: "photo-queue")
      let sink = HVTElementDescription("filesink", name: "file", ["location": output])
      words += ["\(Self.teeName).", "!"] + Self.launchWords([queue] + encoder + [sink])
    case .video:
      let recording = recordingBranch(location: output, onStreams: streamEncoder != nil)
      words += preRollWords() + (streamEncoder ?? []) + ["\(recording.tee).", "!"] + Self.launchWords(recording.chain)
      if let sound = launchedSound(frames: frames) { words += sound }
    }
    return words
  }

  /// The movie's sound as a chain of its own that ends in the muxer (`… ! muxer.`), or `nil` for a silent
  /// movie. With `frames`, the line must end by itself: the simulated microphone then stops after as
  /// many 10 ms buffers as the frames last (`num-buffers`); another microphone cannot be told when to
  /// stop, so such a line is silent.
  private func launchedSound(frames: Int?) -> [String]? {
    guard var audio else { return nil }
    if let frames {
      guard audio.source[0].factory == Self.simulatedMicrophone.factory else { return nil }
      let seconds = Double(frames) / configuration.frameRate.framesPerSecond
      audio.source[0] = audio.source[0].setting("num-buffers", to: String(Int((seconds * 100).rounded(.up))))
    }
    return Self.launchWords(audio.source + audio.encoding) + ["!", "\(Self.muxerName)."]
  }

  /// The pipelines as the engine runs them, one per line in `gst-launch-1.0` syntax: the camera pipeline
  /// up to its tee and the preview, the photo pipeline (`appsrc ! … ! appsink`, into which the frame of
  /// the moment, taken at the tee's sink pad, is pushed), and the recording branch the engine adds to the
  /// tee while recording, writing `movie`, with its sound (the microphone's bin, which joins the camera
  /// pipeline while recording, into the muxer); with a pre-roll, the encoding that runs all the time up to
  /// the encoded tee, which the recording branch starts from (with `streams`, the streams' tee). Shows what runs; unlike
  /// ``launchCommand(mode:output:frames:streams:)`` it cannot be pasted as one command. With `streams`, the
  /// streams' encoder (none with a pre-roll) and each target's branch follow, an RTSP server's ending in
  /// the `appsink` its media is fed from; their secrets written as `***`. The default controls'
  /// `overlaycomposition` is there as the engine runs it; what it draws comes from the engine's `draw`
  /// handler, not from the line.
  ///
  /// The encoders run under `slowEncoderPolicy` (``HVTCameraController/slowEncoderPolicy``): leaving
  /// frames out, the limits of the queues before them (a recording's with an encoder of its own, the
  /// pre-roll's, the streams' encoders') are set past the backlog's bound, and a last line,
  /// `slow encoder:`, says how frames are left out and where (the probes that do it have no launch syntax).
  public func engineDescription(movie: String, streams: [HVTStream], slowEncoderPolicy: HVTSlowEncoderPolicy)
    -> String
  {
    var model = self
    model.continuousBacklog = slowEncoderPolicy.backlog
    return model.describedEngine(movie: movie, streams: streams)
  }

  /// ``engineDescription(movie:streams:slowEncoderPolicy:)`` with every encoder's queue bounded by
  /// ``continuousBacklog`` (`nil`: every frame kept), as a recording's is by the same policy.
  private func describedEngine(movie: String, streams: [HVTStream]) -> String {
    let words = { (chain: [HVTElementDescription]) in Self.launchWords(chain, namingCapsFilters: true) }
    let camera = words(cameraChain) + ["\(Self.teeName).", "!"] + words(preview)
    var branch = recordingBranch(location: movie, onStreams: streams.contains { $0.encoding.isMovie })
    // The queues before the encoders: a recording's with an encoder of its own, the pre-roll's, the
    // streams' encoders'.
    var bounded: [String] = []
    if let continuousBacklog {
      if branch.tee == Self.teeName {
        branch.chain = Self.encoderQueue(bounding: continuousBacklog, branch.chain)
        bounded += branch.chain.first?.name.map { [$0] } ?? []
      }
      if preRoll != nil { bounded += continuousEncoding.first?.name.map { [$0] } ?? [] }
      bounded += streamEncodings(streams).compactMap { streamEncoding(for: $0).chain.first?.name }
    }
    let recording = ["\(branch.tee).", "!"] + words(branch.chain)
    let sound = audio.map { [("sound", words($0.source + $0.encoding) + ["!", "\(Self.muxerName)."])] } ?? []
    let preRoll = self.preRoll.map { _ in [("pre-roll", preRollWords(namingCapsFilters: true))] } ?? []
    let streams = streamChains(streams, namingCapsFilters: true).map { ($0.title, $0.words) }
    let lines =
      ([("camera", camera), ("photo", words(photoPipeline))] + preRoll + [("recording", recording)] + sound
      + streams)
      .map { "\($0.0): " + $0.1.map(LaunchQuoting.shellWord).joined(separator: " ") }
    let policy = continuousBacklog.flatMap { bounded.isEmpty ? nil : "slow encoder: " + $0.summary(queues: bounded) }
    return (lines + (policy.map { [$0] } ?? [])).joined(separator: "\n")
  }

  /// ``engineDescription(movie:streams:slowEncoderPolicy:)`` of a recording under the default policy,
  /// ``HVTSlowEncoderPolicy/leaveFramesOut``.
  public func engineDescription(movie: String, streams: [HVTStream] = []) -> String {
    engineDescription(movie: movie, streams: streams, slowEncoderPolicy: .leaveFramesOut)
  }

  /// The words of a chain: each element as `factory name=… property=…` (a caps filter as its bare caps),
  /// joined by `!`.
  /// With `namingCapsFilters`, caps filters are written as `capsfilter name=… caps=…`, as the engine
  /// names them.
  static func launchWords(_ chain: [HVTElementDescription], namingCapsFilters: Bool = false) -> [String] {
    var words: [String] = []
    for (index, element) in chain.enumerated() {
      if index > 0 { words.append("!") }
      if !namingCapsFilters, element.factory == "capsfilter", let caps = element.value(of: "caps"),
        element.properties.count == 1
      {
        words.append(caps)
        continue
      }
      words.append(element.factory)
      if let name = element.name { words.append("name=\(LaunchQuoting.launchValue(name))") }
      words += element.properties.map { "\($0.name)=\(LaunchQuoting.launchValue($0.value))" }
    }
    return words
  }
}
