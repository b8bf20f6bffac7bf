import Foundation

/// `hvtcam-bench`: HVTCamera side by side with camerabin and gst-launch-1.0 (see BenchOptions.usage).
// The benchmark waits for each step on a thread of its own, while the main thread serves the main
// queue, where HVTCamera calls its delegate (the main actor).
Thread.detachNewThread {
  do {
    let options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    if options.child != nil { try ChildMode.run(options) }
    if let json = options.renderPath {
      try BenchRun(options).render(json)
    } else if options.previewRowsOnly {
      try BenchRun(options).runPreviewRows()
    } else if options.libraryRowsOnly {
      try BenchRun(options).runLibraryRows()
    } else if options.overloadRowsOnly {
      try BenchRun(options).runOverloadRows()
    } else if options.cpuRowsOnly {
      try BenchRun(options).runCPURows()
    } else if options.latencyRowsOnly {
      try BenchRun(options).runLatencyRows()
    } else if let node = options.cameraNode {
      try BenchRun(options).runOnCamera(node)
    } else {
      try BenchRun(options).run()
    }
  } catch let usage as UsageError {
    if usage.exitCode == 0 {
      print(usage.message)
    } else {
      FileHandle.standardError.write(Data("\(usage.message)\n".utf8))
    }
    exit(usage.exitCode)
  } catch {
    FileHandle.standardError.write(Data("hvtcam-bench: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}
dispatchMain()
