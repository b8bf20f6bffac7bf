import Dispatch
import Foundation
import HVTCamera

/// What a child run reports on its last output line, after `RESULT `, as JSON.
struct ChildReport: Codable, Sendable {
  /// `record`: frames in the movie.
  var frames: Int?
  /// `concurrent`: CPU time of the whole process over the recording window, in percent of one core.
  var cpuPercent: Double?
  /// `concurrent`: each camera's recording frames lost (frames the camera would have made in real time
  /// but did not) and preview frames lost (by timestamps). `stream-record`: the recording's.
  var recordingLost: [Int]?
  /// `concurrent`: see `recordingLost`.
  var previewLost: [Int]?
  /// `soak`: resident set size after the warm-up and after the soak, in MiB.
  var residentBefore: Double?
  /// `soak`: see `residentBefore`. `pre-roll`: the resident set size once the pre-roll is full, in MiB.
  var residentAfter: Double?
  /// `pre-roll`: the encoded bytes the pre-roll holds then.
  var preRollBytes: Int?
  /// `pre-roll`: the seconds of video it holds then.
  var preRollSeconds: Double?
  /// `stream-latency`: the time from each change of the camera's brightness to the client's first frame
  /// showing it, in milliseconds.
  var latencies: [Double]?
  /// `overload`: the engine's recording under load.
  var overload: OverloadReport?
  /// `preview`, `line-preview`: the preview's mean latency over the measured time, in milliseconds, by
  /// frame timestamps (``HVTPreviewStatistics``'s measure: running time at the sink pad minus timestamp).
  var previewLatency: Double?
  /// `unplug`: from the camera's cable pulled to the app told, in milliseconds.
  var unplugNoticed: Double?

  static let prefix = "RESULT "

  /// Prints the report as the child's result line.
  func emit() throws {
    let data = try JSONEncoder().encode(self)
    writeLine(Self.prefix + String(decoding: data, as: UTF8.self))
  }

  /// The report a child printed, from its output.
  init(output: [String]) throws {
    guard let line = output.last(where: { $0.hasPrefix(Self.prefix) }) else {
      throw BenchError.failed("the child printed no result: \(output.suffix(5).joined(separator: " | "))")
    }
    self = try JSONDecoder().decode(ChildReport.self, from: Data(line.dropFirst(Self.prefix.count).utf8))
  }

  init() {}
}

/// The benchmark's child processes: runs that need a process of their own, for their CPU time, their
/// memory, or to be killed.
enum ChildMode {
  /// Runs the child mode named by `--child`, then exits.
  static func run(_ options: BenchOptions) throws -> Never {
    if options.leavesAllocatorAlone { HVTCameraRuntime.pinsMmapThreshold = false }
    if options.keepsFreedMemory { HVTCameraRuntime.releasesFreedMemory = false }
    switch options.child {
    case "record": try record(options)
    case "concurrent": try concurrent(options)
    case "soak": try soak(options)
    case "pre-roll": try preRoll(options)
    case "crash": try crash(options)
    case "preview": try preview(options)
    case "camerabin-preview": try camerabinPreview(options)
    case "line-preview": try linePreview(options)
    case "stream-record": try streamRecord(options)
    case "stream-latency": try streamLatency(options)
    case "overload": try overload(options)
    case "unplug": try unplug(options)
    default: throw BenchError.failed("unknown child mode \(options.child ?? "")")
    }
    // Releases GStreamer's state, so that GST_TRACERS=leaks can report what is still alive.
    HVTCameraRuntime.shutDown()
    exit(0)
  }

  /// Records exactly `--frames` frames (the maximum duration stops it on the frames' timestamps), then
  /// exits: the process's CPU time is the cost of a 300-frame recording, start-up included. With sound
  /// from the simulated microphone, unless `--silent`. Every frame is kept
  /// (``HVTSlowEncoderPolicy/keepEveryFrame``): the row compares the cost of the same work as the
  /// `gst-launch-1.0` line's, whose plain `queue` keeps every frame.
  static func record(_ options: BenchOptions) throws {
    let source = options.cameraNode.map(BenchCamera.vivid) ?? .simulated
    let camera = try OurCamera(quality: options.quality, directory: options.directory, camera: source)
    camera.controller.slowEncoderPolicy = .keepEveryFrame
    let seconds = Double(options.frames) / Double(source.frameRate)
    camera.controller.videoMaximumDuration = seconds
    camera.controller.capturesAudio = !options.silent
    camera.setVideoMode(true)
    let movie = camera.delegate.expectMovie()
    try camera.controller.present()
    _ = try camera.startRecording()
    let delivery = try movie.wait("the movie", seconds: seconds * 1.5 + 30)
    camera.dismiss()
    var report = ChildReport()
    report.frames = delivery.metadata.frameCount
    try report.emit()
  }

  /// `--cameras` simulated cameras at 640x480 recording at once for `--seconds`.
  static func concurrent(_ options: BenchOptions) throws {
    let cameras = try (0..<options.cameras).map { _ in
      try OurCamera(quality: .type640x480, directory: options.directory)
    }
    for camera in cameras {
      _ = try camera.present()
      camera.setVideoMode(true)
    }
    let started = cameras.map { $0.delegate.expectRecordingStarted() }
    let previewBefore = cameras.map(\.previewCount)
    for camera in cameras { _ = try camera.startRecording() }
    for start in started { _ = try start.wait("a recording's first frame") }
    let cpuStart = processCPUSeconds()
    let wallStart = ContinuousClock.now
    waitForSchedule(until: wallStart + .seconds(options.seconds))
    let cpu = processCPUSeconds() - cpuStart
    let wall = wallStart.duration(to: .now).seconds
    var recordingLost: [Int] = []
    for camera in cameras {
      let stopDate = Date()
      let (_, movie) = try camera.stopRecording()
      // Frames the camera made in real time from the first recorded frame to the stop, against frames
      // recorded (the stop lets at most one more frame in, so one frame of slack is not a loss).
      let wallSeconds = stopDate.timeIntervalSince(movie.metadata.captureDate)
      let recorded = movie.metadata.duration ?? 0
      recordingLost.append(max(0, Int(((wallSeconds - recorded) * 30).rounded(.down))))
    }
    let previewLost = zip(cameras, previewBefore).map { camera, before in
      before.framesLost(until: camera.previewCount, frameRate: 30)
    }
    cameras.forEach { $0.dismiss() }
    var report = ChildReport()
    report.cpuPercent = cpu / wall * 100
    report.recordingLost = recordingLost
    report.previewLost = previewLost
    try report.emit()
  }

  /// `--stills` photos and `--recordings` half-second movies in one process, after a warm-up; reports
  /// the resident set size before and after.
  static func soak(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    _ = try camera.present()
    func recordBriefly() throws {
      camera.setVideoMode(true)
      let start = try camera.startRecording()
      waitForSchedule(until: start + .milliseconds(500))
      let (_, movie) = try camera.stopRecording()
      try? FileManager.default.removeItem(at: movie.url)
      camera.setVideoMode(false)
    }
    func still() throws {
      let photo = camera.delegate.expectPhoto()
      camera.controller.takePicture()
      try? FileManager.default.removeItem(at: try photo.wait("a photo").url)
      camera.delegate.flush()
    }
    for _ in 0..<5 { try still() }
    try recordBriefly()
    let before = residentMiB()
    let stillsPerRecording = max(1, options.stills / max(1, options.recordings))
    var stills = 0
    for _ in 0..<options.recordings {
      for _ in 0..<stillsPerRecording where stills < options.stills {
        try still()
        stills += 1
      }
      try recordBriefly()
    }
    while stills < options.stills {
      try still()
      stills += 1
    }
    let after = residentMiB()
    camera.dismiss()
    var report = ChildReport()
    report.residentBefore = before
    report.residentAfter = after
    try report.emit()
  }

  /// Presents the camera with a pre-roll of `--seconds`, waits until it is full and one more second (a
  /// key-frame interval, so that what is kept has its steady size), then reports the resident set size
  /// and what the pre-roll holds.
  static func preRoll(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    camera.controller.preRollDuration = Double(options.seconds)
    camera.setVideoMode(true)
    let filled = camera.delegate.expectPreRollFilled()
    _ = try camera.present()
    _ = try filled.wait("the pre-roll to fill", seconds: Double(options.seconds) + 30)
    waitForSchedule(until: .now + .seconds(1))
    var report = ChildReport()
    report.residentAfter = residentMiB()
    let fill = camera.controller.preRollFill
    (report.preRollBytes, report.preRollSeconds) = (fill?.bytes, fill?.seconds)
    camera.dismiss()
    try report.emit()
  }

  /// Starts a recording, prints `RECORDING <partial file>` when its first frame is in, and records until
  /// the parent kills the process (at most two minutes).
  static func crash(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    _ = try camera.present()
    camera.setVideoMode(true)
    let started = camera.delegate.expectRecordingStarted()
    _ = try camera.startRecording()
    writeLine("RECORDING \(try started.wait("the recording's first frame").path)")
    // Until SIGKILL; a child whose parent died before killing it gives up after two minutes.
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 120)
  }
}
