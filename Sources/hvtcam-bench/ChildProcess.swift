// The benchmark's system-call seam: child processes started with posix_spawn, their output read from a
// pipe, their end and CPU time collected with wait4, SIGKILL sent with kill. (Foundation's Process gives
// no resource usage.) Nothing else in the benchmark calls the C library directly.
import Dispatch
import Foundation
import HVTSupport

/// A child process with its standard output read line by line as it arrives (standard error is shared
/// with the benchmark's), ended with `wait()` which reports its CPU time.
final class ChildProcess: Sendable {
  /// How the process ended and what it cost.
  struct Ending: Sendable {
    /// The exit status, or the signal number when `signalled`.
    var status: Int32
    /// Whether a signal ended it.
    var signalled: Bool
    /// User plus system CPU time of the process and the children it waited for, in seconds (wait4).
    var cpuSeconds: Double
    /// Peak resident set size in MiB (wait4's `ru_maxrss`).
    var maxResidentMiB: Double
    /// Everything it printed on standard output.
    var output: [String]
  }

  private struct Lines {
    var lines: [String] = []
    var partial = Data()
    var closed = false
    var waiters: [(matches: @Sendable (String) -> Bool, awaited: Awaited<String>)] = []
  }

  let pid: pid_t
  private let lines = Locked(Lines())
  private let readerDone = DispatchSemaphore(value: 0)

  /// Starts `executable` with `arguments` (and this process's environment plus `environment`). With
  /// `quiet`, its standard error goes to /dev/null (for tools whose expected complaints are noise).
  init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], quiet: Bool = false) throws {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw BenchError.failed(SystemCallError("pipe").description) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    posix_spawn_file_actions_addclose(&actions, pipe[1])
    if quiet { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { _, new in new }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable, &actions, nil, argv, envp)
    close(pipe[1])
    guard spawned == 0 else {
      close(pipe[0])
      throw BenchError.failed("cannot start \(executable): \(SystemCallError("posix_spawn", code: spawned))")
    }
    pid = child
    let readEnd = pipe[0]
    DispatchQueue.global().async { [lines, readerDone] in
      var buffer = [UInt8](repeating: 0, count: 16384)
      while true {
        let count = read(readEnd, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        let complete = lines.withLock { state -> [String] in
          state.partial.append(contentsOf: buffer[0..<count])
          var found: [String] = []
          while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
            found.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
            state.partial.removeSubrange(state.partial.startIndex...newline)
          }
          state.lines += found
          return found
        }
        for line in complete { ChildProcess.offer(line, to: lines) }
      }
      close(readEnd)
      let orphans = lines.withLock { state in
        state.closed = true
        defer { state.waiters = [] }
        return state.waiters.map(\.awaited)
      }
      orphans.forEach { $0.fail(.failed("the child process closed its output")) }
      readerDone.signal()
    }
  }

  private static func offer(_ line: String, to lines: Locked<Lines>) {
    let due = lines.withLock { state -> [Awaited<String>] in
      let due = state.waiters.filter { $0.matches(line) }.map(\.awaited)
      state.waiters.removeAll { $0.matches(line) }
      return due
    }
    due.forEach { $0.fulfill(line) }
  }

  /// Waits for the first output line (already printed or still to come) that `matches` accepts.
  func waitForLine(_ what: String, seconds: Double = 60, matching matches: @escaping @Sendable (String) -> Bool)
    throws -> String
  {
    let awaited = Awaited<String>()
    let found = lines.withLock { state -> String? in
      if let line = state.lines.first(where: matches) { return line }
      if !state.closed { state.waiters.append((matches, awaited)) }
      return nil
    }
    if let found { return found }
    return try awaited.wait(what, seconds: seconds)
  }

  /// Waits for the first output line `matches` accepts, then `delay` from that moment, then kills the
  /// process with `SIGKILL` and waits for its end; returns the line. If the line never comes, the process
  /// is killed at once and the wait's error thrown.
  func kill(after delay: Duration, from what: String, matching matches: @escaping @Sendable (String) -> Bool)
    throws -> String
  {
    defer {
      send(SIGKILL)
      _ = wait()
    }
    let line = try waitForLine(what, matching: matches)
    waitForSchedule(until: .now + delay)
    return line
  }

  /// Sends a signal (e.g. `SIGKILL`). Wraps `kill(2)`.
  func send(_ signal: Int32) {
    _ = Glibc.kill(pid, signal)
  }

  /// Waits for the process to end and collects its status and CPU time; a process still running after
  /// `timeout` seconds is killed (a watchdog against a hung tool, which then ends with `SIGKILL`). Wraps
  /// `wait4(2)`.
  func wait(timeout: Double = 300) -> Ending {
    let ended = Locked(false)
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [pid] in
      guard !ended.withLock({ $0 }) else { return }
      FileHandle.standardError.write(
        Data("hvtcam-bench: process \(pid) still running after \(Int(timeout)) s; killed\n".utf8))
      _ = Glibc.kill(pid, SIGKILL)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    ended.withLock { $0 = true }
    readerDone.wait()
    let signal = status & 0x7f
    let signalled = signal != 0 && signal != 0x7f
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return Ending(
      status: signalled ? signal : (status >> 8) & 0xff, signalled: signalled,
      cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), maxResidentMiB: Double(usage.ru_maxrss) / 1024,
      output: lines.withLock { $0.lines })
  }

  /// This benchmark's own executable (to run it as a child in one of its child modes).
  static var ownExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  /// Finds a tool on `PATH`.
  static func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// This process's CPU time (user plus system) in seconds. Wraps `getrusage(RUSAGE_SELF)`.
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
    + Double(usage.ru_stime.tv_usec) / 1e6
}

/// This process's resident set size in MiB, from `/proc/self/statm`.
func residentMiB() -> Double {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
  return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// Writes a line to standard output at once (unbuffered), for the parent reading it.
func writeLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
