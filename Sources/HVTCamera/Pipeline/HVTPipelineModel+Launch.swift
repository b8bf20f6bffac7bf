extension HVTPipelineModel {
  /// The `gst-launch-1.0` command that runs this pipeline, quoted for a POSIX shell.
  ///
  /// In `.photo` mode the photo branch writes one JPEG (`jpegenc snapshot=true`) to `output`; in `.video`
  /// mode the recording branch writes the movie to `output`. With `frames`, the source stops after that
  /// many frames (`num-buffers`) and `-e` makes the muxer finalize the file, so the command ends by itself.
  public func launchCommand(mode: HVTCameraController.CameraCaptureMode, output: String, frames: Int?) -> String {
    var words = ["gst-launch-1.0", "-e"]
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
      words += ["\(Self.teeName).", "!"] + Self.launchWords(recordingBranch(location: output))
    }
    return words.map(LaunchQuoting.shellWord).joined(separator: " ")
  }

  /// The photo pipeline as the engine runs it, in `gst-launch-1.0` syntax (not runnable by itself: the
  /// engine pushes each photo's frame into its `appsrc` and pulls the JPEG from its `appsink`).
  public var photoPipelineDescription: String {
    Self.launchWords(photoPipeline).joined(separator: " ")
  }

  /// The words of a chain: each element as `factory name=… property=…` (a caps filter as its bare caps),
  /// joined by `!`.
  static func launchWords(_ chain: [HVTElementDescription]) -> [String] {
    var words: [String] = []
    for (index, element) in chain.enumerated() {
      if index > 0 { words.append("!") }
      if element.factory == "capsfilter", let caps = element.value(of: "caps"), element.properties.count == 1 {
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
