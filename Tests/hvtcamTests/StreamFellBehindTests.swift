import Foundation
import MediaInspection
import Testing

/// `hvtcam stream` to a server behind a link that becomes slower than the stream for a while, on
/// 127.0.0.1: the stream goes on, says it fell behind, and what the server receives decodes whole, with a
/// gap where the network fell behind.
///
/// The link still takes data while slow: a server that takes nothing at all for 5 s is a lost stream
/// (`rtmp2sink`'s `timeout`), tried again, which the reconnection tests cover.
@Suite("hvtcam stream: a network that falls behind", .timeLimit(.minutes(2)))
struct StreamFellBehindTests {
  @Test(
    "an RTMP server behind a link slowed to 64 kB/s until the stream fills the sockets and the branch's 2 s: hvtcam says the stream fell behind, never that it was lost; what the server receives has a gap, a key frame after each, and every packet decodes"
  )
  func slowLink() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let port = try FreePort.tcp()
    let received = directory.path("received.ts")
    let server = try await FFmpegServer("rtmp://127.0.0.1:\(port)/live/cam", output: received)
    defer { server.process.send(SIGKILL) }
    let link = try await SlowLink(toServerOn: port)
    defer { link.process.send(SIGKILL) }
    // A high bit rate (about 6 Mbit/s of what x264 makes of the bars at 640x480) fills the sockets' buffers
    // in seconds rather than a minute.
    let (stream, _) = try await StreamCommandTests.startStreaming([
      "--stream-bitrate", "20000000", "--rtmp", "rtmp://127.0.0.1:\(link.port)/live/cam", "--duration", "120",
    ])
    defer { stream.send(SIGKILL) }
    try await server.waitForFrames(30)
    // The line said for this slow spell (a loaded machine may have fallen behind already as it started).
    let (mark, written, slowed) = (stream.standardErrorSoFar.count, server.timeSoFar, ContinuousClock.now)
    try await link.slowDown()
    let behind = try await stream.requireStandardErrorLine("the stream falling behind", from: mark) {
      $0.contains(" fell behind; frames left out so far: ")
    }
    try await link.speedUp()
    // What the sockets and the branch held, then frames made a second after the link was fast again: from
    // the key frame the branch waited for, past the gap.
    let slowFor = (ContinuousClock.now - slowed) / .seconds(1)
    try await stream.explaining("the streaming hvtcam's stderr") {
      try await server.waitForTime(written + slowFor + 1)
    }
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    #expect(!result.standardError.contains(" lost: "), "\(result)")
    // The stream's end ends the link, FFmpeg's input, and FFmpeg with it.
    _ = await server.process.result()

    let packets = try await MediaInspector.packets(received)
    let gaps = packets.afterGaps(longerThan: 1.5 / 30)
    #expect(packets.keyFrames.first == 0, "starts on a key frame: \(packets)")
    #expect(!gaps.isEmpty, "frames were left out while the link was slow (\(behind)): \(packets)")
    #expect(gaps.allSatisfy(packets.keyFrames.contains), "after each gap, a key frame: gaps at \(gaps); \(packets)")
    #expect(try await MediaInspector.probe(received).decodedFrames == packets.count, "every packet decodes: \(packets)")
  }
}
