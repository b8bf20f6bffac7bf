import Foundation

/// RSS growth over a soak of stills and recordings in one process (a child of its own), after a warm-up;
/// once as an application runs it (the engine pins glibc's mmap threshold and trims malloc's arenas after
/// each recording), then once without each of the two (`HVTCameraRuntime.pinsMmapThreshold = false`,
/// `HVTCameraRuntime.releasesFreedMemory = false`), which shows what each saves.
struct MemoryRows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    let soak = "\(plan.soakStills) stills and \(plan.soakRecordings) recordings in one process"
    log("\(resolution): memory soak, \(soak)")
    let growth = try soakGrowth()
    log("\(resolution): memory soak with the mmap threshold left dynamic")
    let unpinned = try soakGrowth(["--leave-allocator-alone"])
    log("\(resolution): memory soak with malloc's arenas left untrimmed")
    let untrimmed = try soakGrowth(["--keep-freed-memory"])
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
      Row(
        id: "rss-growth-freed-memory-kept",
        title:
          "memory: RSS growth over the same soak with malloc's arenas left untrimmed after each recording "
          + "(HVTCameraRuntime.releasesFreedMemory = false)",
        resolution: resolution, unit: "MiB", hvtcamera: Series(values: [untrimmed])),
    ]
  }

  /// The growth in MiB of one soak child, given `options` beside the soak's own.
  private func soakGrowth(_ options: [String] = []) throws -> Double {
    let output = directory.appendingPathComponent("soak", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "soak", "--quality", resolution, "--stills", String(plan.soakStills), "--recordings",
        String(plan.soakRecordings), "--directory", output.path,
      ] + options)
    let ending = child.wait()
    let report = try ChildReport(output: ending.output)
    guard !ending.signalled, ending.status == 0, let before = report.residentBefore, let after = report.residentAfter
    else { throw BenchError.failed("the soak child failed: \(ending.output.suffix(3))") }
    return after - before
  }
}
