import Foundation
import Glibc

/// A private daemon or tool a test starts: its standard output and error are read, line by line, as
/// they come, so that a test can wait for the line that says it is ready (no sleeping, no polling: the
/// reader wakes the waiter). Killed by ``stop()``.
public final class Daemon: @unchecked Sendable {  // `lines` and `closed` only under `condition`.
  private let process: SpawnedChild
  private let condition = NSCondition()
  private var lines: [String] = []
  private var closed = false
  /// What it is, for messages: its tool name.
  public let name: String

  /// Starts `tool` (found on `PATH`) with `arguments` and exactly `environment`.
  public init(_ tool: String, _ arguments: [String], environment: [String: String]) throws {
    name = tool
    process = try SpawnedChild(
      "/usr/bin/env", [tool] + arguments, environment: environment, output: .pipe, error: .output)
    let handle = process.standardOutput ?? FileHandle.nullDevice
    Thread.detachNewThread { [self] in
      var pending = Data()
      while case let data = handle.availableData, !data.isEmpty {
        pending.append(data)
        var complete: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
          pending = Data(pending[(newline + 1)...])
        }
        record(complete, closing: false)
      }
      record([String(decoding: pending, as: UTF8.self)].filter { !$0.isEmpty }, closing: true)
    }
  }

  private func record(_ new: [String], closing: Bool) {
    condition.withLock {
      lines += new
      closed = closed || closing
      condition.broadcast()
    }
  }

  /// Everything it printed so far.
  public var output: String { condition.withLock { lines.joined(separator: "\n") } }

  /// Waits for the first line (printed already or still to come) that contains `text`, at most `seconds`.
  /// Throws, with everything it printed, when the output ends or the time passes without one.
  @discardableResult
  public func line(containing text: String, within seconds: Double = 15) async throws -> String {
    try await line("a line with '\(text)'", within: seconds) { $0.contains(text) }
  }

  /// Waits for the first line (printed already or still to come) that `matches` accepts, at most
  /// `seconds`; `what` names it in the error thrown, with everything it printed, when the output ends or
  /// the time passes without one.
  @discardableResult
  public func line(
    _ what: String, within seconds: Double = 15, where matches: @escaping @Sendable (String) -> Bool
  ) async throws -> String {
    try await wait(within: seconds, for: what) { lines, _ in lines.first(where: matches) }
  }

  /// Waits for it to end by itself, at most `seconds` (then kills it and throws), and returns its exit status.
  public func exitStatus(within seconds: Double = 30) async throws -> Int32 {
    do {
      try await wait(within: seconds, for: "its end") { _, closed in closed ? () : nil }
    } catch {
      stop()
      throw error
    }
    return process.waitForExit().status
  }

  /// Waits, on a thread of its own, until `found` (given the lines so far and whether the output ended)
  /// returns a value; each new line wakes it. Throws when the output ended or `seconds` passed first.
  private func wait<Value: Sendable>(
    within seconds: Double, for what: String, _ found: @escaping @Sendable ([String], Bool) -> Value?
  ) async throws -> Value {
    try await onDispatchThread { [self] in
      let deadline = Date(timeIntervalSinceNow: seconds)
      return try condition.withLock {
        while true {
          if let value = found(lines, closed) { return value }
          if closed || !condition.wait(until: deadline) {
            throw TestFailure("\(name) showed no \(what) within \(seconds) s:\n\(lines.joined(separator: "\n"))")
          }
        }
      }
    }
  }

  /// Sends it `signal` (`SIGSTOP` to pause it, `SIGCONT` to let it go on) unless it has ended.
  public func send(_ signal: Int32) {
    if condition.withLock({ !closed }) { process.signal(signal) }
  }

  /// Kills it (SIGKILL: it may ignore SIGTERM, inherited from the test runner) unless it has ended, and
  /// waits, at most 10 s, for its output to end, which it does when the process is gone (a clean-clone CI
  /// run once saw Foundation's `Process.isRunning` say two daemons were not running while they were). The
  /// output may outlive the process (a child of its own keeps it open): the signal is
  /// ``SpawnedChild/signal(_:)``'s, which never reaches a process that took its pid.
  public func stop() {
    let running = condition.withLock { !closed }
    if running { process.signal(SIGKILL) }
    let deadline = Date(timeIntervalSinceNow: 10)
    condition.withLock {
      while !closed, condition.wait(until: deadline) {}
    }
  }
}
