import Foundation
import HVTMediaTools
import HVTSupport

/// The CPU time a recording process spends on each frame while its movie grows: the process's CPU time
/// (``cpuSeconds(of:)``) and the size of its movie, read together every 50 ms on a queue of
/// its own until the process is gone; then, from the finished movie, how many frames each size held (the
/// end of each video packet, by ffprobe's packet positions). The CPU between the first fragment on disk
/// and the last one before the end, divided by the frames written between them: start-up and tear-down
/// fall outside, however long they take (seconds, under the VM's emulation).
final class GrowthCPU: Sendable {
  private struct Reading {
    var cpu: Double
    var bytes: Int
  }

  /// How often the process and its movie are read.
  static let interval = DispatchTimeInterval.milliseconds(50)
  /// The fewest frames written between the first and last readings for a figure.
  static let fewestFrames = 10

  private let readings = Locked<[Reading]>([])
  private let stopped = Locked(false)
  private let queue = DispatchQueue(label: "hvtcam-bench.growth-cpu")

  /// Starts reading `pid` and `movieBytes()` (the movie's size so far, 0 before it exists).
  init(pid: pid_t, movieBytes: @escaping @Sendable () -> Int) {
    scheduleReading(pid: pid, movieBytes: movieBytes)
  }

  private func scheduleReading(pid: pid_t, movieBytes: @escaping @Sendable () -> Int) {
    queue.asyncAfter(deadline: .now() + Self.interval) { [self] in
      guard !stopped.withLock({ $0 }), let cpu = Self.cpuSeconds(of: pid) else { return }
      let bytes = movieBytes()
      readings.withLock { $0.append(Reading(cpu: cpu, bytes: bytes)) }
      scheduleReading(pid: pid, movieBytes: movieBytes)
    }
  }

  /// Stops reading (once the process has ended, before its pid can be another's).
  func stop() { stopped.withLock { $0 = true } }

  /// CPU seconds per frame between the first reading whose movie held a frame and the last one before
  /// the movie was complete; `nil` when fewer than ``fewestFrames`` frames were written between them.
  func cpuPerFrame(movie: URL) throws -> Double? {
    let ends = try Self.videoPacketEnds(in: movie)
    let taken = readings.withLock { $0 }.map { reading in
      (cpu: reading.cpu, frames: ends.prefix { $0 <= reading.bytes }.count)
    }
    guard let first = taken.first(where: { $0.frames > 0 }),
      let last = taken.last(where: { $0.frames < ends.count }),
      last.frames - first.frames >= Self.fewestFrames
    else { return nil }
    return (last.cpu - first.cpu) / Double(last.frames - first.frames)
  }

  /// Where each video packet of `movie` ends in the file (its position plus its size), in file order.
  static func videoPacketEnds(in movie: URL) throws -> [Int] {
    guard let tool = ChildProcess.which("ffprobe") else { throw BenchError.failed("ffprobe not found") }
    let child = try ChildProcess(
      tool,
      ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,size", "-of", "default=nw=1", movie.path],
      quiet: true)
    var ends: [Int] = []
    var size: Int?
    var position: Int?
    for line in child.wait(timeout: 60).output {
      let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else { continue }
      if pair[0] == "size" { size = Int(pair[1]) }
      if pair[0] == "pos" { position = Int(pair[1]) }
      if let packetSize = size, let packetPosition = position {
        ends.append(packetPosition + packetSize)
        (size, position) = (nil, nil)
      }
    }
    guard !ends.isEmpty else { throw BenchError.failed("ffprobe found no video packet in \(movie.path)") }
    return ends.sorted()
  }

  /// The size of the `.mp4` files in `directory` (a recording's partial file, then its movie).
  static func moviesSize(in directory: URL) -> Int {
    let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
    return files.filter { $0.pathExtension == "mp4" }.reduce(0) { $0 + CaptureFiles.size(of: $1) }
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
