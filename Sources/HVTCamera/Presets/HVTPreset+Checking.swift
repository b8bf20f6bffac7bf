import HVTGStreamer

extension HVTPreset {
  /// Checks the preset against this machine's GStreamer: every element exists (or, in a candidate list,
  /// is plausibly just not installed here), accepts its properties and values, caps parse, and the
  /// pipeline it describes links — by building it, in NULL, and releasing it again.
  func check(file: String, positions: [String: TextPosition]) throws(HVTPresetError) {
    var diagnostics = PresetDiagnostics(file: file)
    let factories = GStreamer.elementFactoryNames()
    func report(_ message: String, _ keyPath: String) {
      diagnostics.report(message, at: keyPath, positions[keyPath])
    }
    /// Checks one element; returns whether it can be made with its properties.
    func checkElement(_ element: HVTElementDescription, _ keyPath: String, candidate: Bool) -> Bool {
      guard HVTElementDescription.isInstalled(element.factory) else {
        // A candidate may name an element this machine lacks (a hardware encoder); only a name one edit
        // away from an installed one is taken for a typo there.
        let nearest = NameSuggestion.nearest(to: element.factory, among: factories, maxDistance: candidate ? 1 : nil)
        if let nearest {
          report("no element '\(element.factory)'; did you mean '\(nearest)'?", keyPath)
        } else if !candidate {
          report("no element '\(element.factory)' (is its GStreamer plugin installed? see gst-inspect-1.0)", keyPath)
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
        report("none of the candidates is installed here (\(slot.description))", keyPath)
      }
    }
    if let source { _ = checkElement(source, "source", candidate: false) }
    for (index, filter) in filters.enumerated() { _ = checkElement(filter, "filters[\(index)]", candidate: false) }
    checkSlot(preview, "preview")
    checkSlot(photoEncoder, "photo.encoder")
    checkSlot(movieEncoder, "movie.encoder")
    if let movieParser { _ = checkElement(movieParser, "movie.parser", candidate: false) }
    checkSlot(muxer, "movie.muxer")
    if let movieCaps, (try? Caps(movieCaps)) == nil {
      report("invalid caps \"\(movieCaps)\"", "movie.caps")
    }
    try diagnostics.check()
    do {
      try checkLinks()
    } catch let failure as LinkFailure {
      report(failure.message, failure.keyPath)
    } catch {
      report(String(describing: error), "")
    }
    try diagnostics.check()
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
      "recording-caps": "movie.caps", "movie-parser": "movie.parser", HVTPipelineModel.muxerName: "movie.muxer",
    ]
    for index in filters.indices { paths["filter-\(index)"] = "filters[\(index)]" }
    return paths
  }

  /// Builds the preset's pipeline for the simulated camera at a small size, links every branch (in NULL)
  /// and releases it; throws the first pair that does not link.
  private func checkLinks() throws {
    let camera = CameraDiscovery.simulatedDevices()[0]
    guard
      let choice = try HVTCapsSelection.choose(
        deviceCaps: CameraDiscovery.simulatedCaps, size: HVTFrameSize(width: 320, height: 240), frameRate: frameRate,
        preferredFormat: format)
    else { return }
    let model = try HVTPipelineModel.build(
      camera: camera, choice: choice,
      settings: .init(preset: self, quality: .typeLow, failingAfterFrames: nil, preview: .preset))
    let paths = keyPaths
    func link(_ chain: [HVTElementDescription]) throws {
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
    // The branches as the model connects them; the photo pipeline's appsrc stands for the camera chain.
    try link(model.cameraChain + model.preview)
    try link(model.source + model.photoPipeline.dropFirst())
    try link(model.cameraChain + model.recordingBranch(location: "/dev/null"))
  }
}
