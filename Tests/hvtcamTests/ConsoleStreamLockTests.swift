import CConsole
import Foundation
import Glibc
import HVTSupport
import Testing

/// `writeAll(_:to:holding:)`, which the command line's output goes through: it holds the C library's lock
/// of a stream (standard error's, for hvtcam) while it writes, so that its line cannot land inside one
/// GStreamer or GLib is printing there (glibc 2.37 and later print to an unbuffered stream in pieces of
/// 128 bytes, under that lock).
@Suite("The command line's output and the C library's stream lock", .timeLimit(.minutes(1)))
struct ConsoleStreamLockTests {
  @Test("a write to a full pipe, under a stream's lock, keeps the lock until it is done; then it is free")
  func holdsTheLockWhileWriting() async throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (reader, writer) = (ends[0], ends[1])
    defer { close(reader) }
    // Fill the pipe, so that the next write waits until it is read.
    _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
    let chunk = [UInt8](repeating: 0x61, count: 4096)
    var filled = 0
    while chunk.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 { filled += chunk.count }
    _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) & ~O_NONBLOCK)
    // A stream of the test's own (standard error's lock would also stop the test library's output).
    let stream = try #require(fopen("/dev/null", "w"))
    defer { fclose(stream) }
    let line = Data("a line\n".utf8)
    let (results, finished) = AsyncStream.makeStream(of: Int32.self)
    let (threads, started) = AsyncStream.makeStream(of: String.self)
    // On a thread of its own: the write waits for the pipe, which this test empties.
    let address = Int(bitPattern: stream)
    Thread {
      // `/proc/thread-self` links to `PID/task/TID`.
      started.yield((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "")
      started.finish()
      let stream = UnsafeMutablePointer<FILE>(bitPattern: address)
      let result = stream.map { writeAll(line, to: writer, holding: $0) } ?? EBADF
      close(writer)
      finished.yield(result)
      finished.finish()
    }.start()
    var thread = ""
    for await path in threads { thread = path }
    // Once the writer's thread sleeps in the pipe's write (its wait channel, which the kernel names
    // `pipe_write` or `anon_pipe_write`), the lock must be held.
    try #require(thread.contains("/task/"), "the writer's thread: \(thread)")
    let channel = "/proc/\(thread)/wchan"
    while !((try? String(contentsOfFile: channel, encoding: .utf8)) ?? "").contains("pipe_write") {
      try Task.checkCancellation()
      await Task.yield()
    }
    let held = ftrylockfile(stream) != 0
    if !held { funlockfile(stream) }
    #expect(held, "the lock is held for as long as the write waits")
    // Read what filled the pipe: the write finishes, and the lock is given back.
    var buffer = [UInt8](repeating: 0, count: 65536)
    var read = 0
    while read < filled + line.count {
      let got = buffer.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
      try #require(got > 0, "the pipe ended after \(read) bytes")
      read += got
    }
    var result: Int32?
    for await value in results { result = value }
    #expect(result == 0)
    #expect(ftrylockfile(stream) == 0, "the lock is free once the write is done")
    funlockfile(stream)
  }

  @Test("the streams: standard output and error, none for another descriptor")
  func streams() {
    #expect(hvt_console_stream(STDOUT_FILENO) != nil)
    #expect(hvt_console_stream(STDERR_FILENO) != nil)
    #expect(hvt_console_stream(STDOUT_FILENO) != hvt_console_stream(STDERR_FILENO))
    #expect(hvt_console_stream(7) == nil)
  }
}
