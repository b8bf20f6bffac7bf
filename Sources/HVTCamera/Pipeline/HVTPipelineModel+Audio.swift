import HVTGStreamer

extension HVTPipelineModel {
  /// The sound of movies: two chains, added while recording. The microphone's chain is a bin of its own
  /// in the camera pipeline, so that a microphone that cannot open or fails mid-recording costs the
  /// movie its sound, never its video; the encoding chain sits in the recording branch and ends in the
  /// muxer's audio pad.
  ///
  /// ```
  /// microphone ! audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=48000,channels=2
  ///   → queue ! audioconvert ! <encoder> [! <parser>] ! muxer.
  /// ```
  public struct Audio: Sendable, Hashable {
    /// From the microphone to raw audio in the format every movie's sound is cut from (`recordedAudio`:
    /// `S16LE`, 48 kHz, stereo).
    public var source: [HVTElementDescription]
    /// From the recording branch's audio entry to the encoder and its parser, which link to the muxer.
    public var encoding: [HVTElementDescription]

    /// The factory of the audio encoder, e.g. `"voaacenc"`.
    public var encoder: String { encoding.first { $0.name == HVTPipelineModel.audioEncoderName }?.factory ?? "" }
    /// Samples of sound let in past the video's end, for an encoder that does not give back all it was
    /// given at the end of stream: `voaacenc` drops a partial last AAC frame (up to 1024 samples) and,
    /// depending on where the first one fell, one whole frame more; with 1024 more samples its sound ends
    /// within 1024 samples (21 ms) of the video either way. 0 for the encoders that drain (`avenc_aac`,
    /// `opusenc`, `vorbisenc`).
    public var trailingSamples: Int { encoder == "voaacenc" ? 1024 : 0 }

    /// The factory of the microphone's element, e.g. `"audiotestsrc"` for the simulated microphone.
    public var microphone: String { source.first?.factory ?? "" }
  }

  /// The raw audio every microphone is converted to before the recording branch: interleaved signed
  /// 16-bit samples (`S16LE`), 48 kHz, stereo. Fixed, so that the branch's entry can cut a buffer at a
  /// sample and the movie's sound starts and ends with its video.
  static let recordedAudio = (rate: 48_000, channels: 2, bytesPerSample: 2)

  /// The caps of ``recordedAudio``.
  static var recordedAudioCaps: String {
    "audio/x-raw,format=S16LE,layout=interleaved,rate=\(recordedAudio.rate),channels=\(recordedAudio.channels)"
  }

  /// The simulated camera's microphone: a live 440 Hz tone (`audiotestsrc is-live=true`), whose buffers
  /// carry the pipeline's running time as a real microphone's do; 10 ms per buffer.
  static let simulatedMicrophone = HVTElementDescription(
    "audiotestsrc", ["is-live": "true", "wave": "sine", "freq": "440", "volume": "0.2", "samplesperbuffer": "480"])

  /// The default microphone of a real camera: `autoaudiosrc`, which opens the highest-ranked audio source
  /// that works (PipeWire, PulseAudio, ALSA).
  static let defaultMicrophone = HVTElementDescription("autoaudiosrc")

  /// The audio encoders tried, in order, for a muxer without a preset's choice: AAC for MP4 and
  /// QuickTime (`avenc_aac`, `voaacenc`, `fdkaacenc`), Opus then Vorbis for WebM and Matroska.
  static func defaultAudioEncoders(forMuxer muxer: String) -> HVTElementSlot? {
    switch muxer {
    case "mp4mux", "qtmux", "mpegtsmux", "flvmux":
      HVTElementSlot(["avenc_aac", "voaacenc", "fdkaacenc"].map { HVTElementDescription($0) })
    case "webmmux", "matroskamux":
      HVTElementSlot(["opusenc", "vorbisenc"].map { HVTElementDescription($0) })
    default:
      nil
    }
  }

  /// The parser an audio encoder's output goes through before the muxer: `aacparse` for AAC, none for
  /// Opus and Vorbis (their muxers take the encoder's packets as they are).
  static func audioParser(for encoder: String) -> HVTElementDescription? {
    ["avenc_aac", "voaacenc", "fdkaacenc", "faac"].contains(encoder) ? HVTElementDescription("aacparse") : nil
  }

  /// The movie's sound for `microphone` (the element that captures it) into `muxer`, or why there is
  /// none: no encoder the muxer takes is installed.
  static func audioChains(
    microphone: HVTElementDescription, encoders preset: HVTElementSlot?, muxer: String
  ) -> Result<Audio, AudioUnavailable> {
    guard let slot = preset ?? defaultAudioEncoders(forMuxer: muxer) else {
      return .failure(.init(reason: "the muxer \(muxer) takes no sound the engine encodes"))
    }
    guard let encoder = slot.installed else {
      let factories = slot.candidates.map(\.factory)
      let hint = PluginPackages.installHint(for: factories).map { " (\($0))" } ?? ""
      return .failure(
        .init(reason: "no audio encoder is installed: tried \(factories.joined(separator: ", "))\(hint)"))
    }
    let source = [
      microphone.named(microphoneName),
      HVTElementDescription("audioconvert", name: "microphone-convert"),
      HVTElementDescription("audioresample", name: "microphone-resample"),
      .capsFilter(recordedAudioCaps, name: "microphone-caps"),
      // The recording's audio probe holds the sound until the video has caught up with it; behind this
      // queue it holds the queue's thread, never the microphone's own, which would lose sound.
      HVTElementDescription(
        "queue", name: "microphone-queue",
        ["max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "3000000000"]),
    ]
    var encoding = [
      HVTElementDescription(
        "queue", name: "audio-queue", ["max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "3000000000"]),
      HVTElementDescription("audioconvert", name: "audio-convert"),
      encoder.named(audioEncoderName),
    ]
    if let parser = audioParser(for: encoder.factory) { encoding.append(parser.named("audio-parser")) }
    return .success(Audio(source: source, encoding: encoding))
  }

  /// Why a movie is recorded without sound, in words for ``HVTCameraEvent/audioUnavailable(reason:)``.
  struct AudioUnavailable: Error, Sendable, Hashable {
    var reason: String
  }

  static let microphoneName = "microphone"
  static let audioEncoderName = "audio-encoder"
}
