import Foundation
import HVTCamera

/// The in-process rows, both engines in one process, alternating every round so that machine drift hits
/// both: start-up, shutter, shutter lag, record start and stop, and preview frames lost.
struct LatencyRounds {
  /// What one round of one engine measured.
  struct Round {
    var startup = Series()
    var shutter = Series()
    var frameAge = Series()
    var shutterWhileRecording = Series()
    var recordStart = Series()
    var movieFrameAge = Series()
    var recordStop = Series()
    var previewLostStills = Series()
    var previewLostRecording = Series()
    var driverLost = Series()

    mutating func append(_ other: Round) {
      startup.values += other.startup.values
      shutter.values += other.shutter.values
      frameAge.values += other.frameAge.values
      shutterWhileRecording.values += other.shutterWhileRecording.values
      recordStart.values += other.recordStart.values
      movieFrameAge.values += other.movieFrameAge.values
      recordStop.values += other.recordStop.values
      previewLostStills.values += other.previewLostStills.values
      previewLostRecording.values += other.previewLostRecording.values
      driverLost.values += other.driverLost.values
    }
  }

  let resolution: String
  let plan: BenchPlan
  let directory: URL
  /// The camera the engines take frames from.
  let camera: BenchCamera
  /// On a V4L2 camera, a third engine: the `gst-launch-1.0` lines of the same settings.
  let launchLines: LaunchLineRounds?
  /// The elements camerabin's encoders get: our model's `x264enc` and `jpegenc`, with their properties.
  let movieEncoder: HVTElementDescription
  let photoEncoder: HVTElementDescription

  /// The titles of the rows measured against camerabin and against the `gst-launch-1.0` lines alike.
  private static let startupTitle = "start-up: present() → first preview frame"
  private static let shutterTitle = "shutter: takePicture() → delegate holds the JPEG on disk"
  private static let recordStartTitle = "record start: startVideoCapture() → first frame entering the encoder"
  private static let recordStopTitle = "record stop: stopVideoCapture() → delegate holds the finalized movie"
  private var driverLostTitle: String {
    "frames lost by the driver during a \(plan.recordingSeconds) s recording (V4L2 sequence gaps)"
  }

  /// How long after the last capture a preview-loss window closes (a few frames, so that the newest
  /// preview frame is one made after it).
  static let settle = Duration.milliseconds(150)

  /// How long each engine is in video mode before its recording starts, as a person switches to video and
  /// then presses record: camerabin renegotiates its video branch then, HVTCamera makes the next
  /// recording's encoding ready (``ArmedRecording``).
  static let videoModeSettle = Duration.milliseconds(500)

  /// Reads our pipeline model at `resolution` on `camera` for the encoders camerabin must match.
  init(resolution: String, plan: BenchPlan, directory: URL, camera: BenchCamera = .simulated) throws {
    self.resolution = resolution
    self.plan = plan
    self.directory = directory
    self.camera = camera
    let model = try OurCamera.pipelineModel(
      quality: BenchPlan.quality(resolution), directory: directory, camera: camera)
    guard let movie = model.movieEncoderElement, let photo = model.photoEncoderElement
    else { throw BenchError.failed("our model has no movie or photo encoder") }
    movieEncoder = movie
    photoEncoder = photo
    launchLines =
      camera.node == nil
      ? nil : LaunchLineRounds(model: model, directory: directory, recordingSeconds: plan.recordingSeconds)
  }

  /// What the encoders of both engines ran with, as `gst-launch-1.0` words.
  struct Encoders: Codable, Sendable {
    /// Our model's `x264enc`.
    var hvtcamera: String
    /// camerabin's `x264enc`, its properties read back after they were set.
    var camerabin: String
  }

  /// Our encoder as `gst-launch-1.0` words.
  var ourEncoder: String {
    ([movieEncoder.factory] + movieEncoder.properties.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
  }

  /// Runs a warm-up round of each engine, then `plan.rounds` measured rounds, and returns the rows and
  /// the encoder settings both engines ran with.
  func run(log: (String) -> Void) throws -> (rows: [Row], encoders: Encoders) {
    log("\(resolution): warm-up")
    _ = try ours(burst: 3, seconds: 1, phase: .middle)
    let camerabinEncoder = try camerabin(burst: 3, seconds: 1, phase: .middle).encoder
    var hvtcamera = Round()
    var reference = Round()
    var launch = LaunchLineRounds.Round()
    for round in 0..<plan.rounds {
      log("\(resolution): round \(round + 1) of \(plan.rounds)")
      let phase = StopPhase(round: round, of: plan.rounds)
      if let launchLines, round % 2 == 1 { try launchLines.run(into: &launch, phase: phase) }
      if round % 2 == 0 {
        hvtcamera.append(try ours(burst: plan.burst, seconds: plan.recordingSeconds, phase: phase))
        reference.append(
          try camerabinRound(burst: plan.burst, seconds: plan.recordingSeconds, phase: phase, log: log))
      } else {
        reference.append(
          try camerabinRound(burst: plan.burst, seconds: plan.recordingSeconds, phase: phase, log: log))
        hvtcamera.append(try ours(burst: plan.burst, seconds: plan.recordingSeconds, phase: phase))
      }
      if let launchLines, round % 2 == 0 { try launchLines.run(into: &launch, phase: phase) }
    }
    let launchRows = launchLines == nil ? [] : rows(hvtcamera, launch)
    return (rows(hvtcamera, reference) + launchRows, Encoders(hvtcamera: ourEncoder, camerabin: camerabinEncoder))
  }

  /// One round of HVTCameraController, its recording stopped at `phase` of a frame interval after a frame.
  private func ours(burst: Int, seconds: Int, phase: StopPhase) throws -> Round {
    var round = Round()
    let camera = try OurCamera(quality: BenchPlan.quality(resolution), directory: directory, camera: self.camera)
    // Silent, as camerabin's profile is: like against like (the cost of sound has rows of its own).
    camera.controller.capturesAudio = false
    defer { camera.dismiss() }
    round.startup.add(try camera.present().milliseconds)
    let frameRate = try camera.frameRate
    let beforeStills = camera.previewCount
    for _ in 0..<burst {
      let (shutter, age) = try camera.takePicture()
      round.shutter.add(shutter.milliseconds)
      round.frameAge.add(age * 1000)
    }
    waitForSchedule(until: .now + Self.settle)
    round.previewLostStills.add(Double(beforeStills.framesLost(until: camera.previewCount, frameRate: frameRate)))

    camera.setVideoMode(true)
    waitForSchedule(until: .now + Self.videoModeSettle)
    let beforeRecording = camera.previewCount
    let start = try camera.startRecording()
    for still in 1..<(seconds * 2) {
      waitForSchedule(until: start + .milliseconds(500 * still))
      round.shutterWhileRecording.add(try camera.takePicture().shutter.milliseconds)
    }
    try waitForStop(after: start + .seconds(seconds), phase: phase, frameRate: frameRate) {
      camera.controller.sourceFrameCount
    }
    let (stop, movie) = try camera.stopRecording()
    round.recordStop.add(stop.milliseconds)
    guard let encoding = movie.metadata.encodingStartedAt else {
      throw BenchError.failed("the movie's metadata has no encodingStartedAt")
    }
    round.recordStart.add(start.duration(to: encoding).milliseconds)
    guard let movieFrameAge = movie.metadata.frameAge else {
      throw BenchError.failed("the movie's metadata has no frameAge")
    }
    round.movieFrameAge.add(movieFrameAge * 1000)
    if let lost = movie.metadata.framesLostByDriver { round.driverLost.add(Double(lost)) }
    waitForSchedule(until: .now + Self.settle)
    round.previewLostRecording.add(
      Double(beforeRecording.framesLost(until: camera.previewCount, frameRate: frameRate)))
    return round
  }

  /// A measured round of camerabin, run once more when it fails: in the VM its own `v4l2src` once stopped
  /// at a round's start ("Internal data stream error", not-linked, inside camerabin), which ended the
  /// whole run. The log says so; a second failure ends the run.
  private func camerabinRound(burst: Int, seconds: Int, phase: StopPhase, log: (String) -> Void) throws -> Round {
    do {
      return try camerabin(burst: burst, seconds: seconds, phase: phase).round
    } catch {
      log("\(resolution): camerabin failed (\(error)); its round runs once more")
      return try camerabin(burst: burst, seconds: seconds, phase: phase).round
    }
  }

  /// One round of camerabin, its recording stopped at `phase` of a frame interval after a frame, and what
  /// its `x264enc` ran with.
  private func camerabin(burst: Int, seconds: Int, phase: StopPhase) throws -> (round: Round, encoder: String) {
    var round = Round()
    guard let size = BenchPlan.quality(resolution).requestedSize else { throw BenchError.failed("no size") }
    let camera = try CameraBin(
      size: size, encoder: movieEncoder, photoEncoder: photoEncoder, directory: directory, camera: self.camera)
    defer { camera.stop() }
    round.startup.add(try camera.start().milliseconds)
    let beforeStills = camera.viewfinderCount
    for _ in 0..<burst {
      let (shutter, age) = try camera.takeStill()
      round.shutter.add(shutter.milliseconds)
      round.frameAge.add(age * 1000)
    }
    waitForSchedule(until: .now + Self.settle)
    let frameRate = Double(self.camera.frameRate)
    round.previewLostStills.add(Double(beforeStills.framesLost(until: camera.viewfinderCount, frameRate: frameRate)))

    try camera.setVideoMode(true)
    waitForSchedule(until: .now + Self.videoModeSettle)
    let beforeRecording = camera.viewfinderCount
    let start = ContinuousClock.now
    round.recordStart.add(try camera.startRecording().milliseconds)
    try waitForStop(after: start + .seconds(seconds), phase: phase, frameRate: frameRate) {
      camera.sourceFrameCount
    }
    round.recordStop.add(try camera.stopRecording().milliseconds)
    round.driverLost.add(Double(camera.framesLostByDriver))
    waitForSchedule(until: .now + Self.settle)
    round.previewLostRecording.add(
      Double(beforeRecording.framesLost(until: camera.viewfinderCount, frameRate: frameRate)))
    return (round, camera.encoderSettings)
  }

  /// The rows of this resolution.
  private func rows(_ ours: Round, _ theirs: Round) -> [Row] {
    let stills = plan.burst
    return [
      Row(
        id: "startup", title: Self.startupTitle, resolution: resolution, unit: "ms",
        hvtcamera: ours.startup,
        reference: ("camerabin", "PLAYING → first viewfinder buffer", theirs.startup)),
      Row(
        id: "shutter", title: Self.shutterTitle, resolution: resolution,
        unit: "ms", hvtcamera: ours.shutter, reference: ("camerabin", "start-capture → image-done", theirs.shutter)),
      Row(
        id: "shutter-lag",
        title: "shutter lag: age of the captured frame at the call (negative: a later frame)",
        resolution: resolution, unit: "ms", hvtcamera: ours.frameAge,
        reference: ("camerabin", "running time at start-capture − saved frame's timestamp", theirs.frameAge),
        hasRatio: false),
      Row(
        id: "record-start", title: Self.recordStartTitle,
        resolution: resolution, unit: "ms", hvtcamera: ours.recordStart,
        reference: ("camerabin", "start-capture (video mode) → x264enc sink pad", theirs.recordStart)),
      Row(
        id: "record-start-frame-age",
        title: "record start: age of the movie's first frame when startVideoCapture() attached the recording "
          + "(HVTMediaMetadata.frameAge)",
        resolution: resolution, unit: "ms", hvtcamera: ours.movieFrameAge),
      Row(
        id: "record-stop", title: Self.recordStopTitle,
        resolution: resolution, unit: "ms", hvtcamera: ours.recordStop,
        reference: ("camerabin", "stop-capture → video-done", theirs.recordStop)),
      Row(
        id: "preview-lost-stills", title: "preview frames lost during \(stills) stills", resolution: resolution,
        unit: "frames", hvtcamera: ours.previewLostStills,
        reference: ("camerabin", "viewfinder frames lost during \(stills) stills", theirs.previewLostStills),
        hasRatio: false),
      Row(
        id: "preview-lost-recording",
        title: "preview frames lost during a \(plan.recordingSeconds) s recording with a still every 500 ms",
        resolution: resolution, unit: "frames", hvtcamera: ours.previewLostRecording,
        reference: (
          "camerabin",
          "viewfinder frames lost during a \(plan.recordingSeconds) s recording (no stills: "
            + "camerabin cannot take one while recording)", theirs.previewLostRecording
        ), hasRatio: false),
      Row(
        id: "shutter-while-recording", title: "shutter while recording (a still every 500 ms)",
        resolution: resolution, unit: "ms", hvtcamera: ours.shutterWhileRecording),
    ] + driverRows(ours, theirs)
  }

  /// The rows against the `gst-launch-1.0` lines: each capture a new run of the command.
  private func rows(_ ours: Round, _ launch: LaunchLineRounds.Round) -> [Row] {
    let engine = "gst-launch-1.0"
    return [
      Row(
        id: "startup-gst-launch", title: Self.startupTitle, resolution: resolution,
        unit: "ms", hvtcamera: ours.startup,
        reference: (engine, "the photo line: parsed, then PLAYING → first frame at the preview sink", launch.startup)),
      Row(
        id: "shutter-gst-launch", title: Self.shutterTitle,
        resolution: resolution, unit: "ms", hvtcamera: ours.shutter,
        reference: (
          engine, "a photo is a new run of the photo line: parsed, then PLAYING → JPEG written", launch.shutter
        )),
      Row(
        id: "record-start-gst-launch", title: Self.recordStartTitle,
        resolution: resolution, unit: "ms", hvtcamera: ours.recordStart,
        reference: (engine, "the movie line: parsed, then PLAYING → first frame entering x264enc", launch.recordStart)),
      Row(
        id: "record-stop-gst-launch", title: Self.recordStopTitle,
        resolution: resolution, unit: "ms", hvtcamera: ours.recordStop,
        reference: (
          engine, "the movie line (-e): end of stream → its EOS message on the main thread, as an app's bus watch",
          launch.recordStop
        )),
      Row(
        id: "driver-lost-recording-gst-launch",
        title: driverLostTitle,
        resolution: resolution, unit: "frames", hvtcamera: ours.driverLost,
        reference: (engine, "the same, at v4l2src's pad in the movie line", launch.driverLost), hasRatio: false),
    ]
  }

  /// On a V4L2 camera: the frames its driver lost during each recording (gaps in the sequence numbers).
  private func driverRows(_ ours: Round, _ theirs: Round) -> [Row] {
    guard camera.node != nil else { return [] }
    return [
      Row(
        id: "driver-lost-recording",
        title: driverLostTitle,
        resolution: resolution, unit: "frames", hvtcamera: ours.driverLost,
        reference: ("camerabin", "the same, at v4l2src's pad", theirs.driverLost), hasRatio: false)
    ]
  }
}
