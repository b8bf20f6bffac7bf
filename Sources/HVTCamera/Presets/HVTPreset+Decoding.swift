import HVTGStreamer

extension HVTPreset {
  /// The keys a preset may have, with whether each is required.
  static let topLevelKeys: [(key: String, required: Bool)] = [
    ("$schema", false), ("name", true), ("description", true), ("quality", true), ("frameRate", false),
    ("format", false), ("source", false), ("filters", false), ("preview", true), ("photo", true), ("movie", true),
    ("audio", false),
  ]
  static let photoKeys: [(key: String, required: Bool)] = [("encoder", true), ("extension", true)]
  static let movieKeys: [(key: String, required: Bool)] = [
    ("encoder", true), ("parser", false), ("caps", false), ("muxer", true), ("extension", true),
  ]
  static let audioKeys: [(key: String, required: Bool)] = [("source", false), ("encoder", false)]

  /// Reads a preset from JSON text, checking its size and shape (keys, types, element syntax, nesting), but
  /// not yet whether GStreamer has its elements. Every issue found is reported.
  static func decode(_ text: String, file: String, expectedName: String?) throws(HVTPresetError) -> (
    preset: HVTPreset, positions: [String: TextPosition]
  ) {
    guard text.utf8.count <= PresetLimits.maxBytes else {
      throw HVTPresetError(issues: [PresetLimits.sizeIssue(file: file)])
    }
    var diagnostics = PresetDiagnostics(file: file)
    let root: JSONNode
    do {
      root = try JSONReader.parse(text)
    } catch {
      diagnostics.report(error.diagnostic, at: "", error.position)
      throw HVTPresetError(issues: diagnostics.issues)
    }
    var reader = PresetReader(diagnostics: diagnostics)
    let preset = reader.read(root, expectedName: expectedName)
    try reader.diagnostics.check()
    guard let preset else { throw HVTPresetError(issues: reader.diagnostics.issues) }
    return (preset, reader.positions)
  }
}

/// Walks a preset's JSON, building the preset and reporting each deviation from the schema.
private struct PresetReader {
  var diagnostics: PresetDiagnostics
  /// Where each value stands, by key path, for the checks that come after reading.
  var positions: [String: TextPosition] = [:]

  init(diagnostics: PresetDiagnostics) {
    self.diagnostics = diagnostics
  }

  mutating func read(_ root: JSONNode, expectedName: String?) -> HVTPreset? {
    positions[""] = root.position
    guard let members = object(root, at: "", keys: HVTPreset.topLevelKeys) else { return nil }
    let name = string(members["name"], at: "name")
    if let name, let expectedName, name != expectedName {
      diagnostics.report(
        "\"\(name)\" does not match the file name; expected \"\(expectedName)\"", at: "name", members["name"]?.position)
    }
    let summary = string(members["description"], at: "description")
    let quality = qualityValue(members["quality"])
    let frameRate = frameRateValue(members["frameRate"])
    let format = formatValue(members["format"])
    let source = members["source"].flatMap { element($0, at: "source") }
    let filters = filterList(members["filters"])
    let preview = members["preview"].flatMap { slot($0, at: "preview") }
    let photo = members["photo"].flatMap { object($0, at: "photo", keys: HVTPreset.photoKeys) }
    let photoEncoder = photo?["encoder"].flatMap { slot($0, at: "photo.encoder") }
    let photoExtension = photo.flatMap { fileExtension($0["extension"], at: "photo.extension") }
    let movie = members["movie"].flatMap { object($0, at: "movie", keys: HVTPreset.movieKeys) }
    let movieEncoder = movie?["encoder"].flatMap { slot($0, at: "movie.encoder") }
    let parser = movie?["parser"].flatMap { element($0, at: "movie.parser") }
    let caps = movie?["caps"].flatMap { capsValue($0, at: "movie.caps") }
    let muxer = movie?["muxer"].flatMap { slot($0, at: "movie.muxer") }
    let movieExtension = movie.flatMap { fileExtension($0["extension"], at: "movie.extension") }
    let audio = members["audio"].flatMap { object($0, at: "audio", keys: HVTPreset.audioKeys) }
    let audioSource = audio?["source"].flatMap { element($0, at: "audio.source") }
    let audioEncoder = audio?["encoder"].flatMap { slot($0, at: "audio.encoder") }
    guard let name, let summary, let quality, let preview, let photoEncoder, let photoExtension, let movieEncoder,
      let muxer, let movieExtension
    else { return nil }
    return HVTPreset(
      name: name, summary: summary, quality: quality, frameRate: frameRate ?? HVTFrameRate(30),
      format: format ?? "I420", source: source, filters: filters, preview: preview, photoEncoder: photoEncoder,
      photoExtension: photoExtension, movieEncoder: movieEncoder, movieParser: parser, movieCaps: caps, muxer: muxer,
      movieExtension: movieExtension, audioSource: audioSource, audioEncoder: audioEncoder, url: nil)
  }

  /// An object's members by key, after reporting unknown keys (with the nearest known one) and missing
  /// required keys.
  mutating func object(_ node: JSONNode, at path: String, keys: [(key: String, required: Bool)]) -> [String: JSONNode]?
  {
    guard case .object(let members) = node.value else {
      diagnostics.report("expected an object, found \(node.kind)", at: path, node.position)
      return nil
    }
    let known = keys.map(\.key)
    for member in members where !known.contains(member.key) {
      let hint = NameSuggestion.nearest(to: member.key, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
      diagnostics.report(
        "unknown key \"\(member.key)\"\(hint)", at: join(path, member.key), member.keyPosition)
    }
    for (key, required) in keys where required && !members.contains(where: { $0.key == key }) {
      diagnostics.report("missing required key \"\(key)\"", at: path, node.position)
    }
    return Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
  }

  mutating func string(_ node: JSONNode?, at path: String) -> String? {
    guard let node else { return nil }
    positions[path] = node.position
    guard case .string(let text) = node.value else {
      diagnostics.report("expected a string, found \(node.kind)", at: path, node.position)
      return nil
    }
    guard !text.isEmpty else {
      diagnostics.report("must not be empty", at: path, node.position)
      return nil
    }
    return text
  }

  mutating func qualityValue(_ node: JSONNode?) -> HVTCameraController.QualityType? {
    guard let text = string(node, at: "quality") else { return nil }
    if let quality = HVTCameraController.QualityType(commandLineName: text) { return quality }
    let names = HVTCameraController.QualityType.allCases.map(\.commandLineName)
    let hint = NameSuggestion.nearest(to: text, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
    diagnostics.report(
      "unknown quality \"\(text)\"\(hint) (one of: \(names.joined(separator: ", ")))", at: "quality", node?.position)
    return nil
  }

  mutating func frameRateValue(_ node: JSONNode?) -> HVTFrameRate? {
    guard let node else { return nil }
    guard case .number(let value, _) = node.value, value == value.rounded(), (1...240).contains(value) else {
      diagnostics.report("expected a whole number of frames per second from 1 to 240", at: "frameRate", node.position)
      return nil
    }
    return HVTFrameRate(Int(value))
  }

  mutating func formatValue(_ node: JSONNode?) -> String? {
    guard let text = string(node, at: "format") else { return nil }
    if text == "MJPEG" || HVTElementDescription.isRawVideoFormat(text) { return text }
    let hint =
      NameSuggestion.nearest(to: text, among: ["MJPEG", "I420", "NV12", "YUY2", "UYVY", "RGB", "BGRx"])
      .map { "; did you mean \"\($0)\"?" } ?? ""
    diagnostics.report("unknown format \"\(text)\"\(hint) (MJPEG or a raw video format)", at: "format", node?.position)
    return nil
  }

  mutating func fileExtension(_ node: JSONNode?, at path: String) -> String? {
    guard let text = string(node, at: path) else { return nil }
    guard text.allSatisfy({ $0.isLetter || $0.isNumber }) else {
      diagnostics.report(
        "\"\(text)\" is not a file extension (letters and digits, without the dot)", at: path, node?.position)
      return nil
    }
    return text
  }

  /// Caps text, nested no deeper than GStreamer's parser can take.
  mutating func capsValue(_ node: JSONNode, at path: String) -> String? {
    guard let text = string(node, at: path) else { return nil }
    if let offset = PresetLimits.tooDeepOffset(in: text) {
      diagnostics.report(PresetLimits.nestingMessage, at: path, position(in: node, offset: offset))
      return nil
    }
    return text
  }

  /// One element in gst-launch syntax.
  mutating func element(_ node: JSONNode, at path: String) -> HVTElementDescription? {
    guard let text = string(node, at: path) else { return nil }
    do {
      return try ElementSyntax.parse(text)
    } catch {
      diagnostics.report(error.message, at: path, position(in: node, offset: error.offset))
      return nil
    }
  }

  /// Where the character `offset` characters into a string value stands: its text starts one column
  /// after the opening quote.
  func position(in node: JSONNode, offset: Int) -> TextPosition { node.position.advanced(by: 1 + offset) }

  /// A slot: one element, or an array of candidate elements.
  mutating func slot(_ node: JSONNode, at path: String) -> HVTElementSlot? {
    positions[path] = node.position
    switch node.value {
    case .array(let items):
      guard !items.isEmpty else {
        diagnostics.report("expected at least one candidate element", at: path, node.position)
        return nil
      }
      let elements = items.enumerated().map { element($1, at: "\(path)[\($0)]") }
      let found = elements.compactMap { $0 }
      return found.count == elements.count ? HVTElementSlot(found) : nil
    default:
      return element(node, at: path).map { HVTElementSlot([$0]) }
    }
  }

  mutating func filterList(_ node: JSONNode?) -> [HVTElementDescription] {
    guard let node else { return [] }
    guard case .array(let items) = node.value else {
      diagnostics.report("expected an array of elements, found \(node.kind)", at: "filters", node.position)
      return []
    }
    return items.enumerated().compactMap { element($1, at: "filters[\($0)]") }
  }

  func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
