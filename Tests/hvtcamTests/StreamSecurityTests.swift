import Foundation
import MediaInspection
import Testing

/// Who can reach `hvtcam stream`'s servers: by default this machine only; the network only when asked
/// for with an address, and then only with credentials or an explicit `--allow-anonymous`; credentials
/// on every RTSP server, or the start refused.
@Suite("hvtcam stream: access", .serialized, .timeLimit(.minutes(3)))
struct StreamSecurityTests {
  /// The local addresses (`ADDRESS:PORT`) of the TCP and UDP sockets process `pid` listens on, as `ss`
  /// lists them.
  static func listeningAddresses(of pid: Int32) async throws -> [String] {
    let listed = try await Subprocess.run(tool: "ss", ["-H", "-l", "-n", "-t", "-u", "-p"])
    return listed.outputLines.filter { $0.contains("pid=\(pid),") }.compactMap { line in
      let columns = line.split(separator: " ", omittingEmptySubsequences: true)
      return columns.count > 4 ? String(columns[4]) : nil
    }
  }

  @Test("without an address, an RTSP server and an SRT listener listen on 127.0.0.1 only, as ss lists them")
  func loopbackByDefault() async throws {
    let port = try FreePort.udp()
    let (stream, urls) = try await StreamCommandTests.startStreaming(
      ["--rtsp", ":0/cam", "--srt", "srt://:\(port)?mode=listener", "--duration", "60"], targets: 2)
    defer { stream.send(SIGKILL) }
    let listening = try await Self.listeningAddresses(of: stream.processIdentifier)
    #expect(listening.count == 2 && listening.allSatisfy { $0.hasPrefix("127.0.0.1:") }, "\(listening)")
    #expect(listening.contains("127.0.0.1:\(port)"), "\(listening)")
    #expect(urls[0].hasPrefix("rtsp://127.0.0.1:") && urls[1] == "srt://127.0.0.1:\(port)?mode=listener", "\(urls)")
    stream.send(SIGINT)
    #expect(await stream.result().succeeded)
  }

  @Test(
    "a server on a network address without credentials is refused at the start; with --allow-anonymous it listens there"
  )
  func networkNeedsConsent() async throws {
    let port = try FreePort.udp()
    for target in [["--rtsp", "0.0.0.0:0/cam"], ["--srt", "srt://0.0.0.0:\(port)?mode=listener"]] {
      let refused = try await HVTCam.run(["stream"] + HVTCam.simulated + target + ["--duration", "5"])
      #expect(
        refused.status == 64 && refused.standardError.contains("would let anyone on the network watch"),
        "\(refused)")
      let (stream, _) = try await StreamCommandTests.startStreaming(target + ["--allow-anonymous", "--duration", "60"])
      defer { stream.send(SIGKILL) }
      let listening = try await Self.listeningAddresses(of: stream.processIdentifier)
      #expect(listening.count == 1 && listening.allSatisfy { $0.hasPrefix("0.0.0.0:") }, "\(target): \(listening)")
      stream.send(SIGINT)
      #expect(await stream.result().succeeded)
    }
    let loopback = try await HVTCam.run(
      ["stream"] + HVTCam.simulated + ["--rtsp", ":0/cam", "--allow-anonymous", "--duration", "5"])
    #expect(loopback.status == 64 && loopback.standardError.contains("--allow-anonymous applies to"), "\(loopback)")
  }

  /// Servers, where their credentials come from, and the credentials each must then take.
  struct Protection: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let presetStreams: String?
    let arguments: [String]
    /// The path of each server and the credentials it must take.
    let expected: [(path: String, credentials: String)]
  }

  static let protections = [
    Protection(
      testDescription: "--rtsp with --rtsp-credentials", presetStreams: nil,
      arguments: ["--rtsp", ":0/cam", "--rtsp-credentials", "ann:s3cret:pw"], expected: [("/cam", "ann:s3cret:pw")]),
    Protection(
      testDescription: "a preset's RTSP server with --rtsp-credentials", presetStreams: #"[{ "rtsp": ":0/preset" }]"#,
      arguments: ["--rtsp-credentials", "ann:s3cret"], expected: [("/preset", "ann:s3cret")]),
    Protection(
      testDescription: "a preset's RTSP server with credentials of its own on every interface",
      presetStreams: #"[{ "rtsp": "0.0.0.0:0/preset", "credentials": "bob:hunter22" }]"#, arguments: [],
      expected: [("/preset", "bob:hunter22")]),
    Protection(
      testDescription: "--rtsp and a preset's RTSP server with its own credentials, and --rtsp-credentials",
      presetStreams: #"[{ "rtsp": ":0/preset", "credentials": "bob:hunter22" }]"#,
      arguments: ["--rtsp", "[::1]:0/cam", "--rtsp-credentials", "ann:s3cret"],
      expected: [("/preset", "ann:s3cret"), ("/cam", "ann:s3cret")]),
  ]

  @Test(
    "credentials reach every RTSP server they name: DESCRIBE without them or with others is 401, with them 200",
    arguments: protections)
  func protected(_ protection: Protection) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let preset = try protection.presetStreams.map { try directory.preset(streams: $0) }
    let (stream, urls) = try await StreamCommandTests.startStreaming(
      (preset.map { ["--preset", $0] } ?? []) + protection.arguments + ["--duration", "60"],
      targets: protection.expected.count)
    defer { stream.send(SIGKILL) }
    for (path, credentials) in protection.expected {
      let url = try #require(urls.first { $0.hasSuffix(path) }, "\(urls)")
      #expect(try RTSPRequest.describeStatus(url) == 401, "\(url)")
      #expect(try RTSPRequest.describeStatus(url, credentials: "ann:wrong") == 401, "\(url)")
      #expect(try RTSPRequest.describeStatus(url, credentials: credentials) == 200, "\(url)")
    }
    // The preset's own credentials gave way to --rtsp-credentials.
    if protection.arguments.contains("--rtsp-credentials"), let url = urls.first(where: { $0.hasSuffix("/preset") }) {
      #expect(try RTSPRequest.describeStatus(url, credentials: "bob:hunter22") == 401, "\(url)")
    }
    stream.send(SIGINT)
    #expect(await stream.result().succeeded)
  }

  @Test("credential options that would apply to nothing are refused at the start, and nothing runs")
  func appliesToNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for arguments in [
      ["--hls", directory.path("hls"), "--rtsp-credentials", "ann:s3cret"],
      ["--srt", "srt://127.0.0.1:9", "--rtsp-credentials", "ann:s3cret"],
      ["--hls", directory.path("hls"), "--allow-anonymous"],
    ] {
      let result = try await HVTCam.run(["stream"] + HVTCam.simulated + arguments + ["--duration", "5"])
      #expect(result.status == 64 && result.standardError.contains(" applies to "), "\(arguments): \(result)")
    }
    #expect(try directory.contents().isEmpty)
  }

  @Test(
    "an SRT listener on the network takes a passphrase of 10 characters or more: a reader with it reads, one without it does not; a shorter one is refused, with SRT's minimum"
  )
  func srtPassphrase() async throws {
    let port = try FreePort.udp()
    let short = try await HVTCam.run(
      ["stream"] + HVTCam.simulated + ["--srt", "srt://0.0.0.0:\(port)?mode=listener&passphrase=tooshort"])
    #expect(
      short.status == 64 && short.standardError.contains("passphrase has 8 characters: SRT takes 10 to 79"), "\(short)")
    let passphrase = "correcthorsebattery"
    let (stream, _) = try await StreamCommandTests.startStreaming(
      ["--srt", "srt://0.0.0.0:\(port)?mode=listener&passphrase=\(passphrase)", "--duration", "60"])
    defer { stream.send(SIGKILL) }
    let url = "srt://127.0.0.1:\(port)"
    let locked = try await MediaInspector.run("timeout", ["10", "ffprobe", "-v", "error", url])
    #expect(locked.status != 0, "\(locked.output)")
    #expect(try await StreamCommandTests.probe("\(url)?passphrase=\(passphrase)") == "h264,640,480")
    stream.send(SIGINT)
    #expect(await stream.result().succeeded)
  }
}
