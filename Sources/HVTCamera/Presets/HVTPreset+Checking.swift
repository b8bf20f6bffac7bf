import HVTGStreamer

extension HVTPreset {
  /// Checks the preset against this machine's GStreamer: every element exists (or, in a candidate list,
  /// is plausibly just not installed here), accepts its properties and values, caps parse, and the
  /// pipeline it describes links — by building it, in NULL, and releasing it again — with each installed
  /// movie encoder candidate, since another machine may use any of them.
  func check(file: String, positions: [String: TextPosition]) throws(HVTPresetError) {
    var diagnostics = PresetDiagnostics(file: file)
    let factories = GStreamer.elementFactoryNames()
    func report(_ message: String, _ keyPath: String) {
      diagnostics.report(message, at: keyPath, Self.position(of: keyPath, in: positions))
    }
    /// Checks one element; returns whether it can be made with its properties.
    func checkElement(_ element: HVTElementDescription, _ keyPath: String, candidate: Bool) -> Bool {
      guard HVTElementDescription.isInstalled(element.factory) else {
        if let missing = Self.missingElementMessage(element.factory, among: factories, candidate: candidate) {
          report(missing, keyPath)
        }
        return false
      }
      do {
        _ = try ElementChain.make(element)
        return true
      } catch {
        report(Self.message(for: error, element: element), keyPath)
        return false
      }
    }
    func checkSlot(_ slot: HVTElementSlot, _ keyPath: String) {
      let single = slot.candidates.count == 1
      let usable = slot.candidates.enumerated().map { index, element in
        checkElement(element, single ? keyPath : "\(keyPath)[\(index)]", candidate: !single)
      }
      if !single, !usable.contains(true), slot.installed == nil {
        let hint = PluginPackages.installHint(for: slot.candidates.map(\.factory)).map { "; \($0)" } ?? ""
        report("none of the candidates is installed here (\(slot.description)\(hint))", keyPath)
      }
    }
    if let source { _ = checkElement(source, "source", candidate: false) }
    for (index, filter) in filters.enumerated() { _ = checkElement(filter, "filters[\(index)]", candidate: false) }
    checkSlot(preview, "preview")
    checkSlot(photoEncoder, "photo.encoder")
    checkSlot(movieEncoder, "movie.encoder")
    if let movieParser { _ = checkElement(movieParser, "movie.parser", candidate: false) }
    checkSlot(muxer, "movie.muxer")
    if let audioSource { _ = checkElement(audioSource, "audio.source", candidate: false) }
    if let audioEncoder { checkSlot(audioEncoder, "audio.encoder") }
    for (index, stream) in streams.enumerated() {
      for (position, element) in stream.tuning.enumerated() {
        _ = checkElement(element, "streams[\(index)].tuning[\(position)]", candidate: false)
      }
    }
    if let movieCaps, (try? Caps(movieCaps)) == nil {
      report("invalid caps \"\(movieCaps)\"", "movie.caps")
    }
    try diagnostics.check()
    do {
      try checkLinks()
    } catch let failure as LinkFailure {
      report(failure.message, failure.keyPath)
    } catch {
      report(String(describing: HVTCameraError(error)), "")
    }
    try diagnostics.check()
  }

  /// What to say of an element that is not installed, or `nil` when nothing needs saying. An element this
  /// library knows by name (``PluginPackages``) is never taken for a typo: it is not installed, and its
  /// package is named — unless it is a candidate, which another machine may have. Another name is a typo
  /// when a known or installed name is close (within one edit for a candidate).
  static func missingElementMessage(_ factory: String, among installed: [String], candidate: Bool) -> String? {
    if let package = PluginPackages.debianPackage[factory] {
      return candidate ? nil : "element '\(factory)' is not installed (Debian: \(package))"
    }
    let known = installed + PluginPackages.debianPackage.keys.sorted()
    if let nearest = NameSuggestion.nearest(to: factory, among: known, maxDistance: candidate ? 1 : nil) {
      let elsewhere = PluginPackages.debianPackage[nearest].flatMap { package in
        HVTElementDescription.isInstalled(nearest) ? nil : " (not installed; Debian: \(package))"
      }
      return "no element '\(factory)'; did you mean '\(nearest)'?\(elsewhere ?? "")"
    }
    return candidate ? nil : "no element '\(factory)' (is its GStreamer plugin installed? see gst-inspect-1.0)"
  }

  /// Where the value at a key path stands, else where the nearest enclosing value does (a defaulted key
  /// has no place of its own): `movie.encoder[1]`, `movie.encoder`, `movie`, then the document.
  static func position(of keyPath: String, in positions: [String: TextPosition]) -> TextPosition? {
    var path = Substring(keyPath)
    while true {
      if let position = positions[String(path)] { return position }
      guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return positions[""] }
      path = path[..<cut]
    }
  }

  /// A wrapper error in the words of a preset author.
  private static func message(for error: any Error, element: HVTElementDescription) -> String {
    switch error {
    case let error as GStreamerError:
      switch error {
      case .unknownProperty(_, let property, let suggestion):
        return "element '\(element.factory)' has no property '\(property)'"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
      case .invalidPropertyValue(_, let property, let value, let expected):
        return "element '\(element.factory)' rejects \(property)=\(value): expected \(expected)"
      case .readOnlyProperty(_, let property):
        return "property '\(property)' of element '\(element.factory)' is read-only"
      default:
        return error.description
      }
    default:
      return String(describing: HVTCameraError(error))
    }
  }

  /// Two elements that do not link, as the preset names them.
  private struct LinkFailure: Error {
    let keyPath: String
    let message: String
  }

  /// The key path of the preset value behind each element name the model uses.
  private var keyPaths: [String: String] {
    var paths = [
      HVTPipelineModel.sourceName: "source", "camera-caps": "format", "preview": "preview",
      HVTPipelineModel.photoEncoderName: "photo.encoder", HVTPipelineModel.movieEncoderName: "movie.encoder",
      "recording-caps": "movie.caps", HVTPipelineModel.movieParserName: "movie.parser",
      HVTPipelineModel.muxerName: "movie.muxer",
      HVTPipelineModel.microphoneName: "audio.source", HVTPipelineModel.audioEncoderName: "audio.encoder",
    ]
    for index in filters.indices { paths["filter-\(index)"] = "filters[\(index)]" }
    return paths
  }

  /// Builds the preset's pipeline for the simulated camera at a small size, links every branch (in NULL)
  /// — the recording branch once per installed movie encoder candidate — and releases it; throws the first
  /// pair that does not link.
  private func checkLinks() throws {
    let camera = CameraDiscovery.simulatedDevices()[0]
    guard
      let choice = try HVTCapsSelection.choose(
        deviceCaps: CameraDiscovery.simulatedCaps, size: HVTFrameSize(width: 320, height: 240), frameRate: frameRate,
        preferredFormat: format)
    else { return }
    func model(of preset: HVTPreset) throws -> HVTPipelineModel {
      try HVTPipelineModel.build(
        camera: camera, choice: choice,
        settings: .init(
          preset: preset, quality: .typeLow, failingAfterFrames: nil, preview: .init(),
          audio: .from(audioSource ?? HVTPipelineModel.simulatedMicrophone)))
    }
    func link(_ chain: [HVTElementDescription], _ paths: [String: String]) throws {
      let bin = Bin(name: "check")
      let elements = try ElementChain(chain, in: bin, link: false)
      for (index, (upstream, downstream)) in zip(elements.elements, elements.elements.dropFirst()).enumerated() {
        do {
          try upstream.link(to: downstream)
        } catch {
          let from = chain[index]
          let to = chain[index + 1]
          let keyPath = paths[to.name ?? ""] ?? paths[from.name ?? ""] ?? ""
          throw LinkFailure(
            keyPath: keyPath,
            message:
              "cannot link '\(from.factory)' to '\(to.factory)': \(to.factory) does not take what \(from.factory) makes"
          )
        }
      }
    }
    // The branches as the model connects them; the photo pipeline's appsrc stands for the camera chain. A
    // preset's own source is left out: the camera caps are chosen from what it offers when it runs (and a
    // failure then names it), not from the simulated camera's.
    func cameraChain(_ model: HVTPipelineModel) -> [HVTElementDescription] {
      Array(model.cameraChain.dropFirst(source == nil ? 0 : 1))
    }
    let full = try model(of: self)
    try link(cameraChain(full) + full.preview, keyPaths)
    try link(cameraChain(full).dropLast() + full.photoPipeline.dropFirst(), keyPaths)
    for (index, candidate) in movieEncoder.candidates.enumerated()
    where HVTElementDescription.isInstalled(candidate.factory) {
      var single = self
      single.movieEncoder = HVTElementSlot([candidate])
      var paths = keyPaths
      if movieEncoder.candidates.count > 1 { paths[HVTPipelineModel.movieEncoderName] = "movie.encoder[\(index)]" }
      let recording = try model(of: single)
      try link(cameraChain(recording) + recording.recordingBranch(location: "/dev/null"), paths)
      // The sound, into a muxer of its own (the chain ends in it, which gives it an audio pad).
      if let audio = recording.audio, let muxer = recording.recording.last {
        try link(audio.source + audio.encoding + [muxer], paths)
      } else if let reason = recording.audioUnavailableReason, audioEncoder != nil || audioSource != nil {
        throw LinkFailure(keyPath: audioEncoder != nil ? "audio.encoder" : "audio", message: reason)
      }
    }
  }
}
