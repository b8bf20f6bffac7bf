import Foundation

/// RSS growth over a soak of stills and recordings in one process (a child of its own), after a warm-up;
/// once as an application runs it (the engine pins glibc's mmap threshold), and once with the allocator
/// left alone (`HVTCameraRuntime.pinsMmapThreshold = false`), which shows what the pinning saves.
struct MemoryRows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    let soak = "\(plan.soakStills) stills and \(plan.soakRecordings) recordings in one process"
    log("\(resolution): memory soak, \(soak)")
    let growth = try soakGrowth(leavingAllocatorAlone: false)
    log("\(resolution): memory soak with the allocator left alone")
    let unpinned = try soakGrowth(leavingAllocatorAlone: true)
    return [
      Row(
        id: "rss-growth", title: "memory: RSS growth over \(soak)", resolution: resolution, unit: "MiB",
        hvtcamera: Series(values: [growth])),
      Row(
        id: "rss-growth-allocator-left-alone",
        title:
          "memory: RSS growth over the same soak with glibc's mmap threshold left dynamic "
          + "(HVTCameraRuntime.pinsMmapThreshold = false)",
        resolution: resolution, unit: "MiB", hvtcamera: Series(values: [unpinned])),
    ]
  }

  /// The growth in MiB of one soak child.
  private func soakGrowth(leavingAllocatorAlone: Bool) throws -> Double {
    let output = directory.appendingPathComponent("soak", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "soak", "--quality", resolution, "--stills", String(plan.soakStills), "--recordings",
        String(plan.soakRecordings), "--directory", output.path,
      ] + (leavingAllocatorAlone ? ["--leave-allocator-alone"] : []))
    let ending = child.wait()
    let report = try ChildReport(output: ending.output)
    guard !ending.signalled, ending.status == 0, let before = report.residentBefore, let after = report.residentAfter
    else { throw BenchError.failed("the soak child failed: \(ending.output.suffix(3))") }
    return after - before
  }
}
