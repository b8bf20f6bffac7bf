import Foundation
import HVTCamera
import HVTSupport

/// `hvtcam graph`: draws the live pipeline from GStreamer's own DOT dump.
enum GraphCommand {
  static let parser = CommandLineParser(
    command: "graph",
    summary: """
      Starts the camera and writes GStreamer's DOT graph of the live pipeline (gst_debug_bin_to_dot_data), \
      with the recording branch attached when --recording is given, or of the photo pipeline \
      (appsrc ! … ! appsink, into which each photo's frame is pushed) after one photo with --photo. \
      Writes DOT to stdout, or to -o FILE: .dot as it is, .svg or .png rendered by graphviz dot.
      """,
    options: [
      CameraOptions.device, CameraOptions.quality, CameraOptions.photoSize, CameraOptions.preset,
      .init(names: ["--recording"], valueName: nil, help: "Attach the recording branch (video mode) first."),
      .init(names: ["--photo"], valueName: nil, help: "Draw the photo pipeline, after taking one photo."),
      .init(names: ["-o", "--output"], valueName: "FILE", help: "FILE.dot, FILE.svg or FILE.png."),
      CameraOptions.startTimeout, CameraOptions.verbose,
    ])

  static func run(_ arguments: ParsedArguments) async throws {
    let options = try CameraOptions(arguments)
    let output = arguments["--output"].map { URL(fileURLWithPath: $0) }
    let format = output?.pathExtension.lowercased() ?? "dot"
    guard ["dot", "svg", "png"].contains(format) else {
      throw UsageError("hvtcam graph: -o must end in .dot, .svg or .png, not '.\(format)'")
    }
    let recording = arguments.flag("--recording")
    let photo = arguments.flag("--photo")
    guard !(recording && photo) else {
      throw UsageError("hvtcam graph: --recording and --photo draw different pipelines; give one")
    }
    let controller = try options.makeController(mode: recording ? .video : .photo)
    // A recording made only to be drawn goes to a scratch folder, removed afterwards.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hvtcam-graph-\(getpid())")
    controller.outputDirectory = scratch
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Subscribed before presenting: a camera that fails right after its first frames has posted its
    // error by the time the recording is asked for.
    let events = controller.events
    let graph = try await options.withPresented(controller) { () async throws -> String in
      if photo {
        _ = try await bounded(PhotoCommand.photoTimeout, "photo") { try await controller.capturePhoto() }
        guard let graph = controller.photoPipelineGraph() else { throw HVTCameraError.notPresented }
        return graph
      }
      guard recording else { return try liveGraph(of: controller) }
      let movie = Task { try await controller.recordMovie() }
      // The graph is taken once the first frame is in the recording branch, so that its caps show.
      let failure = try await bounded(10, "recording start") { () async -> HVTCameraError? in
        for await event in events {
          switch event {
          case .recordingStarted: return nil
          case .error(let error): return error
          default: continue
          }
        }
        return .notPresented
      }
      // The camera may fail between the recording's start and the drawing: then there is no pipeline
      // to draw, and the recording's result says why.
      let graph = failure == nil ? controller.pipelineGraph() : nil
      controller.stopVideoCapture()
      let result = await movie.result
      if let failure { throw failure }
      // A camera that failed during the recording: its error, not a graph of a broken pipeline.
      if let interruption = try result.get().interruption { throw interruption }
      guard let graph else { throw HVTCameraError.notPresented }
      return graph
    }
    guard let output else { return Console.write(graph) }
    let bytes = format == "dot" ? Data(graph.utf8) : try render(graph, format: format, for: output.path)
    try FileWriting.write(bytes, to: output.path, replacing: true)
    Console.out(output.path)
  }

  /// GStreamer's DOT graph of the running pipeline.
  static func liveGraph(of controller: HVTCameraController) throws -> String {
    guard let graph = controller.pipelineGraph() else { throw HVTCameraError.notPresented }
    return graph
  }

  /// Renders DOT through graphviz, `dot -Tsvg|-Tpng`: the graph on its standard input, the picture from
  /// its standard output (written by `FileWriting.write(_:to:replacing:)`, so that a file error reads as every other one).
  static func render(_ graph: String, format: String, for path: String) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["dot", "-T\(format)"]
    let input = Pipe()
    let picture = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = picture
    process.standardError = errors
    do {
      try process.run()
    } catch {
      // Foundation reports a failed spawn as an NSError in the POSIX domain; its code is the errno.
      let code = (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : ENOENT
      throw HVTCameraError.fileWriteFailed(
        path: path, reason: "cannot run graphviz (/usr/bin/env dot): \(SystemCallError.reason(code))")
    }
    input.fileHandleForWriting.write(Data(graph.utf8))
    try input.fileHandleForWriting.close()
    let bytes = picture.fileHandleForReading.readDataToEndOfFile()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw HVTCameraError.fileWriteFailed(
        path: path,
        reason: "dot failed (\(process.terminationStatus)): \(text.isEmpty ? "is graphviz installed?" : text)")
    }
    return bytes
  }
}
