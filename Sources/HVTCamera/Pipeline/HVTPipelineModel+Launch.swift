extension HVTPipelineModel {
  /// The `gst-launch-1.0` command that runs this pipeline, quoted for a POSIX shell.
  ///
  /// In `.photo` mode the photo branch writes one JPEG (`jpegenc snapshot=true`) to `output`; in `.video`
  /// mode the recording branch writes the movie to `output`. With `frames`, the source stops after that
  /// many frames (`num-buffers`) and `-e` makes the muxer finalize the file, so the command ends by itself.
  public func launchCommand(mode: HVTCameraController.CameraCaptureMode, output: String, frames: Int?) -> String {
    var words = ["gst-launch-1.0", "-e"]
    var sourceChain = source
    if let frames {
      sourceChain[0] = sourceChain[0].setting("num-buffers", to: String(frames))
    }
    words += Self.launchWords(sourceChain)
    words += ["!", "tee", "name=\(Self.teeName)", "\(Self.teeName)."]
    words += ["!"] + Self.launchWords(preview)
    switch mode {
    case .photo:
      let encoder = photoEncoder.map { $0.name == Self.photoEncoderName ? $0.setting("snapshot", to: "true") : $0 }
      let queue = HVTElementDescription("queue", name: "photo-queue")
      let sink = HVTElementDescription("filesink", name: "file", ["location": output])
      words += ["\(Self.teeName).", "!"] + Self.launchWords([queue] + encoder + [sink])
    case .video:
      words += ["\(Self.teeName).", "!"] + Self.launchWords(recording + [Self.movieFileSink(location: output)])
    }
    return words.map(LaunchQuoting.shellWord).joined(separator: " ")
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
