import HVTGStreamer

/// What the engine sets on a movie encoder that the preset leaves unset: a bit rate scaled to the frame
/// size and rate, and a key frame every second (every frame for the iFrame qualities). Each known encoder
/// names these properties (and their units) its own way.
package enum EncoderTuning {
  /// How one encoder family spells bit rate and key-frame interval.
  package struct Spelling {
    package let bitrate: String
    /// Bits per unit of the bit-rate property: 1000 for kbit/s, 1 for bit/s.
    package let bitsPerUnit: Double
    package let keyFrameInterval: String
    /// The property and value that make the bit rate the target, for an encoder whose default rate
    /// control does not hold it (OpenH264's `quality` mode makes about three times the bits asked).
    package var bitrateMode: (property: String, value: String)? = nil
  }

  /// What the app asks of the movie encoder (``HVTCameraController/videoBitRate`` and
  /// ``HVTCameraController/videoKeyFrameInterval``); `nil` leaves the preset's or the engine's choice.
  package struct Request: Sendable, Equatable {
    /// Bits per second.
    package var bitRate: Int?
    /// Seconds between key frames.
    package var keyFrameInterval: Double?

    /// Each stored property, as a memberwise initializer takes them.
    package init(bitRate: Int? = nil, keyFrameInterval: Double? = nil) {
      self.bitRate = bitRate
      self.keyFrameInterval = keyFrameInterval
    }
  }

  package static let spellings: [String: Spelling] = [
    "x264enc": Spelling(bitrate: "bitrate", bitsPerUnit: 1000, keyFrameInterval: "key-int-max"),
    "x265enc": Spelling(bitrate: "bitrate", bitsPerUnit: 1000, keyFrameInterval: "key-int-max"),
    "openh264enc": Spelling(
      bitrate: "bitrate", bitsPerUnit: 1, keyFrameInterval: "gop-size", bitrateMode: ("rate-control", "bitrate")),
    "vah264enc": Spelling(bitrate: "bitrate", bitsPerUnit: 1000, keyFrameInterval: "key-int-max"),
    "vah265enc": Spelling(bitrate: "bitrate", bitsPerUnit: 1000, keyFrameInterval: "key-int-max"),
    "vaapih264enc": Spelling(bitrate: "bitrate", bitsPerUnit: 1000, keyFrameInterval: "keyframe-period"),
    "vp8enc": Spelling(bitrate: "target-bitrate", bitsPerUnit: 1, keyFrameInterval: "keyframe-max-dist"),
    "vp9enc": Spelling(bitrate: "target-bitrate", bitsPerUnit: 1, keyFrameInterval: "keyframe-max-dist"),
  ]

  /// The encoder with the app's bit rate and key-frame interval (`request`) set, and the engine's where
  /// neither the app nor the preset set one (with the bit rate, the rate control that holds it, unless
  /// the preset chose one). The engine's: about 0.1 bit per pixel (0.3 for intra-only), at least
  /// 500 kbit/s, and a key frame a second (every frame for intra-only, whatever the request). Only the
  /// encoder's own properties are written.
  package static func tuned(
    _ encoder: HVTElementDescription, size: HVTFrameSize, frameRate: HVTFrameRate, intraOnly: Bool,
    request: Request = .init()
  ) -> HVTElementDescription {
    guard let spelling = spellings[encoder.factory] else { return encoder }
    var tuned = encoder
    let engineBits = max(500_000, Double(size.area) * frameRate.framesPerSecond * (intraOnly ? 0.3 : 0.1))
    if let bits = request.bitRate.map(Double.init) ?? (encoder.value(of: spelling.bitrate) == nil ? engineBits : nil) {
      tuned = tuned.setting(spelling.bitrate, to: String(max(1, Int(bits / spelling.bitsPerUnit))))
      if let mode = spelling.bitrateMode, encoder.value(of: mode.property) == nil {
        tuned = tuned.setting(mode.property, to: mode.value)
      }
    }
    let seconds = request.keyFrameInterval ?? (encoder.value(of: spelling.keyFrameInterval) == nil ? 1 : nil)
    let frames = intraOnly ? 1 : seconds.map { max(1, Int(($0 * frameRate.framesPerSecond).rounded())) }
    if let frames { tuned = tuned.setting(spelling.keyFrameInterval, to: String(frames)) }
    return tuned
  }

  /// The parser for what an encoder makes, read off its source pad template: `h264parse` for H.264,
  /// `h265parse` for H.265, none for formats muxers take as they are (VP8, VP9, JPEG).
  package static func parser(for encoder: String) -> HVTElementDescription? {
    let output = GStreamer.padTemplateCaps(of: encoder, direction: .source)?.structures.map(\.name) ?? []
    if output.contains("video/x-h264") { return HVTElementDescription("h264parse") }
    if output.contains("video/x-h265") { return HVTElementDescription("h265parse") }
    return nil
  }

  /// The raw formats to hand the encoder: I420 and NV12 where it takes them (so conversion never picks
  /// a 10-bit or 4:4:4 format), else whatever it takes.
  package static func inputCaps(for encoder: String) -> String? {
    let input = GStreamer.padTemplateCaps(of: encoder, direction: .sink)
    let preferred = ["I420", "NV12"].filter { format in
      (try? Caps("video/x-raw,format=\(format)")).map { !(input?.intersection($0).isEmpty ?? true) } ?? false
    }
    guard !preferred.isEmpty else { return nil }
    return preferred.count == 1
      ? "video/x-raw,format=\(preferred[0])" : "video/x-raw,format={\(preferred.joined(separator: ","))}"
  }
}
