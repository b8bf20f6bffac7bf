import Foundation
import MediaInspection
import Testing

/// `hvtcam stream` and `describe` never print a stream's secret, and take them from the environment or a
/// file, where `ps` does not show them.
@Suite(
  "hvtcam stream: secrets", .serialized, .timeLimit(.minutes(3)),
  .enabled(
    if: MediaInspector.hasFFprobe && RTSPRecordServer.unavailableReason == nil,
    "\(RTSPRecordServer.unavailableReason ?? "ffprobe is missing")"))
struct StreamSecretsCommandTests {
  /// One of each kind of secret, unlike anything else printed.
  static let (rtspPassword, pushPassword) = ("Zq7rtspPASS", "Zq7pushPASS")
  static let (passphrase, key) = ("Zq7srtPASSPHRASE", "Zq7rtmpKEY")

  @Test(
    "with -v, through a lost server, on stdout and stderr: no password, passphrase or stream key; env: and file: keep them out of the command line"
  )
  func nothingPrinted() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rtmp = "rtmp://127.0.0.1:\(try FreePort.tcp())/live/\(Self.key)"
    let rtmpServer = try await FFmpegServer(rtmp, output: directory.path("rtmp.ts"))
    defer { rtmpServer.process.send(SIGKILL) }
    let rtspServer = try await RTSPRecordServer(output: directory.path("push"))
    defer { rtspServer.process.send(SIGKILL) }
    let push = "rtspt://ann:\(Self.pushPassword)@127.0.0.1:\(rtspServer.port)/live"
    try "\(rtmp)\n".write(toFile: directory.path("rtmp.url"), atomically: true, encoding: .utf8)
    let srtPort = try FreePort.udp()
    let environment = HVTCam.environment(setting: [
      "CAM_LOGIN": "ann:\(Self.rtspPassword)", "CAM_PUSH": push,
    ])
    let (stream, urls) = try await StreamCommandTests.startStreaming(
      [
        "-v", "--rtsp", ":0/cam", "--rtsp-credentials", "env:CAM_LOGIN", "--rtsp-push", "env:CAM_PUSH", "--rtmp",
        "file:\(directory.path("rtmp.url"))", "--srt", "srt://:\(srtPort)?mode=listener&passphrase=\(Self.passphrase)",
        "--duration", "60",
      ], targets: 4, environment: environment)
    defer { stream.send(SIGKILL) }
    let commandLine = try String(contentsOfFile: "/proc/\(stream.processIdentifier)/cmdline", encoding: .utf8)
    for secret in [Self.rtspPassword, Self.pushPassword, Self.key] {
      #expect(!commandLine.contains(secret), "\(commandLine)")
    }
    // Each is used: a client with the RTSP password and one with the SRT passphrase read the streams.
    let rtsp = try #require(urls.first { $0.hasPrefix("rtsp://") })
    let login = rtsp.replacingOccurrences(of: "rtsp://", with: "rtsp://ann:\(Self.rtspPassword)@")
    #expect(try await StreamCommandTests.probe(login, ["-rtsp_transport", "tcp"]) == "h264,640,480")
    #expect(
      try await StreamCommandTests.probe("srt://127.0.0.1:\(srtPort)?passphrase=\(Self.passphrase)") == "h264,640,480")
    try await rtmpServer.waitForFrames(30)
    try await rtspServer.waitForFrames(from: 1)
    await rtmpServer.kill()
    _ = try await stream.requireStandardErrorLine("the RTMP stream lost") { $0.hasPrefix("stream to rtmp://") }
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    let printed = result.standardOutput + result.standardError
    #expect(printed.contains("stream to rtmp://127.0.0.1:") && printed.contains("/live/*** lost: "), "\(result)")
    #expect(printed.contains("rtspt://ann:***@127.0.0.1"), "\(result)")
    #expect(printed.contains("note: ps shows the secret in --srt"), "\(result)")
    for secret in [Self.rtspPassword, Self.pushPassword, Self.passphrase, Self.key] {
      #expect(!printed.contains(secret), "\(secret) was printed")
    }
  }

  @Test("describe writes the secrets as *** and says so; a source that cannot be read is a usage error naming it")
  func describeAndSources() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let described = try await HVTCam.run(
      ["describe"] + HVTCam.simulated + [
        "--mode", "video", "--rtmp", "env:CAM_RTMP", "--srt", "srt://127.0.0.1:9000?passphrase=\(Self.passphrase)",
        "--rtsp-push", "rtspt://ann:\(Self.pushPassword)@127.0.0.1/live",
      ], environment: HVTCam.environment(setting: ["CAM_RTMP": "rtmp://127.0.0.1/live/\(Self.key)"]))
    #expect(described.succeeded, "\(described)")
    let printed = described.standardOutput + described.standardError
    #expect(!printed.contains("Zq7") && described.standardOutput.contains("rtmp://127.0.0.1/live/***"), "\(described)")
    #expect(described.standardError.contains("secrets are written as ***"), "\(described)")
    for (arguments, said) in [
      (["--rtmp", "env:HVTCAM_NO_SUCH_VARIABLE"], "the environment has no HVTCAM_NO_SUCH_VARIABLE"),
      (["--rtsp", ":0/cam", "--rtsp-credentials", "file:\(directory.path("missing"))"], "cannot be read"),
    ] {
      let result = try await HVTCam.run(["stream"] + HVTCam.simulated + arguments)
      #expect(result.status == 64 && result.standardError.contains(said), "\(result)")
    }
  }
}
