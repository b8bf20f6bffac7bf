import Foundation
import HVTCamera

/// The options of `hvtcam stream` (and `describe`) that name stream targets, their encoding and who may
/// watch them, turned into the streams a command runs: the preset's, then the options' own.
enum StreamOptions {
  static let options: [CommandLineParser.Option] = [
    .init(
      names: ["--rtsp"], valueName: "[ADDRESS]:PORT/PATH",
      help:
        "Serve rtsp://ADDRESS:PORT/PATH (ADDRESS 127.0.0.1, this machine only, when left out; 0.0.0.0 or [::] "
        + "for every interface, which needs --rtsp-credentials or --allow-anonymous; PORT 0: a free one)."),
    .init(
      names: ["--rtsp-credentials"], valueName: "USER:PASSWORD",
      help:
        "Clients of every RTSP server (--rtsp's and the preset's) must give these; env:NAME or file:PATH reads "
        + "them from the environment or a file's first line, out of ps (as --rtsp-push, --srt and --rtmp do)."),
    .init(
      names: ["--allow-anonymous"], valueName: nil,
      help:
        "Let anyone on the network watch an RTSP server or SRT listener given a network ADDRESS without "
        + "credentials or passphrase (refused otherwise)."),
    .init(
      names: ["--rtsp-push"], valueName: "URL",
      help: "Push to an RTSP server (ANNOUNCE/RECORD): rtspt:// over TCP, rtspu:// over UDP, rtsp:// either."),
    .init(
      names: ["--srt"], valueName: "URI",
      help:
        "srt://HOST:PORT calls a listener; srt://:PORT?mode=listener waits for a caller on 127.0.0.1, "
        + "srt://ADDRESS:PORT?mode=listener on ADDRESS (with a passphrase of 10 to 79 characters, or "
        + "--allow-anonymous); latency in ms."),
    .init(names: ["--rtmp"], valueName: "URL", help: "Push to an RTMP ingest, e.g. rtmp://HOST/APP/KEY."),
    .init(
      names: ["--hls"], valueName: "DIR",
      help:
        "Write DIR/playlist.m3u8, listing the newest 5 segments of 2 s, and the segments (with the 2 before "
        + "them, for players still reading them, and the one being written) into a new or empty DIR, or one an "
        + "earlier stream wrote: a DIR holding anything else is refused, never touched."),
    .init(
      names: ["--stream-size"], valueName: "WIDTHxHEIGHT",
      help: "Stream at this size (cropped to its shape and scaled) with an encoder of their own, not the movies'."),
    .init(
      names: ["--stream-bitrate"], valueName: "BITS",
      help: "Stream at this bit rate, \(HVTCaptureLimits.videoBitRate.lowerBound) to "
        + "\(HVTCaptureLimits.videoBitRate.upperBound), with an encoder of their own (default: the movies', or "
        + "about 0.1 bit per pixel of --stream-size)."),
    .init(
      names: ["--stream-keyframe-interval"], valueName: "SECONDS",
      help:
        "Stream with a key frame at least this often, \(HVTCaptureLimits.keyFrameInterval), with an encoder of their own."
    ),
  ]

  /// The streams of `preset` then those the options name (in the order of the help), encoded as the
  /// encoding options say; `--rtsp-credentials` applies to every RTSP server among them and
  /// `--allow-anonymous` to every server on the network without credentials, each a usage error when
  /// there is none. A stream that cannot run is a usage error too, saying where it was asked for and why,
  /// as ``HVTStream/issues(in:)`` finds it for the API and a preset's checking.
  static func streams(_ arguments: ParsedArguments, preset: HVTPreset) throws -> [HVTStream] {
    let command = "hvtcam \(arguments.command)"
    let encoding = try Self.encoding(arguments, command: command)
    let requested = try targets(arguments, command: command)
    var streams = preset.streams + requested.map { HVTStream(target: $0.target, encoding: encoding) }
    let origins = preset.streams.indices.map { "the preset's streams[\($0)]" } + requested.map(\.origin)
    if let option = try SecretOption("--rtsp-credentials", of: arguments, command: command) {
      guard let credentials = HVTStreamCredentials(userAndPassword: option.value) else {
        throw UsageError("\(command): --rtsp-credentials takes USER:PASSWORD")
      }
      Console.hide([credentials.password])
      if option.onCommandLine { warnAboutCommandLine("--rtsp-credentials", command: command) }
      guard streams.contains(where: { $0.target.kind == "rtsp" }) else {
        throw UsageError(
          "\(command): --rtsp-credentials applies to an RTSP server (--rtsp, or a preset's), and none runs")
      }
      for index in streams.indices {
        if case .rtspServer(let port, let path, let address, _) = streams[index].target {
          streams[index].target = .rtspServer(port: port, path: path, address: address, credentials: credentials)
        }
      }
    }
    if arguments.flag("--allow-anonymous") {
      let open = streams.indices.filter { streams[$0].servesNetworkWithoutCredentials }
      guard !open.isEmpty else {
        throw UsageError(
          "\(command): --allow-anonymous applies to an RTSP server or SRT listener on a network address "
            + "without credentials, and none runs")
      }
      for index in open { streams[index].allowsAnonymous = true }
    }
    Console.hide(streams.flatMap(\.target.secrets))
    if let issue = HVTStream.issues(in: streams).first {
      throw UsageError("\(command): \(origins[issue.stream]): \(issue.reason)")
    }
    return streams
  }

  /// Says, on stderr, that the secret `option` holds was given on the command line.
  private static func warnAboutCommandLine(_ option: String, command: String) {
    Console.error(
      "\(command): note: ps shows the secret in \(option) to every user of this machine; "
        + "\(option) env:NAME or file:PATH reads it from the environment or a file instead")
  }

  /// The targets the options name, in the order of the help, each with where it was asked for: the
  /// option and its value (a URL's secrets masked; `env:NAME` or `file:PATH` as given).
  private static func targets(_ arguments: ParsedArguments, command: String) throws -> [(
    origin: String, target: HVTStreamTarget
  )] {
    var targets: [(origin: String, target: HVTStreamTarget)] = []
    if let spec = arguments["--rtsp"] {
      guard let target = HVTStreamTarget.rtspServer(spec: spec) else {
        throw UsageError("\(command): --rtsp takes [ADDRESS]:PORT/PATH, e.g. :8554/cam, not \"\(spec)\"")
      }
      targets.append(("--rtsp \(spec)", target))
    }
    let pushes: [(option: String, target: (String) -> HVTStreamTarget)] = [
      ("--rtsp-push", { .rtspPush(url: $0) }), ("--srt", { .srt(uri: $0) }), ("--rtmp", { .rtmp(url: $0) }),
    ]
    for (name, target) in pushes {
      guard let option = try SecretOption(name, of: arguments, command: command) else { continue }
      let made = target(option.value)
      Console.hide(made.secrets)
      if option.onCommandLine, !made.secrets.isEmpty { warnAboutCommandLine(name, command: command) }
      targets.append(("\(name) \(option.onCommandLine ? made.description : arguments[name] ?? "")", made))
    }
    if let directory = arguments["--hls"] {
      guard !directory.isEmpty else { throw UsageError("\(command): --hls needs a folder, not ''") }
      targets.append(("--hls \(directory)", .hls(directory: URL(fileURLWithPath: directory))))
    }
    return targets
  }

  /// The streams' encoding the options ask for: the movies' unless `--stream-size`, `--stream-bitrate` or
  /// `--stream-keyframe-interval` says otherwise.
  private static func encoding(_ arguments: ParsedArguments, command: String) throws -> HVTStreamEncoding {
    let size = try arguments["--stream-size"].map { text -> HVTFrameSize in
      guard case .size(let size) = HVTCaptureSize(commandLineName: text) else {
        throw UsageError("\(command): --stream-size takes WIDTHxHEIGHT from 16x16 to 7680x4320, not '\(text)'")
      }
      return size
    }
    return HVTStreamEncoding(
      size: size, bitRate: try arguments.integer("--stream-bitrate", in: HVTCaptureLimits.videoBitRate),
      keyFrameInterval: try arguments.seconds("--stream-keyframe-interval", in: HVTCaptureLimits.keyFrameInterval))
  }
}
