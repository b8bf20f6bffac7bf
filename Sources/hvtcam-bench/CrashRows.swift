import Foundation
import HVTCamera

/// Crash loss: `kill -9` a few seconds into a recording, then count the frames a player can still read
/// from the file with `qtdemux`. HVTCamera (fragmented MP4) in a child process of its own, against
/// `gst-launch-1.0` running the same pipeline with a plain, non-fragmented `mp4mux`.
struct CrashRows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    let quality = BenchPlan.quality(resolution)
    var model = try OurCamera.pipelineModel(quality: quality, directory: directory)
    // The same pipeline with a plain mp4mux: the index is written only at the end.
    model.recording = model.recording.map {
      $0.factory == "mp4mux" ? HVTElementDescription("mp4mux", name: $0.name) : $0
    }
    var ours = Series()
    var plain = Series()
    for repetition in 0..<plan.crashRepetitions {
      log("\(resolution): kill -9 after \(plan.crashAfterSeconds) s, \(repetition + 1) of \(plan.crashRepetitions)")
      ours.add(try hvtcamera(quality: quality))
      plain.add(try plainMuxer(model: model))
    }
    return [
      Row(
        id: "crash-recoverable",
        title: "crash: seconds recoverable from the file after kill -9 \(plan.crashAfterSeconds) s into a recording",
        resolution: resolution, unit: "s", hvtcamera: ours,
        reference: ("mp4mux (not fragmented)", "gst-launch-1.0, same pipeline, plain mp4mux", plain),
        hasRatio: false)
    ]
  }

  private var killDelay: Duration { .seconds(plan.crashAfterSeconds) }

  /// Seconds recoverable from HVTCamera's partial movie.
  private func hvtcamera(quality: HVTCameraController.QualityType) throws -> Double {
    let output = directory.appendingPathComponent("crash-\(UUID().uuidString.prefix(8))", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      ["--child", "crash", "--quality", quality.commandLineName, "--directory", output.path])
    let line = try child.kill(after: killDelay, from: "the recording to start") { $0.hasPrefix("RECORDING ") }
    let partial = URL(fileURLWithPath: String(line.dropFirst("RECORDING ".count)))
    return Double(try FrameCount.frames(in: partial)) / 30
  }

  /// Seconds recoverable from gst-launch-1.0's plain MP4.
  private func plainMuxer(model: HVTPipelineModel) throws -> Double {
    let file = directory.appendingPathComponent("crash-plain-\(UUID().uuidString.prefix(8)).mp4")
    defer { try? FileManager.default.removeItem(at: file) }
    // num-buffers only bounds a run whose killer died: the kill comes long before.
    let frames = (plan.crashAfterSeconds + 60) * 30
    let child = try ChildProcess(
      "/bin/sh", ["-c", "exec " + model.launchCommand(mode: .video, output: file.path, frames: frames)])
    _ = try child.kill(after: killDelay, from: "gst-launch-1.0 to play") {
      $0.hasPrefix("Setting pipeline to PLAYING")
    }
    return Double(try FrameCount.frames(in: file)) / 30
  }
}
