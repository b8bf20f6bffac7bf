import Foundation

extension HVTPipelineModel {
  /// The name of the tee the streams of the movies' encoding link to when no pre-roll's encoder runs
  /// (``streamEncoding(for:)``).
  static let streamTeeName = "streams"

  /// The encoder of the streams of `encoding`. For the movies' encoding (``HVTStreamEncoding/movie``),
  /// the one every such stream shares without a pre-roll, and every recording made while it runs: the
  /// movies' encoding (``continuousEncoding``), up to the streams' tee, its elements named
  /// `stream-encoding-…` (`stream-encoding-encoder`, …). For another, the same chain resized and tuned for
  /// it, named `stream-LABEL-…`, up to `streams-LABEL`.
  ///
  /// ```
  /// t. ! queue ! videoconvert ! <encoder> ! h264parse ! video/x-h264,stream-format=avc,alignment=au ! tee name=streams
  /// t. ! queue ! videocrop ! videoscale ! 640x360 ! videoconvert ! <encoder, tuned> ! … ! tee name=streams-640x360
  /// ```
  func streamEncoding(for encoding: HVTStreamEncoding = .movie) -> (
    chain: [HVTElementDescription], tee: HVTElementDescription
  ) {
    let prefix = encoding.isMovie ? "stream-encoding-" : "stream-\(encoding.label)-"
    var chain = continuousEncoding
    if !encoding.isMovie { chain = retuned(chain, for: encoding) }
    chain = chain.map { element in
      element.name.map { element.named(prefix + ($0.split(separator: "-").last ?? "")) } ?? element
    }
    if let caps = Self.muxedCaps[chain.last?.factory ?? ""] {
      chain.append(.capsFilter(caps, name: prefix + "output"))
    }
    return (chain, HVTElementDescription("tee", name: Self.streamTeeName(for: encoding), ["allow-not-linked": "true"]))
  }

  /// The tee the streams of `encoding` link to when no pre-roll's encoder serves them.
  static func streamTeeName(for encoding: HVTStreamEncoding) -> String {
    encoding.isMovie ? streamTeeName : "\(streamTeeName)-\(encoding.label)"
  }

  /// The movies' encoding chain made for `encoding`: cropped and scaled to its size (from the camera's
  /// frames, never up), its encoder's bit rate and key-frame interval set as it asks (a size without a bit
  /// rate takes the engine's for that size).
  private func retuned(_ chain: [HVTElementDescription], for encoding: HVTStreamEncoding) -> [HVTElementDescription] {
    var chain = chain
    let size = encoding.size.map { Self.movieSize($0, camera: configuration.size) } ?? configuration.movieSize
    if size != configuration.movieSize, let convert = chain.firstIndex(where: { $0.name == "recording-convert" }) {
      let resizing = Self.resizing(configuration.size, to: configuration.movieSize).compactMap(\.name)
      chain.insert(contentsOf: Self.resizing(configuration.size, to: size), at: convert)
      chain.removeAll { $0.name.map(resizing.contains) ?? false }
    }
    if let index = chain.firstIndex(where: { $0.name == Self.movieEncoderName }) {
      var encoder = chain[index]
      if size != configuration.movieSize, encoding.bitRate == nil,
        let spelling = EncoderTuning.spellings[encoder.factory]
      {
        encoder.properties.removeAll { $0.name == spelling.bitrate }
      }
      chain[index] = EncoderTuning.tuned(
        encoder, size: size, frameRate: configuration.frameRate, intraOnly: false,
        request: EncoderTuning.Request(bitRate: encoding.bitRate, keyFrameInterval: encoding.keyFrameInterval))
    }
    return chain
  }

  /// The recording chain of a movie made while the streams' encoder runs (without a pre-roll): a queue and
  /// the muxer after the streams' tee, as after a pre-roll's encoded tee. The queue holds what a slow
  /// muxer start needs.
  var recordingOnStreams: [HVTElementDescription]? { encodedRecording(holding: 5) }

  /// What the streams' encoder gives its tee, by parser: the form the movie muxers take (`mp4mux`,
  /// `qtmux`, `matroskamux`), so that a recording can link to the tee whatever the first stream asked
  /// for (an SRT stream's `mpegtsmux` wants `byte-stream`, which the parser would otherwise settle on);
  /// each stream's own parser turns it into what its target takes.
  static let muxedCaps = [
    "h264parse": "video/x-h264,stream-format=avc,alignment=au",
    "h265parse": "video/x-h265,stream-format=hvc1,alignment=au",
  ]

  /// The tee the branches of streams of `encoding` start from: the pre-roll's encoded tee for the movies'
  /// encoding when there is a pre-roll, else the streams' own (``streamEncoding(for:)``).
  func streamSourceTeeName(for encoding: HVTStreamEncoding) -> String {
    preRoll != nil && encoding.isMovie ? Self.encodedTeeName : Self.streamTeeName(for: encoding)
  }

  /// Whether streams of `encoding` need an encoder of their own: not the movies' encoding after a
  /// pre-roll, whose encoder runs already.
  func needsStreamEncoder(for encoding: HVTStreamEncoding) -> Bool { preRoll == nil || !encoding.isMovie }

  /// The name of a stream branch's last element: its network sink, or the `appsink` an RTSP server of the
  /// process's own is fed from.
  static let streamSinkName = "stream-sink"

  /// One target's branch of the encoded tee: a queue of 2 s leaking at its entry, so that a slow network
  /// drops the stream's newest frames (up to the next key frame, ``StreamEntry``) instead of holding the
  /// encoder, then the target's parser, muxer or payloader and its sink.
  ///
  /// ```
  /// encoded. ! queue leaky=upstream ! h264parse config-interval=-1 ! rtspclientsink location=…
  /// encoded. ! queue leaky=upstream ! h264parse config-interval=-1 ! mpegtsmux alignment=7 ! srtsink uri=…
  /// encoded. ! queue leaky=upstream ! h264parse config-interval=-1 ! flvmux streamable=true ! rtmp2sink location=…
  /// encoded. ! queue leaky=upstream ! h264parse config-interval=-1 ! hlssink2 location=…/segment%05d.ts …
  /// encoded. ! queue leaky=upstream ! appsink  → the RTSP server's media (gst-rtsp-server)
  /// ```
  ///
  /// The stream's ``HVTStream/tuning`` sets its properties on the elements of its factories.
  static func streamBranch(for stream: HVTStream) -> [HVTElementDescription] {
    let queue = HVTElementDescription(
      "queue", name: "stream-queue",
      ["leaky": "upstream", "max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "2000000000"])
    return ([queue] + streamOutput(for: stream.target)).map { element in
      stream.tuning.filter { $0.factory == element.factory }.flatMap(\.properties).reduce(element) {
        $0.setting($1.name, to: $1.value)
      }
    }
  }

  /// The factories of `target`'s branch, in order: what a stream's ``HVTStream/tuning`` may name. An RTSP
  /// server's payloader runs in its media (`rtph264pay`), after the branch's `appsink`.
  public static func streamBranchFactories(for target: HVTStreamTarget) -> [String] {
    ["queue"] + streamOutput(for: target).map(\.factory)
  }

  /// The elements of `target`'s branch after its queue.
  private static func streamOutput(for target: HVTStreamTarget) -> [HVTElementDescription] {
    let parser = HVTElementDescription("h264parse", name: "stream-parser", ["config-interval": "-1"])
    switch target {
    case .rtspServer:
      return [
        HVTElementDescription(
          "appsink", name: streamSinkName, ["sync": "false", "async": "false", "max-buffers": "30", "drop": "true"])
      ]
    case .rtspPush(let url):
      // Its own payloader (rtph264pay) inside; the parser repeats the parameter sets at every key frame.
      return [parser, HVTElementDescription("rtspclientsink", name: streamSinkName, ["location": url])]
    case .srt:
      return [
        parser, HVTElementDescription("mpegtsmux", name: "stream-muxer", ["alignment": "7"]),
        // The controller reconnects, with its events; srtsink's own retries would hold its thread.
        HVTElementDescription(
          "srtsink", name: streamSinkName,
          [
            "uri": target.srtSinkURI ?? "", "wait-for-connection": "false", "auto-reconnect": "false", "sync": "false",
            "async": "false",
          ]),
      ]
    case .rtmp(let url):
      return [
        parser, HVTElementDescription("flvmux", name: "stream-muxer", ["streamable": "true"]),
        HVTElementDescription("rtmp2sink", name: streamSinkName, ["location": url, "sync": "false", "async": "false"]),
      ]
    case .hls(let directory, let segmentDuration, let playlistLength):
      // hlssink2's `location` is a printf pattern: a % of the folder's own is doubled.
      let folder = directory.path.replacingOccurrences(of: "%", with: "%%")
      return [
        parser,
        HVTElementDescription(
          "hlssink2", name: streamSinkName,
          [
            "location": "\(folder)/\(HLSFolder.segmentPattern)",
            "playlist-location": directory.appendingPathComponent(HLSFolder.playlistName).path,
            "target-duration": String(segmentDuration), "playlist-length": String(playlistLength),
            "max-files": String(playlistLength + HVTStreamTarget.hlsSegmentsKeptAfterPlaylist),
            "send-keyframe-requests": "true",
          ]),
      ]
    }
  }

  /// The encodings of `streams` that need an encoder of their own (``needsStreamEncoder(for:)``), each
  /// once: the movies' first, then in order of first use.
  func streamEncodings(_ streams: [HVTStream]) -> [HVTStreamEncoding] {
    var encodings: [HVTStreamEncoding] = []
    for encoding in streams.map(\.encoding) where !encodings.contains(encoding) && needsStreamEncoder(for: encoding) {
      encodings.append(encoding)
    }
    return encodings.filter(\.isMovie) + encodings.filter { !$0.isMovie }
  }

  /// The streams' chains, each as `gst-launch-1.0` words with what it is: `streams` for the encoder of
  /// each encoding the streams have (the movies' first, then in order of first use; none for the movies'
  /// encoding with a pre-roll), then `stream TARGET` for each stream's branch, whose elements are named after its place
  /// in `streams` (`stream1-queue`, …) so that the names stay unique. The targets' secrets are masked: the
  /// chains are shown, never run.
  func streamChains(_ streams: [HVTStream], namingCapsFilters: Bool = false) -> [(title: String, words: [String])] {
    var chains: [(title: String, words: [String])] = []
    for encoding in streamEncodings(streams) {
      let (chain, tee) = streamEncoding(for: encoding)
      chains.append(
        ("streams", ["\(Self.teeName).", "!"] + Self.launchWords(chain + [tee], namingCapsFilters: namingCapsFilters)))
    }
    for (index, stream) in streams.enumerated() {
      var shown = stream
      shown.target = stream.target.masked
      let branch = Self.streamBranch(for: shown).map { element in
        let name = element.name ?? element.factory
        return element.named("stream\(index + 1)-" + (name.hasPrefix("stream-") ? name.dropFirst(7) : name[...]))
      }
      chains.append(
        (
          "stream \(stream.target)",
          ["\(streamSourceTeeName(for: stream.encoding)).", "!"]
            + Self.launchWords(branch, namingCapsFilters: namingCapsFilters)
        ))
    }
    return chains
  }
}

extension HVTStream {
  /// The indices of the ``tuning`` elements the target's branch does not have
  /// (``HVTPipelineModel/streamBranchFactories(for:)``).
  var untunable: [Int] {
    let factories = HVTPipelineModel.streamBranchFactories(for: target)
    return tuning.indices.filter { !factories.contains(tuning[$0].factory) }
  }

  /// Why `element` cannot be tuned: the branch has no element of its factory; the ones it has.
  func untunableReason(_ element: HVTElementDescription) -> String {
    "the \(target.kind) stream has no element '\(element.factory)' (its elements: "
      + "\(HVTPipelineModel.streamBranchFactories(for: target).joined(separator: ", ")))"
  }
}
