import Foundation

/// The memory a pre-roll costs per second it keeps, at 1080p: the resident set size of two children that
/// differ only in their pre-roll (`longSeconds` against one second, both encoding all the time),
/// each once its pre-roll is full, against the encoded bytes the longer one holds more — how close the
/// memory comes to the compressed video itself.
struct PreRollRows {
  let directory: URL
  /// The longer pre-roll (``BenchPlan/preRollSeconds``).
  let longSeconds: Int
  static let resolution = "1920x1080"
  static let shortSeconds = 1

  func run(log: (String) -> Void) throws -> [Row] {
    log("\(Self.resolution): pre-roll of \(Self.shortSeconds) s and of \(longSeconds) s")
    let short = try child(seconds: Self.shortSeconds)
    let long = try child(seconds: longSeconds)
    guard let shortRSS = short.residentAfter, let longRSS = long.residentAfter, let shortBytes = short.preRollBytes,
      let longBytes = long.preRollBytes, let shortHeld = short.preRollSeconds, let longHeld = long.preRollSeconds,
      longHeld > shortHeld
    else { throw BenchError.failed("a pre-roll child reported no fill") }
    let seconds = longHeld - shortHeld
    let mebibyte = 1024.0 * 1024
    return [
      Row(
        id: "pre-roll-rss-per-second",
        title:
          "memory: RSS per second of pre-roll (pre-roll of \(longSeconds) s against \(Self.shortSeconds) s, "
          + "each once full)",
        resolution: Self.resolution, unit: "MiB/s", hvtcamera: Series(values: [(longRSS - shortRSS) / seconds]),
        reference: (
          "encoded", "the encoded video the longer pre-roll holds more, per second",
          Series(values: [Double(longBytes - shortBytes) / mebibyte / seconds])
        ))
    ]
  }

  /// The report of one pre-roll child.
  private func child(seconds: Int) throws -> ChildReport {
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "pre-roll", "--quality", Self.resolution, "--seconds", String(seconds), "--directory",
        directory.path,
      ])
    let ending = child.wait()
    guard !ending.signalled, ending.status == 0 else {
      throw BenchError.failed("the pre-roll child failed: \(ending.output.suffix(3))")
    }
    return try ChildReport(output: ending.output)
  }
}
