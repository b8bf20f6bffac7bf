import Foundation
import Glibc
import MediaInspection
import Testing

/// The tests' own way of starting tools (``SpawnedChild``) signals a child only while it is there: a pid
/// kept after the child was reaped may belong to another process, or to a thread of the test process.
@Suite("Spawned children: signals reach the child, never a pid it left behind", .timeLimit(.minutes(1)))
struct SpawnedChildTests {
  @Test("a running child gets the signal; once it has ended, no signal is sent")
  func signalOnlyWhileThere() throws {
    // `cat` reading a pipe this test keeps open runs until it is signalled.
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { ends.forEach { close($0) } }
    let running = try SpawnedChild(
      "/bin/cat", [], environment: [:], input: .descriptor(ends[0]), output: .null, error: .null)
    #expect(running.signal(0), "the child is there")
    #expect(running.signal(SIGKILL))
    let ending = running.waitForExit()
    #expect(ending.signalled && ending.status == SIGKILL, "\(ending)")
    #expect(!running.signal(0) && !running.signal(SIGKILL), "the child is gone: nothing is sent")

    let finished = try SpawnedChild("/bin/true", [], environment: [:], output: .null, error: .null)
    #expect(finished.waitForExit() == (0, false))
    #expect(!finished.signal(SIGTERM), "ended by itself: nothing is sent")
  }
}
