import Foundation
import HVTGStreamer

extension HVTPreset {
  /// The keys a preset may have, with whether each is required.
  static let topLevelKeys: [(key: String, required: Bool)] = [
    ("$schema", false), ("name", true), ("description", true), ("quality", true), ("frameRate", false),
    ("format", false), ("source", false), ("filters", false), ("preview", true), ("photo", true), ("movie", true),
    ("audio", false), ("streams", false),
  ]
  static let photoKeys: [(key: String, required: Bool)] = [("encoder", true), ("extension", true)]
  static let movieKeys: [(key: String, required: Bool)] = [
    ("encoder", true), ("parser", false), ("caps", false), ("muxer", true), ("extension", true),
  ]
  static let audioKeys: [(key: String, required: Bool)] = [("source", false), ("encoder", false)]
  /// The keys of one of `streams`: exactly one target (``streamTargetKeys``), then its settings.
  static let streamKeys: [(key: String, required: Bool)] =
    streamTargetKeys.map { ($0, false) } + [
      ("credentials", false), ("allowAnonymous", false), ("segmentDuration", false), ("playlistLength", false),
      ("size", false), ("bitrate", false), ("keyFrameInterval", false), ("tuning", false),
    ]
  /// The keys that name a stream's target, as ``HVTStreamTarget/kind`` names them.
  static let streamTargetKeys = ["rtsp", "rtspPush", "srt", "rtmp", "hls"]

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
    let streams = streamList(members["streams"])
    guard let name, let summary, let quality, let preview, let photoEncoder, let photoExtension, let movieEncoder,
      let muxer, let movieExtension
    else { return nil }
    return HVTPreset(
      name: name, summary: summary, quality: quality, frameRate: frameRate ?? HVTFrameRate(30),
      format: format ?? "I420", source: source, filters: filters, preview: preview, photoEncoder: photoEncoder,
      photoExtension: photoExtension, movieEncoder: movieEncoder, movieParser: parser, movieCaps: caps, muxer: muxer,
      movieExtension: movieExtension, audioSource: audioSource, audioEncoder: audioEncoder, streams: streams, url: nil)
  }

  /// `streams`: each an object naming one target and its settings.
  mutating func streamList(_ node: JSONNode?) -> [HVTStream] {
    guard let node else { return [] }
    positions["streams"] = node.position
    guard case .array(let items) = node.value else {
      diagnostics.report("expected an array of streams, found \(node.kind)", at: "streams", node.position)
      return []
    }
    return checked(
      items.enumerated().compactMap { index, item in stream(item, at: "streams[\(index)]").map { (index, $0) } })
  }

  /// One stream: its target, then its encoding and tuning; every problem is reported where it stands.
  mutating func stream(_ node: JSONNode, at path: String) -> HVTStream? {
    positions[path] = node.position
    guard let members = object(node, at: path, keys: HVTPreset.streamKeys) else { return nil }
    let named = HVTPreset.streamTargetKeys.filter { members[$0] != nil }
    guard named.count == 1, let kind = named.first, let value = string(members[kind], at: join(path, kind)) else {
      if named.count != 1 {
        diagnostics.report(
          "expected exactly one target (\(HVTPreset.streamTargetKeys.joined(separator: ", "))), found \(named.count)",
          at: path, node.position)
      }
      return nil
    }
    let targetPath = join(path, kind)
    let credentials = members["credentials"].flatMap { credentialsValue($0, at: join(path, "credentials")) }
    let segment = members["segmentDuration"].flatMap { wholeNumber($0, at: join(path, "segmentDuration")) }
    let playlist = members["playlistLength"].flatMap { wholeNumber($0, at: join(path, "playlistLength")) }
    for key in ["credentials"] where members[key] != nil && kind != "rtsp" {
      diagnostics.report("\"\(key)\" is for an rtsp stream", at: join(path, key), members[key]?.position)
    }
    if members["allowAnonymous"] != nil && !["rtsp", "srt"].contains(kind) {
      diagnostics.report(
        "\"allowAnonymous\" is for an rtsp or srt stream", at: join(path, "allowAnonymous"),
        members["allowAnonymous"]?.position)
    }
    for key in ["segmentDuration", "playlistLength"] where members[key] != nil && kind != "hls" {
      diagnostics.report("\"\(key)\" is for an hls stream", at: join(path, key), members[key]?.position)
    }
    let target: HVTStreamTarget?
    switch kind {
    case "rtsp":
      target = HVTStreamTarget.rtspServer(spec: value, credentials: credentials)
      if target == nil {
        diagnostics.report(
          "expected [ADDRESS]:PORT/PATH, e.g. \":8554/cam\", not \"\(value)\"", at: targetPath, members[kind]?.position)
      }
    case "rtspPush": target = .rtspPush(url: value)
    case "srt": target = .srt(uri: value)
    case "rtmp": target = .rtmp(url: value)
    default:
      target = .hls(
        directory: URL(fileURLWithPath: value), segmentDuration: segment ?? 2, playlistLength: playlist ?? 5)
    }
    let size = members["size"].flatMap { sizeValue($0, at: join(path, "size")) }
    let bitRate = members["bitrate"].flatMap { wholeNumber($0, at: join(path, "bitrate")) }
    let keyFrameInterval = members["keyFrameInterval"].flatMap { number($0, at: join(path, "keyFrameInterval")) }
    let tuning = members["tuning"].map { elementList($0, at: join(path, "tuning")) } ?? []
    let anonymous = members["allowAnonymous"].flatMap { boolean($0, at: join(path, "allowAnonymous")) } ?? false
    guard let target else { return nil }
    let encoding = HVTStreamEncoding(size: size, bitRate: bitRate, keyFrameInterval: keyFrameInterval)
    return HVTStream(target: target, encoding: encoding, tuning: tuning, allowsAnonymous: anonymous)
  }

  /// Reports each issue of `streams` (read from `streams[index]`, in order), as `hvtcam stream` and
  /// ``HVTCameraController/startStreaming(_:)`` find them (``HVTStream/issues(in:)``), where it
  /// stands; returns the streams without an issue.
  mutating func checked(_ streams: [(index: Int, stream: HVTStream)]) -> [HVTStream] {
    var valid = Set(streams.indices)
    for issue in HVTStream.issues(in: streams.map(\.stream)) {
      let (index, stream) = streams[issue.stream]
      let path = "streams[\(index)]"
      let at =
        switch issue.field {
        case .target: join(path, stream.target.kind)
        case .encoding: path
        case .tuning(let element): join(path, "tuning[\(element)]")
        }
      diagnostics.report(issue.reason, at: at, positions[at])
      valid.remove(issue.stream)
    }
    return valid.sorted().map { streams[$0].stream }
  }

  /// `USER:PASSWORD`.
  mutating func credentialsValue(_ node: JSONNode, at path: String) -> HVTStreamCredentials? {
    guard let text = string(node, at: path) else { return nil }
    guard let credentials = HVTStreamCredentials(userAndPassword: text) else {
      diagnostics.report("expected USER:PASSWORD", at: path, node.position)
      return nil
    }
    return credentials
  }

  /// `true` or `false`.
  mutating func boolean(_ node: JSONNode, at path: String) -> Bool? {
    guard case .bool(let value) = node.value else {
      diagnostics.report("expected true or false, found \(node.kind)", at: path, node.position)
      return nil
    }
    return value
  }

  /// `WIDTHxHEIGHT`.
  mutating func sizeValue(_ node: JSONNode, at path: String) -> HVTFrameSize? {
    guard let text = string(node, at: path) else { return nil }
    guard case .size(let size) = HVTCaptureSize(commandLineName: text) else {
      diagnostics.report("expected WIDTHxHEIGHT from 16x16 to 7680x4320, not \"\(text)\"", at: path, node.position)
      return nil
    }
    return size
  }

  /// A number.
  mutating func number(_ node: JSONNode, at path: String) -> Double? {
    positions[path] = node.position
    guard case .number(let value, _) = node.value else {
      diagnostics.report("expected a number, found \(node.kind)", at: path, node.position)
      return nil
    }
    return value
  }

  /// A whole number that fits an `Int`.
  mutating func wholeNumber(_ node: JSONNode, at path: String) -> Int? {
    guard let value = number(node, at: path) else { return nil }
    guard value == value.rounded(), abs(value) < 1e15 else {
      diagnostics.report("expected a whole number, found \(value)", at: path, node.position)
      return nil
    }
    return Int(value)
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
    node.map { elementList($0, at: "filters") } ?? []
  }

  /// An array of elements in gst-launch syntax.
  mutating func elementList(_ node: JSONNode, at path: String) -> [HVTElementDescription] {
    positions[path] = node.position
    guard case .array(let items) = node.value else {
      diagnostics.report("expected an array of elements, found \(node.kind)", at: path, node.position)
      return []
    }
    return items.enumerated().compactMap { element($1, at: "\(path)[\($0)]") }
  }

  func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
