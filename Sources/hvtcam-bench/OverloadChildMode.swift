import Foundation
import HVTCamera
import HVTGStreamer
import HVTSupport

/// What the `overload` child measured of one engine's recording (``OverloadRows``).
struct OverloadReport: Codable, Sendable {
  /// Preview frames that arrived from the recording's start to its movie's completion.
  var previewFrames: Int
  /// That window, in seconds.
  var windowSeconds: Double
  /// The wall time the movie's frames cover, in seconds. HVTCamera's: from when its camera made the
  /// movie's first frame until it made its last, plus a frame (their running times, the metadata's
  /// `frameTimestamp` and that plus the movie's duration by ffprobe, found among the preview's newest
  /// frames read every 10 ms); the launch line's: from PLAYING until its camera pushed its last frame;
  /// camerabin's: from `start-capture` until `stop-capture`. A movie whose timestamps are true lasts as
  /// long.
  var coveredSeconds: Double
  /// The longest time the preview went without a frame in it, in milliseconds.
  var longestGap: Double
  /// How long after the recording's requested end (its start plus `--seconds`) its movie was complete,
  /// in seconds.
  var afterEnd: Double
  /// Frames the engine says it left out (HVTCamera's `framesDroppedForEncoder`; none for the others).
  var droppedCounted: Int?
  /// The movie written.
  var movie: String
}

extension ChildMode {
  /// `overload`: the `--engine` (`hvtcamera`, `hvtcamera-keep` keeping every frame, `gst-launch-1.0`,
  /// `camerabin`) records `--seconds` at `--quality` on the simulated camera while its preview's frames are
  /// counted, on a machine the parent keeps busy; prints an ``OverloadReport``.
  static func overload(_ options: BenchOptions) throws {
    var report = ChildReport()
    switch options.engine {
    case "hvtcamera", "hvtcamera-keep":
      report.overload = try overloadOurs(options, keepingEveryFrame: options.engine == "hvtcamera-keep")
    case "gst-launch-1.0": report.overload = try overloadLaunchLine(options)
    case "camerabin": report.overload = try overloadCameraBin(options)
    default: throw BenchError.failed("overload: unknown engine \(options.engine)")
    }
    try report.emit()
  }

  /// HVTCamera: presented with its default preview (a `fakesink`), a second to settle, then a recording
  /// stopped by `videoMaximumDuration`. The preview's frames are read from `previewStatistics` every 10 ms
  /// (the public API has no call per frame that costs nothing), so its gaps are known within 10 ms, and so
  /// is when the camera made each frame: the newest frame's timestamp at each reading. That, not the
  /// `recordingStopped` event, tells the wall time the movie covers: on a loaded machine the event comes
  /// up to half a second after the last frame (measured: the movie 15.00 s long, the event 15.43 s after
  /// the start), which is not a timeline running slow.
  private static func overloadOurs(_ options: BenchOptions, keepingEveryFrame: Bool) throws -> OverloadReport {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    if keepingEveryFrame { camera.controller.slowEncoderPolicy = .keepEveryFrame }
    camera.controller.videoMaximumDuration = Double(options.seconds)
    camera.setVideoMode(true)
    _ = try camera.present()
    defer { camera.dismiss() }
    waitForSchedule(until: .now + .seconds(1))
    let movie = camera.delegate.expectMovie()
    var arrivals = FrameArrivals()
    var newest: [CameraReading] = []
    let start = try camera.startRecording()
    arrivals.begin(at: start)
    var seen = camera.controller.previewStatistics?.frames ?? 0
    var delivery: BenchDelegate.Delivery?
    let deadline = start + .seconds(options.seconds * 10 + 60)
    while delivery == nil {
      waitForSchedule(until: .now + .milliseconds(10))
      let (now, statistics) = (ContinuousClock.now, camera.controller.previewStatistics)
      let frames = statistics?.frames ?? seen
      arrivals.note(now, count: Int(frames - seen))
      seen = frames
      if let timestamp = statistics?.latestFrameTimestamp {
        newest.append(CameraReading(at: now, timestamp: timestamp))
      }
      delivery = try movie.poll()
      guard ContinuousClock.now < deadline else { throw BenchError.failed("overload: no movie from HVTCamera") }
    }
    guard let delivery else { throw BenchError.failed("overload: no movie from HVTCamera") }
    arrivals.end(at: delivery.arrival)
    let duration = try MovieTimeline.read(delivery.url).duration
    guard let covered = CameraReading.wallTime(in: newest, from: delivery.metadata.frameTimestamp, lasting: duration)
    else { throw BenchError.failed("overload: the preview never showed the movie's last frame") }
    return OverloadReport(
      previewFrames: arrivals.frames, windowSeconds: start.duration(to: delivery.arrival).seconds,
      coveredSeconds: covered, longestGap: arrivals.longestGap.milliseconds,
      afterEnd: (start + .seconds(options.seconds)).duration(to: delivery.arrival).seconds,
      droppedCounted: delivery.metadata.framesDroppedForEncoder ?? 0, movie: delivery.url.path)
  }

  /// The same pipeline under `gst-launch-1.0`, in-process: the line `hvtcam describe` prints for the
  /// recording, `--seconds` of frames (`num-buffers`), its recording queue a plain `queue`; from PLAYING
  /// to the end of stream on the bus, the preview sink's frames counted by a pad probe.
  private static func overloadLaunchLine(_ options: BenchOptions) throws -> OverloadReport {
    let model = try OurCamera.pipelineModel(quality: options.quality, directory: options.directory)
    let path = options.directory.appendingPathComponent("launch-overload.mp4").path
    let pipeline = try Pipeline(
      launch: model.launchDescription(mode: .video, output: path, frames: options.seconds * 30))
    defer { pipeline.setState(.null) }
    guard let preview = pipeline.element(named: "preview")?.staticPad("sink"),
      let source = pipeline.element(named: "camera")?.staticPad("src")
    else { throw BenchError.failed("the launch line has no preview sink or no camera") }
    let arrivals = Locked(FrameArrivals())
    preview.addProbe(.buffer) { _, _ in
      let now = ContinuousClock.now
      arrivals.withLock { $0.note(now) }
      return .ok
    }
    // The camera's last frame: the probe runs before the tee takes it, however long that waits.
    let lastFrame = Locked<Instant?>(nil)
    source.addProbe(.buffer) { _, _ in
      let now = ContinuousClock.now
      lastFrame.withLock { $0 = now }
      return .ok
    }
    let ended = Awaited<Instant>()
    pipeline.bus.setSyncHandler { message in
      switch message {
      case .endOfStream: ended.fulfill(.now)
      case .error(let report): ended.fail(BenchError.failed("launch line: \(report)"))
      default: break
      }
    }
    defer { pipeline.bus.removeSyncHandler() }
    let start = ContinuousClock.now
    arrivals.withLock { $0.begin(at: start) }
    guard pipeline.setState(.playing) != .failure else { throw BenchError.failed("the launch line did not start") }
    let complete = try ended.wait("the launch line's end of stream", seconds: Double(options.seconds * 10 + 60))
    let counted = arrivals.withLock { arrivals in
      arrivals.end(at: complete)
      return arrivals
    }
    guard let last = lastFrame.withLock({ $0 }) else {
      throw BenchError.failed("the launch line's camera pushed nothing")
    }
    return OverloadReport(
      previewFrames: counted.frames, windowSeconds: start.duration(to: complete).seconds,
      coveredSeconds: start.duration(to: last).seconds, longestGap: counted.longestGap.milliseconds,
      afterEnd: (start + .seconds(options.seconds)).duration(to: complete).seconds, droppedCounted: nil, movie: path)
  }

  /// camerabin with our encoders' settings: started, a second to settle, then `start-capture` and,
  /// `--seconds` later, `stop-capture` until `video-done`; the viewfinder's frames counted by its probe.
  private static func overloadCameraBin(_ options: BenchOptions) throws -> OverloadReport {
    let model = try OurCamera.pipelineModel(quality: options.quality, directory: options.directory)
    guard let size = options.quality.requestedSize, let encoder = model.movieEncoderElement,
      let photoEncoder = model.photoEncoderElement
    else { throw BenchError.failed("the model has no size or encoders") }
    let camera = try CameraBin(size: size, encoder: encoder, photoEncoder: photoEncoder, directory: options.directory)
    defer { camera.stop() }
    _ = try camera.start()
    try camera.setVideoMode(true)
    waitForSchedule(until: .now + .seconds(1))
    let start = ContinuousClock.now
    camera.countViewfinder(from: start)
    _ = try camera.startRecording()
    waitForSchedule(until: start + .seconds(options.seconds))
    let stop = ContinuousClock.now
    _ = try camera.stopRecording()
    let complete = ContinuousClock.now
    let counted = camera.viewfinderArrivals(until: complete)
    let movies = try FileManager.default.contentsOfDirectory(atPath: options.directory.path)
      .filter { $0.hasPrefix("MOV_") }.sorted()
    guard let movie = movies.last else { throw BenchError.failed("camerabin wrote no movie") }
    return OverloadReport(
      previewFrames: counted.frames, windowSeconds: start.duration(to: complete).seconds,
      coveredSeconds: start.duration(to: stop).seconds, longestGap: counted.longestGap.milliseconds,
      afterEnd: (start + .seconds(options.seconds)).duration(to: complete).seconds, droppedCounted: nil,
      movie: options.directory.appendingPathComponent(movie).path)
  }
}

/// When the camera had made a frame: the running time (seconds) of the newest frame the preview had
/// received (`HVTPreviewStatistics.latestFrameTimestamp`) at a reading of the wall clock.
struct CameraReading {
  var at: Instant
  var timestamp: Double

  /// The wall time the camera took to make the frames of a movie starting at running time `first` and
  /// lasting `duration` seconds at 30 fps, its last frame a frame interval before that end, plus that
  /// frame: from the first reading that shows the first frame to the first that shows the last (the
  /// preview's delay and the readings' 10 ms alike at both ends). `nil` when no reading shows either.
  static func wallTime(in readings: [CameraReading], from first: Double, lasting duration: Double) -> Double? {
    let (interval, slack) = (1.0 / 30, 0.001)
    guard let begin = readings.first(where: { $0.timestamp >= first - slack }),
      let end = readings.first(where: { $0.timestamp >= first + duration - interval - slack })
    else { return nil }
    return begin.at.duration(to: end.at).seconds + interval
  }
}
