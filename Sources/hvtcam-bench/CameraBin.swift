import Foundation
import HVTCamera
import HVTGStreamer
import HVTSupport

/// GStreamer's `camerabin`, driven the way an application drives it: `wrappercamerabinsrc` around the
/// same source as ours (the simulated camera's live `videotestsrc`, or `v4l2src` on the same node), caps
/// pinned to the camera's format at the size and rate, an
/// MP4/H.264 video profile without audio whose `x264enc` and `jpegenc` get the same settings as ours,
/// captures started with the `start-capture` / `stop-capture` action signals and reported by the
/// `image-done` / `video-done` bus messages. Timestamps come from pad probes and the bus sync handler.
final class CameraBin: Sendable {
  /// What the probes and the bus have recorded.
  private struct Records {
    var viewfinderFrames: UInt64 = 0
    var viewfinderLatest: UInt?
    var firstViewfinderFrame: Awaited<Instant>?
    var imageTimestamps: [UInt] = []
    var imageDone: Awaited<Instant>?
    var previewImage: Awaited<Instant>?
    var videoDone: Awaited<Instant>?
    var encoderEntry: Awaited<Instant>?
    /// Properties camerabin's encoders refused, and errors it posted.
    var problems: [String] = []
    var encoderSettings = ""
    /// The frames the source has pushed.
    var sourceFrames: UInt64 = 0
    /// While recording: the gaps in the source's V4L2 sequence numbers so far.
    var recording = false
    var gaps = SequenceGaps()
    /// The viewfinder's frames over a window the benchmark chooses (``countViewfinder(from:)``).
    var arrivals = FrameArrivals()
  }

  let size: HVTFrameSize
  let pipeline: Pipeline
  private let records = Locked(Records())
  private let directory: URL
  /// The captures started so far, which name their files.
  private let captures = Locked(0)

  /// Builds camerabin in NULL. `encoder` and `photoEncoder` are our model's elements, whose properties
  /// camerabin's own `x264enc` and `jpegenc` get; the viewfinder is a `viewfinder` element of that
  /// factory (`fakesink`, or a window sink for the preview rows). With `previews`, camerabin posts a
  /// `preview-image` of each still at that size (`post-previews`, `preview-caps`).
  init(
    size: HVTFrameSize, encoder: HVTElementDescription, photoEncoder: HVTElementDescription, directory: URL,
    viewfinder viewfinderFactory: String = "fakesink", camera source: BenchCamera = .simulated,
    previews: HVTFrameSize? = nil
  ) throws {
    self.size = size
    self.directory = directory
    pipeline = try Pipeline(factory: "camerabin", name: "camerabin")
    let wrapper = try Element(factory: "wrappercamerabinsrc", name: "camera-source")
    let camera = try source.makeSource()
    camera.staticPad("src")?.addProbe(.buffer) { [records] _, info in
      let offset = info.buffer?.offset ?? ClockTime.none
      records.withLock { records in
        records.sourceFrames += 1
        if records.recording { records.gaps.note(offset) }
      }
      return .ok
    }
    try wrapper.set("video-source", camera)
    try pipeline.set("camera-source", wrapper)
    let viewfinder = try Element(factory: viewfinderFactory, name: "viewfinder")
    try viewfinder.setProperty("sync", fromString: "false")
    try pipeline.set("viewfinder-sink", viewfinder)
    let caps = source.caps(size)
    for property in ["viewfinder-caps", "image-capture-caps", "video-capture-caps"] {
      try pipeline.setProperty(property, fromString: caps)
    }
    try pipeline.setProperty("post-previews", fromString: previews == nil ? "false" : "true")
    if let previews {
      try pipeline.setProperty(
        "preview-caps", fromString: "video/x-raw,format=RGB,width=\(previews.width),height=\(previews.height)")
    }
    let profile = try EncodingProfile.container(
      name: "mp4", description: "MP4 with H.264 video, no audio", format: "video/quicktime,variant=iso",
      presetName: "mp4mux")
    try profile.add(
      EncodingProfile.video(format: "video/x-h264", restriction: "video/x-raw,format=I420", presetName: "x264enc"))
    try pipeline.set("video-profile", profile)

    guard let viewfinderPad = viewfinder.staticPad("sink") else { throw BenchError.failed("fakesink has no sink pad") }
    viewfinderPad.addProbe(.buffer) { [records] _, info in
      guard let buffer = info.buffer else { return .ok }
      let pts = buffer.presentationTime
      let now = ContinuousClock.now
      let first = records.withLock { records -> Awaited<Instant>? in
        records.viewfinderFrames += 1
        records.viewfinderLatest = pts
        records.arrivals.note(now)
        return records.viewfinderFrames == 1 ? records.firstViewfinderFrame : nil
      }
      first?.fulfill(.now)
      return .ok
    }
    // camerabin makes its encoders itself (inside encodebin): configure them and watch their inputs.
    pipeline.onDeepElementAdded { [records] element in
      switch element.factoryName {
      case "x264enc":
        let problems = Self.configure(element, like: encoder)
        let applied = encoder.properties.map { "\($0.name)=\((try? element.propertyString($0.name)) ?? "?")" }
        records.withLock {
          $0.encoderSettings = "x264enc " + applied.joined(separator: " ")
          $0.problems += problems
        }
        element.staticPad("sink")?.addProbe(.buffer) { _, _ in
          records.withLock { $0.encoderEntry }?.fulfill(.now)
          return .ok
        }
      case "jpegenc":
        let problems = Self.configure(element, like: photoEncoder)
        records.withLock { $0.problems += problems }
        element.staticPad("sink")?.addProbe(.buffer) { _, info in
          if let pts = info.buffer?.presentationTime { records.withLock { $0.imageTimestamps.append(pts) } }
          return .ok
        }
      default:
        break
      }
    }
    pipeline.bus.setSyncHandler { [records] message in
      let now = ContinuousClock.now
      switch message {
      case .element(_, "image-done", _):
        records.withLock { $0.imageDone }?.fulfill(now)
      case .element(_, "preview-image", _):
        records.withLock { $0.previewImage }?.fulfill(now)
      case .element(_, "video-done", _):
        records.withLock { $0.videoDone }?.fulfill(now)
      case .error(let report):
        // An error ends every wait at once, with GStreamer's message.
        let failure = BenchError.failed("camerabin: \(report)")
        let pending = records.withLock { records in
          records.problems.append(report.description)
          return [records.firstViewfinderFrame, records.imageDone, records.videoDone, records.encoderEntry]
        }
        pending.forEach { $0?.fail(failure) }
      default:
        break
      }
    }
  }

  /// What camerabin's `x264enc` runs with, read back from it after it was made, e.g.
  /// `x264enc speed-preset=superfast tune=zerolatency bitrate=2764 key-int-max=30`.
  var encoderSettings: String { records.withLock { $0.encoderSettings } }

  /// Sets the properties of `description` on one of camerabin's own elements; returns what it refused.
  private static func configure(_ element: Element, like description: HVTElementDescription) -> [String] {
    description.properties.compactMap { property in
      do {
        try element.setProperty(property.name, fromString: property.value)
        return nil
      } catch {
        return "camerabin's \(element.factoryName ?? "element"): \(error)"
      }
    }
  }

  /// Throws what went wrong so far: a refused property or an error camerabin posted.
  private func checkProblems() throws {
    if let problem = records.withLock({ $0.problems.first }) { throw BenchError.failed(problem) }
  }

  /// Sets PLAYING and returns the time from the call to the first viewfinder buffer.
  func start() throws -> Duration {
    let first = Awaited<Instant>()
    records.withLock { $0.firstViewfinderFrame = first }
    try pipeline.setProperty("mode", fromString: "mode-image")
    let start = ContinuousClock.now
    guard pipeline.setState(.playing) != .failure else { throw BenchError.failed("camerabin did not start") }
    let arrived = try first.wait("camerabin's first viewfinder frame")
    guard pipeline.state(timeout: 10).current == .playing else {
      throw BenchError.failed("camerabin did not reach PLAYING")
    }
    try checkProblems()
    return start.duration(to: arrived)
  }

  /// The viewfinder's frame count now.
  var viewfinderCount: PreviewCount {
    records.withLock {
      PreviewCount(frames: $0.viewfinderFrames, latestTimestamp: $0.viewfinderLatest.map(ClockTime.seconds))
    }
  }

  /// Takes a still: `start-capture` in image mode, then waits for `image-done`. Returns the time from the
  /// call to the message and the captured frame's age at the call (negative: made after the call).
  func takeStill() throws -> (shutter: Duration, frameAge: Double) {
    try pipeline.setProperty("location", fromString: directory.appendingPathComponent("IMG_\(nextCapture()).jpg").path)
    let done = Awaited<Instant>()
    let before = records.withLock { records -> Int in
      records.imageDone = done
      return records.imageTimestamps.count
    }
    guard let runningTime = pipeline.runningTime else { throw BenchError.failed("camerabin is not playing") }
    let start = ContinuousClock.now
    try pipeline.emit("start-capture")
    let finished = try done.wait("camerabin's image-done")
    let pts = records.withLock { $0.imageTimestamps.count > before ? $0.imageTimestamps[before] : nil }
    guard let pts else { throw BenchError.failed("camerabin's jpegenc saw no frame") }
    return (start.duration(to: finished), ClockTime.seconds(runningTime) - ClockTime.seconds(pts))
  }

  /// Takes a still with `post-previews` on: returns the time from `start-capture` to the `preview-image`
  /// message, then waits for `image-done`.
  func takeStillPreview() throws -> Duration {
    try pipeline.setProperty("location", fromString: directory.appendingPathComponent("IMG_\(nextCapture()).jpg").path)
    let (preview, done) = (Awaited<Instant>(), Awaited<Instant>())
    records.withLock { ($0.previewImage, $0.imageDone) = (preview, done) }
    let start = ContinuousClock.now
    try pipeline.emit("start-capture")
    let previewed = try preview.wait("camerabin's preview-image")
    _ = try done.wait("camerabin's image-done")
    return start.duration(to: previewed)
  }

  /// Switches to video mode (camerabin renegotiates its video branch).
  func setVideoMode(_ video: Bool) throws {
    try pipeline.setProperty("mode", fromString: video ? "mode-video" : "mode-image")
  }

  /// `start-capture` in video mode; returns the time until the first frame entered the encoder.
  func startRecording() throws -> Duration {
    try pipeline.setProperty("location", fromString: directory.appendingPathComponent("MOV_\(nextCapture()).mp4").path)
    let entry = Awaited<Instant>()
    records.withLock {
      $0.encoderEntry = entry
      $0.videoDone = nil
    }
    records.withLock { records in
      (records.recording, records.gaps) = (true, SequenceGaps())
    }
    let start = ContinuousClock.now
    try pipeline.emit("start-capture")
    let entered = try entry.wait("camerabin's encoder input")
    try checkProblems()
    return start.duration(to: entered)
  }

  /// `stop-capture`; returns the time until `video-done`.
  func stopRecording() throws -> Duration {
    let done = Awaited<Instant>()
    records.withLock { $0.videoDone = done }
    let start = ContinuousClock.now
    try pipeline.emit("stop-capture")
    let stopped = try done.wait("camerabin's video-done")
    records.withLock { $0.recording = false }
    return start.duration(to: stopped)
  }

  /// Gaps in the V4L2 sequence numbers of the source's frames (`GST_BUFFER_OFFSET`) during the last
  /// recording: frames the driver lost.
  /// The number of the capture starting now.
  private func nextCapture() -> Int {
    captures.withLock { count in
      count += 1
      return count
    }
  }

  var framesLostByDriver: Int { records.withLock { $0.gaps.lost } }

  /// The frames the camera source has pushed (a probe on its source pad), for the stop's point in its frame
  /// interval (``waitForStop(after:phase:frameRate:frames:)``).
  var sourceFrameCount: UInt64 { records.withLock { $0.sourceFrames } }

  /// Starts counting the viewfinder's frames at `now` (``FrameArrivals``).
  func countViewfinder(from now: Instant) { records.withLock { $0.arrivals.begin(at: now) } }

  /// Stops counting the viewfinder's frames at `now`; returns what arrived since ``countViewfinder(from:)``.
  func viewfinderArrivals(until now: Instant) -> FrameArrivals {
    records.withLock { records in
      records.arrivals.end(at: now)
      return records.arrivals
    }
  }

  /// Sets NULL.
  func stop() {
    pipeline.setState(.null)
  }
}
