import Foundation
import HVTCamera
import MediaInspection
import Testing

/// One target the engine cannot honour, as each way of asking for it writes it.
struct InvalidStreamCase: Sendable, CustomTestStringConvertible {
  /// The preset key and the option (`--KEY`, but `--rtsp-push` for `rtspPush`).
  let kind: String
  /// The target as written.
  let value: String
  /// What the reason says, wherever it is given.
  let reason: String

  var testDescription: String { "\(kind) \(value)" }
  var option: String { kind == "rtspPush" ? "--rtsp-push" : "--\(kind)" }

  /// The target the API is given for it.
  var target: HVTStreamTarget? {
    switch kind {
    case "rtsp": HVTStreamTarget.rtspServer(spec: value)
    case "rtspPush": .rtspPush(url: value)
    case "srt": .srt(uri: value)
    default: .rtmp(url: value)
    }
  }
}

/// Stream targets are checked once (``HVTStream/issues(in:)``), and the API, `hvtcam stream` and `hvtcam
/// presets validate` refuse the same ones with the same reason, each saying where: `cannot stream to
/// TARGET:`, `hvtcam stream: --OPTION VALUE:`, `FILE:LINE:COLUMN: streams[N].KEY:`.
@Suite("Stream validation, everywhere", .timeLimit(.minutes(2)))
struct StreamValidationTests {
  static let cases = [
    InvalidStreamCase(kind: "srt", value: "srt://", reason: "the SRT URI names no host to call"),
    InvalidStreamCase(
      kind: "srt", value: "srt://:99999?mode=listener", reason: "port 99999 is not between 1 and 65535"),
    InvalidStreamCase(kind: "srt", value: "srt://127.0.0.1:9000?latency=-5", reason: "the SRT latency \"-5\" is not"),
    InvalidStreamCase(
      kind: "srt", value: "srt://127.0.0.1:9000?passphrase=short", reason: "passphrase has 5 characters: SRT takes 10"),
    InvalidStreamCase(kind: "srt", value: "srt://127.0.0.1:9000?mode=lisener", reason: "the SRT mode \"lisener\""),
    InvalidStreamCase(kind: "srt", value: "srt://[zz]:9000", reason: "host [zz] is not an IPv6 address"),
    InvalidStreamCase(
      kind: "srt", value: "srt://0.0.0.0:9000?mode=listener", reason: "would let anyone on the network"),
    InvalidStreamCase(kind: "rtsp", value: ":99999/cam", reason: "the RTSP port 99999 is not between 0 and 65535"),
    InvalidStreamCase(kind: "rtsp", value: ":8554/cam?x=1", reason: "holds a query or fragment"),
    InvalidStreamCase(kind: "rtsp", value: "0.0.0.0:8554/cam", reason: "would let anyone on the network watch"),
    InvalidStreamCase(kind: "rtsp", value: "cam.local:8554/cam", reason: "is not an IP address"),
    InvalidStreamCase(
      kind: "rtmp", value: "rtmp://ingest:99999/app/key", reason: "port 99999 is not between 1 and 65535"),
    InvalidStreamCase(kind: "rtmp", value: "rtmp://ingest/app", reason: "needs an application and a stream key"),
    InvalidStreamCase(kind: "rtspPush", value: "rtspt://127.0.0.1:0/live", reason: "port 0 is not between 1 and 65535"),
    InvalidStreamCase(kind: "rtspPush", value: "http://127.0.0.1/live", reason: "must start with rtsp://"),
  ]

  @Test("each is refused by the API, hvtcam stream and presets validate, with the same reason", arguments: cases)
  func everywhere(_ invalid: InvalidStreamCase) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = try #require(invalid.target, "\(invalid.value) is read as a target by the API")
    let api = try #require(HVTStream(target: target).invalidReason, "the API takes \(invalid.value)")
    #expect(api.contains(invalid.reason), "\(api)")

    let command = try await HVTCam.run(["stream"] + HVTCam.simulated + [invalid.option, invalid.value])
    #expect(command.status == 64, "\(command)")
    #expect(
      command.standardError.contains("hvtcam stream: \(invalid.option) ") && command.standardError.contains(": \(api)"),
      "\(command)")

    let preset = try directory.preset(streams: "[{ \"\(invalid.kind)\": \"\(invalid.value)\" }]")
    let validated = try await HVTCam.run(["presets", "validate", preset])
    #expect(validated.status == 1, "\(validated)")
    #expect(
      // Line 6, column: the value's opening quote after `  "streams": [{ "KIND": `.
      validated.standardError.contains("\(preset):6:\(21 + invalid.kind.count): streams[0].\(invalid.kind): \(api)"),
      "\(validated)")
  }

  @Test(
    "the same target twice and two RTSP paths on one port: refused by presets validate, by hvtcam stream beside the preset, and by the API's check"
  )
  func conflicts() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (first, key, value, reason) in [
      (#"{ "rtmp": "rtmp://ingest/app/key" }"#, "rtmp", "rtmp://ingest/app/key", "it is streamed to already"),
      (#"{ "rtsp": ":8554/cam" }"#, "rtsp", ":8554/other", "the RTSP port 8554 is served already"),
    ] {
      let second = "{ \"\(key)\": \"\(value)\" }"
      let both = try directory.preset(streams: "[\(first), \(second)]")
      let validated = try await HVTCam.run(["presets", "validate", both])
      #expect(
        validated.status == 1 && validated.standardError.contains(": streams[1].\(key): \(reason)"), "\(validated)")
      let single = try directory.preset(streams: "[\(first)]")
      let command = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--preset", single, "--\(key)", value])
      let shown = key == "rtmp" ? "rtmp://ingest/app/***" : value
      #expect(
        command.status == 64 && command.standardError.contains("hvtcam stream: --\(key) \(shown): \(reason)"),
        "\(command)")
    }
    let issues = HVTStream.issues(in: [
      HVTStream(target: .rtspServer(port: 8554, path: "/cam")),
      HVTStream(target: .rtspServer(port: 8554, path: "/two")),
    ])
    #expect(
      issues.map(\.stream) == [1] && issues.first?.reason.contains("the RTSP port 8554 is served already") == true)
  }
}
