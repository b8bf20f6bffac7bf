import Foundation
import HVTSupport

/// How a subprocess ended and everything it printed.
public struct ProcessResult: Sendable, CustomStringConvertible {
  /// The exit status, or the signal number when `signalled`.
  public var status: Int32
  /// Whether a signal ended the process (then `status` is the signal number).
  public var signalled: Bool
  /// Standard output, decoded as UTF-8.
  public var standardOutput: String
  /// Standard error, decoded as UTF-8.
  public var standardError: String

  /// How a process ended and what it printed.
  public init(status: Int32, signalled: Bool, standardOutput: String, standardError: String) {
    self.status = status
    self.signalled = signalled
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Standard output split into lines, without the final empty line.
  public var outputLines: [String] { Self.lines(standardOutput) }
  /// Standard error split into lines, without the final empty line.
  public var errorLines: [String] { Self.lines(standardError) }

  /// True when the process called `exit(0)`.
  public var succeeded: Bool { !signalled && status == 0 }

  /// The exit status or signal, then both outputs.
  public var description: String {
    "\(signalled ? "signal" : "exit status") \(status)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
  }

  /// `text` split into lines, without the final empty line.
  public static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// A child process whose standard output and error are collected as they arrive, so that a test can wait
/// for a particular line on standard error, signal the process, and wait for it to end. No polling and no
/// sleeping: readers block on the pipes in threads of their own, and waiters are resumed by them.
///
/// If the waiting task is cancelled (for instance by a test's time limit), the process is killed, which
/// ends every wait.
///
/// `@unchecked Sendable`: its `Process` is set up and started by `init` and not touched after; what the
/// readers collect is `Locked`.
public final class Subprocess: @unchecked Sendable {
  /// What the readers and the termination handler have collected, and who is waiting for what.
  private final class Collector: Sendable {
    struct LineWaiter {
      /// Standard error's lines, or standard output's.
      let onError: Bool
      let matches: @Sendable (String) -> Bool
      let continuation: CheckedContinuation<String?, Never>
    }

    /// One stream's text and its complete lines.
    struct Lines {
      var data = Data()
      var lines: [String] = []
      var pending = Data()

      /// Appends `chunk`, returning the lines it completed.
      mutating func append(_ chunk: Data) -> [String] {
        data.append(chunk)
        pending.append(chunk)
        var newLines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          newLines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
          pending = Data(pending[(newline + 1)...])
        }
        lines += newLines
        return newLines
      }
    }

    struct State {
      var output = Lines()
      var error = Lines()
      var openStreams = 2
      var exit: (status: Int32, signalled: Bool)?
      var result: ProcessResult?
      var lineWaiters: [LineWaiter] = []
      var exitWaiters: [CheckedContinuation<ProcessResult, Never>] = []
    }

    let state = Locked(State())

    func append(_ data: Data, toError: Bool) {
      let matched = state.withLock { state -> [(LineWaiter, String)] in
        let newLines = toError ? state.error.append(data) : state.output.append(data)
        var matched: [(LineWaiter, String)] = []
        var remaining: [LineWaiter] = []
        for waiter in state.lineWaiters {
          if waiter.onError == toError, let line = newLines.first(where: waiter.matches) {
            matched.append((waiter, line))
          } else {
            remaining.append(waiter)
          }
        }
        state.lineWaiters = remaining
        return matched
      }
      for (waiter, line) in matched { waiter.continuation.resume(returning: line) }
    }

    func streamClosed() {
      finishIfComplete { $0.openStreams -= 1 }
    }

    func exited(status: Int32, signalled: Bool) {
      finishIfComplete { $0.exit = (status, signalled) }
      // Once the process has ended, everything it wrote is in its pipes, which its readers drain in
      // milliseconds; a write end still open after that is held by another process (a child it left
      // behind), which must not keep the test waiting. Bounded, not a synchronisation.
      DispatchQueue.global().asyncAfter(deadline: .now() + Subprocess.drainGrace) { [self] in
        finishIfComplete { $0.openStreams = 0 }
      }
    }

    /// Whether the process has been seen to end.
    var hasExited: Bool { state.withLock { $0.exit != nil } }

    /// Applies `change`; once both streams are closed and the process has exited, builds the result and
    /// resumes everyone still waiting.
    private func finishIfComplete(_ change: @Sendable (inout State) -> Void) {
      let (result, lineWaiters, exitWaiters) = state.withLock {
        state -> (ProcessResult?, [LineWaiter], [CheckedContinuation<ProcessResult, Never>]) in
        change(&state)
        var lineWaiters: [LineWaiter] = []
        if state.openStreams == 0 {
          lineWaiters = state.lineWaiters
          state.lineWaiters = []
        }
        guard state.openStreams == 0, let exit = state.exit, state.result == nil else {
          return (nil, lineWaiters, [])
        }
        let result = ProcessResult(
          status: exit.status, signalled: exit.signalled,
          standardOutput: String(decoding: state.output.data, as: UTF8.self),
          standardError: String(decoding: state.error.data, as: UTF8.self))
        state.result = result
        let exitWaiters = state.exitWaiters
        state.exitWaiters = []
        return (result, lineWaiters, exitWaiters)
      }
      for waiter in lineWaiters { waiter.continuation.resume(returning: nil) }
      if let result {
        for waiter in exitWaiters { waiter.resume(returning: result) }
      }
    }

    func waitForLine(
      onError: Bool = true, from start: Int, matching matches: @escaping @Sendable (String) -> Bool
    ) async -> String? {
      await withCheckedContinuation { continuation in
        let immediate: String?? = state.withLock { state in
          let lines = onError ? state.error.lines : state.output.lines
          if let line = lines.dropFirst(start).first(where: matches) { return .some(line) }
          if state.openStreams == 0 { return .some(nil) }
          state.lineWaiters.append(LineWaiter(onError: onError, matches: matches, continuation: continuation))
          return .none
        }
        if let immediate { continuation.resume(returning: immediate) }
      }
    }

    func waitForResult() async -> ProcessResult {
      await withCheckedContinuation { continuation in
        let result = state.withLock { state -> ProcessResult? in
          if let result = state.result { return result }
          state.exitWaiters.append(continuation)
          return nil
        }
        if let result { continuation.resume(returning: result) }
      }
    }
  }

  private let collector = Collector()

  /// How long the pipes may stay open after the process ended (see `Collector.exited`).
  public static let drainGrace = 2.0
  /// How long a wait for a line or for the end may last before the process is asked for a backtrace
  /// (`SIGABRT`, which Swift's runtime answers with every thread's stack on standard error) and then
  /// ended, so that a hang fails with where it hung instead of only a test's time limit.
  public static let hangLimit = 75.0

  /// The child's process id.
  public var processIdentifier: Int32 { child.pid }
  /// The child, which signals go to (``SpawnedChild/signal(_:)``, never a process that took its pid).
  private let child: SpawnedChild
  /// How long a wait on this process may last before it counts as hung (``hangLimit`` unless given).
  private let hangAfter: Double

  /// Starts `executable` with `arguments` and exactly `environment`, in `directory` if given; a wait on
  /// it longer than `hangLimit` seconds counts as a hang.
  public init(
    _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL? = nil,
    hangLimit: Double = Subprocess.hangLimit
  ) throws {
    hangAfter = hangLimit
    let child = try SpawnedChild(
      executable.path, arguments, environment: environment, directory: directory?.path, output: .pipe, error: .pipe)
    let collector = collector
    child.onExit { status, signalled in collector.exited(status: status, signalled: signalled) }
    self.child = child
    // Both are pipes: the null device stands in only to satisfy the optional.
    for (handle, isError) in [(child.standardOutput, false), (child.standardError, true)] {
      let handle = handle ?? FileHandle.nullDevice
      Thread.detachNewThread {
        while true {
          let data = handle.availableData
          if data.isEmpty { break }
          collector.append(data, toError: isError)
        }
        collector.streamClosed()
      }
    }
  }

  /// Runs a program to the end and returns what it printed and how it ended.
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    directory: URL? = nil, hangLimit: Double = Subprocess.hangLimit
  ) async throws -> ProcessResult {
    try await Subprocess(executable, arguments, environment: environment, directory: directory, hangLimit: hangLimit)
      .result()
  }

  /// Runs a program found on `PATH`.
  public static func run(tool: String, _ arguments: [String]) async throws -> ProcessResult {
    try await run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
  }

  /// Waits for the first line on standard error (already printed or still to come, from line number
  /// `start` on) for which `matches` is true. Returns nil when standard error closed without such a line.
  public func standardErrorLine(from start: Int = 0, where matches: @escaping @Sendable (String) -> Bool) async
    -> String?
  {
    let watchdog = watchHang()
    defer { watchdog.cancel() }
    return await withTaskCancellationHandler {
      await collector.waitForLine(from: start, matching: matches)
    } onCancel: {
      child.signal(SIGKILL)
    }
  }

  /// What each thread of process `pid` is doing, as the kernel sees it: its name (GStreamer names its
  /// streaming threads after their element and pad), where it waits, and its kernel stack (readable as
  /// root). Swift's backtrace on `SIGABRT` shows the crashed thread only; this shows them all.
  public static func threads(of pid: Int32) -> String {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { tid in
      func read(_ name: String) -> String {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/\(name)", encoding: .utf8)) ?? "?"
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      let stack = read("stack").split(separator: "\n").prefix(6).map { "    \($0)" }.joined(separator: "\n")
      return "  \(tid) \(read("comm")): waits in \(read("wchan")), syscall \(read("syscall"))\n\(stack)"
    }.joined(separator: "\n") + "\n"
  }

  /// After the hang limit (unless cancelled first): a process still running gets `SIGABRT`, then
  /// `SIGKILL` a few seconds later; the last 30 lines it printed on standard error and its threads are
  /// printed first. One that has ended is left to ``SpawnedChild``'s report of its end.
  private func watchHang() -> DispatchWorkItem {
    let (collector, child) = (collector, child)
    let (pid, limit) = (processIdentifier, hangAfter)
    let item = DispatchWorkItem {
      guard !collector.hasExited, child.signal(0) else { return }
      // What it said last: the test that waited may run out of its own time before it can tell.
      let said = collector.state.withLock { $0.error.lines }.suffix(30).map { "  \($0)\n" }.joined()
      FileHandle.standardError.write(
        Data(
          ("subprocess \(pid) hung for \(limit) s: SIGABRT; the end of its standard error:\n\(said)"
            + "its threads:\n\(Self.threads(of: pid))").utf8))
      child.signal(SIGABRT)
      DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
        if !collector.hasExited { child.signal(SIGKILL) }
      }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: item)
    return item
  }

  /// Waits for the first line on standard output for which `matches` is true; nil when standard output
  /// closed without such a line.
  public func standardOutputLine(where matches: @escaping @Sendable (String) -> Bool) async -> String? {
    let watchdog = watchHang()
    defer { watchdog.cancel() }
    return await withTaskCancellationHandler {
      await collector.waitForLine(onError: false, from: 0, matching: matches)
    } onCancel: {
      child.signal(SIGKILL)
    }
  }

  /// Like `standardErrorLine(where:)`, but throws, with everything the process printed, when the line
  /// never came.
  public func requireStandardErrorLine(
    _ what: String, from start: Int = 0, where matches: @escaping @Sendable (String) -> Bool
  ) async throws -> String {
    if let line = await standardErrorLine(from: start, where: matches) { return line }
    throw TestFailure("no \(what) on standard error; the process ended with \(await result())")
  }

  /// Sends `signal` to the process, unless it has ended.
  public func send(_ signal: Int32) {
    child.signal(signal)
  }

  /// Whether the process is still there (not yet ended).
  public var isRunning: Bool { child.signal(0) }

  /// Waits until the process has ended and both its outputs are closed.
  public func result() async -> ProcessResult {
    let watchdog = watchHang()
    defer { watchdog.cancel() }
    return await withTaskCancellationHandler {
      await collector.waitForResult()
    } onCancel: {
      child.signal(SIGKILL)
    }
  }

  /// The standard error lines received so far.
  public var standardErrorSoFar: [String] { collector.state.withLock { $0.error.lines } }

  /// Runs `body`; an error it throws is thrown again with what this process has printed on standard
  /// error so far, under `title` (a server's wait that failed, with what the client that fed it said).
  public func explaining<Value>(_ title: String, _ body: () async throws -> Value) async throws -> Value {
    do {
      return try await body()
    } catch {
      throw TestFailure("\(error)\n--- \(title) ---\n\(standardErrorSoFar.joined(separator: "\n"))")
    }
  }
}
