import Foundation
import HVTSupport
import Testing

@testable import HVTCamera

/// The secrets stream targets hold — passwords, SRT passphrases, RTMP stream keys — are never shown:
/// not in a target's description, an error, an event, a bus message, nor a launch line.
@Suite("Stream secrets", .serialized, .timeLimit(.minutes(2)))
struct StreamSecretsTests {
  @Test("descriptions mask passwords, passphrases, stream ids and stream keys; the rest of the URL stays")
  func descriptions() {
    let cases: [(HVTStreamTarget, String, [String])] = [
      (
        .rtmp(url: "rtmp://ingest.example/live2/abcd-efgh-ijkl"), "rtmp://ingest.example/live2/***",
        ["abcd-efgh-ijkl"]
      ),
      (
        .rtmp(url: "rtmp://u:pw9@ingest/app/key?token=t0k"), "rtmp://u:***@ingest/app/***?token=***",
        ["pw9", "t0k", "key"]
      ),
      (.rtmp(url: "rtmp://ingest/app"), "rtmp://ingest/app", []),
      (.rtspPush(url: "rtspt://ann:s3cr:et@[::1]:8554/live"), "rtspt://ann:***@[::1]:8554/live", ["s3cr:et"]),
      (
        .srt(uri: "srt://:9000?mode=listener&passphrase=0123456789abc&latency=200"),
        "srt://127.0.0.1:9000?mode=listener&passphrase=***&latency=200", ["0123456789abc"]
      ),
      (.srt(uri: "srt://gw:9000?streamid=#!::u=cam7,r=live"), "srt://gw:9000?streamid=***", ["#!::u=cam7,r=live"]),
      (
        .rtspServer(port: 8554, credentials: HVTStreamCredentials(user: "ann", password: "hunter22")),
        "rtsp://127.0.0.1:8554/cam", ["hunter22"]
      ),
    ]
    for (target, shown, secrets) in cases {
      #expect(target.description == shown)
      #expect(String(reflecting: target) == shown)
      #expect(Set(target.secrets) == Set(secrets), "\(target)")
      let said = target.masking("it said \(secrets.joined(separator: " and "))")
      #expect(secrets.allSatisfy { !said.contains($0) } && (secrets.isEmpty || said.contains(HVTStreamTarget.mask)))
      for secret in secrets {
        #expect(!String(describing: HVTStream(target: target)).contains(secret))
        #expect(!String(describing: HVTCameraEvent.streamDisconnected(target, reason: "", retry: nil)).contains(secret))
      }
    }
    #expect("\(HVTStreamCredentials(user: "ann", password: "hunter22"))" == "ann:***")
  }

  @Test("masking takes a secret out where it stands on its own, not from inside a longer word")
  func masking() {
    let text = "hvtcam: rtmp://h/live/cam failed; cam, 'cam' and camera"
    #expect(
      HVTStreamTarget.masking(text, secrets: ["cam"]) == "hvtcam: rtmp://h/live/*** failed; ***, '***' and camera")
    #expect(HVTStreamTarget.masking("a:b!c at a:b!c.", secrets: ["a:b!c", "b"]) == "*** at ***.")
  }

  @Test("a launch line writes the targets' secrets as ***")
  func launchLine() throws {
    let controller = try HVTCameraController(source: .simulated)
    controller.capturesAudio = false
    let streams = [
      HVTStream(target: .rtmp(url: "rtmp://127.0.0.1/live/Zq7KEY")),
      HVTStream(target: .srt(uri: "srt://127.0.0.1:9000?passphrase=Zq7PASSPHRASE")),
      HVTStream(target: .rtspPush(url: "rtspt://ann:Zq7PW@127.0.0.1/live")),
    ]
    let model = try controller.pipelineModel()
    for text in [
      model.launchCommand(mode: .video, output: "movie.mp4", frames: 30, streams: streams),
      model.engineDescription(movie: "movie.mp4", streams: streams),
    ] {
      #expect(!text.contains("Zq7") && text.contains("live/***"), "\(text)")
    }
  }

  @Test("push targets that fail: neither the error, the events nor the bus messages show their secrets")
  func failures() async throws {
    let camera = try TestCamera(mode: .video)
    let seen = Locked<[String]>([])
    let bus = camera.controller.busMessages
    let events = camera.controller.events
    let watchers = [
      Task { for await message in bus { seen.withLock { $0.append(message.description) } } },
      Task { for await event in events { seen.withLock { $0.append(String(describing: event)) } } },
    ]
    for target in [
      HVTStreamTarget.rtmp(url: "rtmp://127.0.0.1:1/live/Zq7rtmpKEY"),
      .rtspPush(url: "rtspt://ann:Zq7pushPW@127.0.0.1:1/live"),
      .srt(uri: "srt://127.0.0.1:1?passphrase=Zq7srtPASSPHRASE"),
    ] {
      let error = await #expect(throws: HVTCameraError.self) { try await camera.controller.startStreaming(to: target) }
      let text = String(describing: error)
      #expect(!text.contains("Zq7") && text.contains("***"), "\(text)")
      _ = try await camera.delegate.nextEvent { event -> Bool? in
        if case .streamDisconnected(target, _, _) = event { true } else { nil }
      }
    }
    watchers.forEach { $0.cancel() }
    let shown = seen.withLock { $0 }
    #expect(shown.contains { $0.contains("***") }, "\(shown)")
    #expect(!shown.contains { $0.contains("Zq7") }, "\(shown.filter { $0.contains("Zq7") })")
  }
}
