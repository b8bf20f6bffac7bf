import Foundation

/// 1, 2 and 4 simulated cameras at 640x480 recording at once, in a child process: CPU per camera and
/// frames lost.
struct ConcurrencyRows {
  let plan: BenchPlan
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    var rows: [Row] = []
    for cameras in plan.concurrentCameras {
      log("\(cameras) concurrent camera(s) recording for \(plan.concurrentSeconds) s")
      let output = directory.appendingPathComponent("concurrent-\(cameras)", isDirectory: true)
      defer { try? FileManager.default.removeItem(at: output) }
      let child = try ChildProcess(
        ChildProcess.ownExecutable,
        [
          "--child", "concurrent", "--cameras", String(cameras), "--seconds", String(plan.concurrentSeconds),
          "--directory", output.path,
        ])
      let ending = child.wait()
      guard !ending.signalled, ending.status == 0 else {
        throw BenchError.failed("the concurrent child failed: \(ending.output.suffix(3))")
      }
      let report = try ChildReport(output: ending.output)
      let resolution = "640x480 x\(cameras)"
      let perCamera = Series(values: [(report.cpuPercent ?? .nan) / Double(cameras)])
      rows.append(
        Row(
          id: "concurrent-cpu", title: "concurrent cameras recording: CPU per camera (% of one core)",
          resolution: resolution, unit: "%", hvtcamera: perCamera))
      rows.append(
        Row(
          id: "concurrent-lost",
          title: "concurrent cameras recording: frames lost per camera (made in real time but not recorded)",
          resolution: resolution, unit: "frames",
          hvtcamera: Series(values: (report.recordingLost ?? []).map(Double.init))))
      rows.append(
        Row(
          id: "concurrent-preview-lost", title: "concurrent cameras recording: preview frames lost per camera",
          resolution: resolution, unit: "frames",
          hvtcamera: Series(values: (report.previewLost ?? []).map(Double.init))))
    }
    return rows
  }
}
