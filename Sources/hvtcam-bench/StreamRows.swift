import Foundation
import HVTCamera

/// Streaming while recording, side by side in one run:
/// - CPU per recorded frame of a recording while an RTSP server of the controller's own serves the camera
///   to one client (FFmpeg, copying the stream, in a process of its own), with the preview, against the
///   same recording alone, and against the `gst-launch-1.0` line a user writes to record and stream at
///   once: the recording's line with a second encoder sending RTP to 127.0.0.1 (``TestLaunchServing``);
///   all silent, all `plan.cpuFrames` frames; and, as the CPU rows, the steady cost of a frame while
///   streaming and alone, from recordings of `plan.cpuFrames` and `plan.cpuShortFrames` frames.
/// - Capture-to-client latency against the camera served as gst-rtsp-server's `test-launch` serves a line,
///   read by the same client in the serving process.
/// - Frames lost in the recording while 1, 4 and 16 clients read the stream, and the fewest packets a
///   client read.
struct StreamRows {
  let resolution: String
  let plan: BenchPlan
  let streaming: BenchPlan.Streaming
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    let quality = BenchPlan.quality(resolution)
    let (frames, short) = (plan.cpuFrames, plan.cpuShortFrames)
    let model = try Self.silentModel(quality: quality, directory: directory)
    let cpu = CPURows(resolution: resolution, plan: plan, directory: directory)
    var (withStream, alone, twoEncoders) = (Series(), Series(), Series())
    // The steady cost of a frame, as the CPU rows take it: (CPU of `frames` − CPU of `short`) / the difference.
    var (withStreamSteady, aloneSteady) = (Series(), Series())
    var lost: [Int: Series] = [:]
    var fewest: [Int: Series] = [:]
    for repetition in 0..<plan.cpuRepetitions {
      log(
        "\(resolution): recording \(frames) and \(short) frames while streaming and alone, \(repetition + 1) of "
          + "\(plan.cpuRepetitions)")
      var costs: [String: Double] = [:]
      let runs: [(String, () throws -> Double)] = [
        (
          "stream",
          { try self.streamRecording(quality: quality, frames: frames, clients: 1, clientsFirst: false).cpuSeconds }
        ),
        ("alone", { try cpu.hvtcamera(quality: quality, frames: frames, silent: true) }),
        (
          "two-encoders",
          {
            try cpu.gstLaunch(
              model: model, frames: frames, more: TestLaunchServing.secondEncoderWords(model, port: 5004))
          }
        ),
        (
          "stream-short",
          { try self.streamRecording(quality: quality, frames: short, clients: 1, clientsFirst: false).cpuSeconds }
        ),
        ("alone-short", { try cpu.hvtcamera(quality: quality, frames: short, silent: true) }),
      ]
      for (name, run) in repetition % 2 == 0 ? runs : runs.reversed() { costs[name] = try run() }
      withStream.add(costs["stream"]! * 1000 / Double(frames))
      alone.add(costs["alone"]! * 1000 / Double(frames))
      twoEncoders.add(costs["two-encoders"]! * 1000 / Double(frames))
      withStreamSteady.add((costs["stream"]! - costs["stream-short"]!) * 1000 / Double(frames - short))
      aloneSteady.add((costs["alone"]! - costs["alone-short"]!) * 1000 / Double(frames - short))
    }
    for clients in streaming.clients {
      log("\(resolution): recording \(streaming.clientFrames) frames while \(clients) clients read the stream")
      let run = try streamRecording(
        quality: quality, frames: streaming.clientFrames, clients: clients, clientsFirst: true)
      lost[clients, default: Series()].add(Double(run.lost))
      fewest[clients, default: Series()].add(Double(run.fewestPackets))
    }
    var (ours, theirs) = (Series(), Series())
    for round in 0..<streaming.latencyRounds {
      log("\(resolution): capture-to-client latency, round \(round + 1) of \(streaming.latencyRounds)")
      let engines = round % 2 == 0 ? ["ours", "test-launch"] : ["test-launch", "ours"]
      for engine in engines {
        let latencies = try latency(engine: engine, quality: quality)
        for value in latencies { engine == "ours" ? ours.add(value) : theirs.add(value) }
      }
    }
    let recordingAlone = "the same recording without a stream (HVTCamera)"
    let launchLine = "the recording's line and a second encoder, rtph264pay ! udpsink to 127.0.0.1"
    var rows = [
      Row(
        id: "stream-cpu",
        title: "CPU per recorded frame while an RTSP server serves the camera to one client, with the preview, "
          + "\(frames) frames (whole process)",
        resolution: resolution, unit: "ms", hvtcamera: withStream,
        reference: ("hvtcamera", recordingAlone, alone)),
      Row(
        id: "stream-cpu-steady",
        title: "CPU per recorded frame while an RTSP server serves the camera to one client, steady state: (CPU of "
          + "\(frames) frames − CPU of \(short)) / \(frames - short)",
        resolution: resolution, unit: "ms", hvtcamera: withStreamSteady,
        reference: ("hvtcamera", "the same recording without a stream (HVTCamera), steady state", aloneSteady)),
      Row(
        id: "stream-cpu-gst-launch",
        title: "CPU per recorded frame while streaming, against recording and streaming with two encoders",
        resolution: resolution, unit: "ms", hvtcamera: withStream,
        reference: ("gst-launch-1.0", launchLine, twoEncoders)),
      Row(
        id: "stream-latency",
        title: "capture-to-client latency over RTSP/TCP: the camera's brightness changed → the client's first "
          + "decoded frame showing it",
        resolution: resolution, unit: "ms", hvtcamera: ours,
        reference: ("test-launch", "gst-rtsp-server serving videotestsrc ! x264enc ! rtph264pay itself", theirs)),
    ]
    for clients in streaming.clients {
      rows.append(
        Row(
          id: "stream-clients-lost",
          title: "frames lost in the recording while RTSP clients read the stream",
          resolution: "\(resolution) x\(clients)", unit: "frames", hvtcamera: lost[clients] ?? Series(),
          hasRatio: false))
      rows.append(
        Row(
          id: "stream-client-packets",
          title: "packets read by the client that read the fewest, over the recording",
          resolution: "\(resolution) x\(clients)", unit: "packets", hvtcamera: fewest[clients] ?? Series(),
          hasRatio: false))
    }
    return rows
  }

  /// The model of a silent recording at `quality`, as the controller runs it.
  static func silentModel(quality: HVTCameraController.QualityType, directory: URL) throws -> HVTPipelineModel {
    let camera = try OurCamera(quality: quality, directory: directory)
    camera.controller.capturesAudio = false
    return try camera.controller.pipelineModel()
  }

  /// One `stream-record` child recording `frames` frames while `clients` FFmpeg processes read its
  /// stream: its CPU seconds, the frames the movie lost, and the fewest packets a client read. With
  /// `clientsFirst`, the recording starts once every client plays; else at once, as the clients join
  /// (the CPU rows: the child's CPU is then that of recording and streaming, not of streaming alone
  /// while the clients start).
  private func streamRecording(
    quality: HVTCameraController.QualityType, frames: Int, clients: Int, clientsFirst: Bool
  ) throws -> (cpuSeconds: Double, lost: Int, fewestPackets: Int) {
    let output = directory.appendingPathComponent("stream-\(UUID().uuidString.prefix(8))", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "stream-record", "--quality", quality.commandLineName, "--frames", String(frames),
        "--directory", output.path,
      ] + (clientsFirst ? ["--wait-for-clients"] : []))
    var readers: [ChildProcess] = []
    defer {
      for reader in readers {
        reader.send(SIGKILL)
        _ = reader.wait()
      }
    }
    do {
      let line = try child.waitForLine("the stream's URL") { $0.hasPrefix("STREAMING ") }
      let url = String(line.dropFirst("STREAMING ".count))
      // FFmpeg's log and its packets' lines on one pipe: it plays once it writes its output's header.
      readers = try (0..<clients).map { _ in
        try ChildProcess(
          "/bin/sh",
          ["-c", "exec ffmpeg -nostdin -v info -rtsp_transport tcp -i \(url) -c copy -f framemd5 - 2>&1"])
      }
      if clientsFirst {
        for reader in readers { _ = try reader.waitForLine("a client playing") { $0.hasPrefix("Output #0") } }
      }
    } catch {
      child.send(SIGKILL)
      _ = child.wait()
      throw error
    }
    if clientsFirst { child.send(SIGUSR1) }
    let ending = child.wait(timeout: max(300, Double(frames) / 30 * 2))
    guard !ending.signalled, ending.status == 0, let lost = try ChildReport(output: ending.output).recordingLost?.first
    else { throw BenchError.failed("the streaming child failed: \(ending.output.suffix(3))") }
    let packets = readers.map { reader -> Int in
      reader.send(SIGINT)
      return reader.wait(timeout: 10).output.filter { line in
        line.first?.isNumber == true && line.split(separator: ",").count == 6
      }.count
    }
    readers = []
    return (ending.cpuSeconds, lost, packets.min() ?? 0)
  }

  /// The latencies (ms) one `stream-latency` child measured with `engine` serving.
  private func latency(engine: String, quality: HVTCameraController.QualityType) throws -> [Double] {
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "stream-latency", "--engine", engine, "--quality", quality.commandLineName, "--toggles",
        String(streaming.toggles), "--directory", directory.path,
      ])
    let ending = child.wait(timeout: 120)
    guard !ending.signalled, ending.status == 0, let latencies = try ChildReport(output: ending.output).latencies
    else { throw BenchError.failed("the stream-latency child (\(engine)) failed: \(ending.output.suffix(3))") }
    return latencies
  }
}
