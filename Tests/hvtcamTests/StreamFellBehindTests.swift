import Foundation
import MediaInspection
import Testing

/// `hvtcam stream` to a server that stops reading for a while, on 127.0.0.1: the stream goes on, says it
/// fell behind, and what the server receives decodes whole, with a gap where the network fell behind.
@Suite("hvtcam stream: a network that falls behind", .timeLimit(.minutes(2)))
struct StreamFellBehindTests {
  @Test(
    "an RTMP server stopped (SIGSTOP) until its stream fills the socket and the branch's 2 s: hvtcam says the stream fell behind; what the server then receives has a gap, a key frame after each, and every packet decodes"
  )
  func serverStopsReading() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = "rtmp://127.0.0.1:\(try FreePort.tcp())/live/cam"
    let received = directory.path("received.ts")
    let server = try await FFmpegServer(url, output: received)
    defer { server.process.send(SIGKILL) }
    // A high bit rate (about 6 Mbit/s of what x264 makes of the bars at 640x480) fills the sockets' buffers
    // in seconds rather than a minute.
    let (stream, _) = try await StreamCommandTests.startStreaming([
      "--stream-bitrate", "20000000", "--rtmp", url, "--duration", "120",
    ])
    defer { stream.send(SIGKILL) }
    try await server.waitForFrames(30)
    // The line said for this stop (a loaded machine may have fallen behind already as the stream started).
    let (mark, written, stopped) = (stream.standardErrorSoFar.count, server.timeSoFar, ContinuousClock.now)
    server.process.send(SIGSTOP)
    let behind = try await stream.requireStandardErrorLine("the stream falling behind", from: mark) {
      $0.contains(" fell behind; frames left out so far: ")
    }
    server.process.send(SIGCONT)
    // What the sockets and the branch held, then frames made a second after the server came back: from
    // the key frame the branch waited for, past the gap.
    let stoppedFor = (ContinuousClock.now - stopped) / .seconds(1)
    try await stream.explaining("the streaming hvtcam's stderr") {
      try await server.waitForTime(written + stoppedFor + 1)
    }
    stream.send(SIGINT)
    let result = await stream.result()
    #expect(result.succeeded, "\(result)")
    // The stream's end ends FFmpeg's input, and FFmpeg with it.
    _ = await server.process.result()

    let packets = try await MediaInspector.packets(received)
    let gaps = packets.afterGaps(longerThan: 1.5 / 30)
    #expect(packets.keyFrames.first == 0, "starts on a key frame: \(packets)")
    #expect(!gaps.isEmpty, "frames were left out while the server read nothing (\(behind)): \(packets)")
    #expect(gaps.allSatisfy(packets.keyFrames.contains), "after each gap, a key frame: gaps at \(gaps); \(packets)")
    #expect(try await MediaInspector.probe(received).decodedFrames == packets.count, "every packet decodes: \(packets)")
  }
}
