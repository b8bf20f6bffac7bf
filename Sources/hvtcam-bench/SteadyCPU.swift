import Foundation
import HVTSupport

/// The CPU time a running child process spends in a window of its life, away from its start and its
/// end: read from `/proc/PID/stat` (user + system time of all its threads, in clock ticks) as the window
/// opens and as it closes, on a queue of its own. What a recording costs a frame while it runs, where
/// the whole process's time (``ChildProcess/Ending/cpuSeconds``) also holds what it does before its first
/// frame and after its last.
final class SteadyCPU: Sendable {
  private struct Reading {
    var cpu: Double
    var wall: ContinuousClock.Instant
  }

  private let readings = Locked<[Reading]>([])

  /// Reads `pid`'s CPU time `from` and `to` seconds from now.
  init(pid: pid_t, from: Double, to: Double) {
    for seconds in [from, to] {
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [readings] in
        guard let cpu = Self.cpuSeconds(of: pid) else { return }
        readings.withLock { $0.append(Reading(cpu: cpu, wall: .now)) }
      }
    }
  }

  /// CPU seconds per wall second over the window, once both readings were taken (the process ran
  /// through the window); `nil` otherwise.
  var cpuPerSecond: Double? {
    let taken = readings.withLock { $0 }
    guard taken.count == 2 else { return nil }
    let seconds = taken[0].wall.duration(to: taken[1].wall).seconds
    return seconds > 0 ? (taken[1].cpu - taken[0].cpu) / seconds : nil
  }

  /// `utime` + `stime` of `pid` in seconds: fields 14 and 15 of `/proc/PID/stat`, counted after the
  /// command's name (in parentheses, which may hold spaces).
  static func cpuSeconds(of pid: pid_t) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // After the name: state (field 3) is the first; utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
