import Foundation
import HVTCamera

/// `hvtcam graph`: draws the live pipeline from GStreamer's own DOT dump.
enum GraphCommand {
  static let parser = CommandLineParser(
    command: "graph",
    summary: """
      Starts the camera and writes GStreamer's DOT graph of the live pipeline (gst_debug_bin_to_dot_data), \
      with the recording branch attached when --recording is given. Writes DOT to stdout, or to -o FILE: \
      .dot as it is, .svg or .png rendered by graphviz dot.
      """,
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.preset,
      .init(names: ["--recording"], valueName: nil, help: "Attach the recording branch (video mode) first."),
      .init(names: ["-o", "--output"], valueName: "FILE", help: "FILE.dot, FILE.svg or FILE.png."),
      CameraOptions.verbose,
    ])

  static func run(_ arguments: ParsedArguments) throws {
    let options = try CameraOptions(arguments)
    let output = arguments["--output"].map { URL(fileURLWithPath: $0) }
    let format = output?.pathExtension.lowercased() ?? "dot"
    guard ["dot", "svg", "png"].contains(format) else {
      throw UsageError("hvtcam graph: -o must end in .dot, .svg or .png, not '.\(format)'")
    }
    let recording = arguments.flag("--recording")
    let controller = try options.makeController(mode: recording ? .video : .photo)
    // A recording made only to be drawn goes to a scratch folder, removed afterwards.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hvtcam-graph-\(getpid())")
    controller.outputDirectory = scratch
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Signalled when the recording starts, or when something ends it (or the camera) before it does.
    let started = DispatchSemaphore(value: 0)
    let waiter = CaptureWaiter { event in
      switch event {
      case .recordingStarted, .recordingStopped, .error: started.signal()
      default: break
      }
    }
    waiter.attach(to: controller)
    options.relayBusMessages(of: controller)
    // Dismissed even when it does not start, so that the bus messages of the failed start are handled
    // (relayed by --verbose, dumped to GST_DEBUG_DUMP_DOT_DIR) while the controller is still there.
    defer { controller.dismiss() }
    try controller.present()
    if recording {
      guard controller.startVideoCapture() else {
        throw HVTCameraError.pipelineSetupFailed("the recording did not start")
      }
      started.wait()
      // An error before the first frame ended the recording: report it (nextCapture throws it).
      if !controller.isRecording {
        _ = try waiter.nextCapture()
        throw HVTCameraError.pipelineSetupFailed("the recording stopped before it started")
      }
    }
    guard let graph = controller.pipelineGraph() else { throw HVTCameraError.notPresented }
    if recording {
      controller.stopVideoCapture()
      _ = try waiter.nextCapture()
    }
    guard let output else { return print(graph, terminator: "") }
    if format == "dot" {
      try Data(graph.utf8).write(to: output)
    } else {
      try render(graph, format: format, to: output)
    }
    print(output.path)
  }

  /// Renders DOT through graphviz: `dot -Tsvg|-Tpng -o FILE`, the graph on its standard input.
  static func render(_ graph: String, format: String, to output: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["dot", "-T\(format)", "-o", output.path]
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw HVTCameraError.fileWriteFailed(path: output.path, reason: "cannot run graphviz dot: \(error)")
    }
    input.fileHandleForWriting.write(Data(graph.utf8))
    try input.fileHandleForWriting.close()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw HVTCameraError.fileWriteFailed(
        path: output.path,
        reason: "dot failed (\(process.terminationStatus)): \(message.isEmpty ? "is graphviz installed?" : message)")
    }
  }
}
