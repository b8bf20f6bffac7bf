import Foundation
import HVTGStreamer
import HVTSupport
import MediaInspection
import Testing

@testable import HVTCamera

/// A recording on a machine that encodes slower than the camera: by default every frame is kept, the camera
/// waiting for the encoder; with ``HVTSlowEncoderPolicy/leaveFramesOut`` the camera never waits, and frames
/// the encoder has no room for are left out and counted (``RecordingBacklog``). The drain keeps every frame
/// that entered the recording as long as the branch makes progress, and only a hard stall ends it, with a
/// typed error.
@Suite("Draining a slow recording", .timeLimit(.minutes(2)))
struct RecordingDrainTests {
  /// The default preset with an `identity sleep-time=…` after the encoder: each encoded frame takes
  /// `microseconds` to reach the muxer, as on a machine far too slow for the camera.
  static func slowPreset(microseconds: Int) throws -> HVTPreset {
    try HVTPreset.parse(
      """
      {
        "name": "slow", "description": "an encoder stage of \(microseconds) µs per frame", "quality": "640x480",
        "preview": "fakesink sync=false",
        "photo": { "encoder": "jpegenc", "extension": "jpg" },
        "movie": {
          "encoder": "x264enc speed-preset=ultrafast tune=zerolatency",
          "parser": "identity sleep-time=\(microseconds)",
          "muxer": "mp4mux fragment-duration=500", "extension": "mp4"
        }
      }
      """)
  }

  @Test("a drain that takes 13 s, with progress every 0.3 s, keeps every frame (the stall timeout is 3 s)")
  func slowDrainKeepsEveryFrame() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = try Self.slowPreset(microseconds: 300_000)
    // Ten times the interval between two frames' progress: the suite's other camera tests load the same
    // two cores, and a 1 s timeout was once reached between two of them.
    camera.controller.drainStallTimeout = 3
    try await camera.controller.presentAndWait()
    let movie = try await camera.controller.recordMovie(maximumDuration: 1.5)
    #expect(movie.interruption == nil)
    let frames = try #require(movie.metadata.frameCount)
    #expect(frames == 45, "45 frames entered the recording")
    let counted = try await MediaInspector.frameCount(movie.url.path)
    #expect(counted.frames == frames, "\(counted.output)")
    let discovery = try await MediaInspector.discover(movie.url.path)
    #expect(abs((discovery.duration ?? 0) - 1.5) <= 1.0 / 30 + 1e-6, "\(discovery)")
    await camera.controller.dismissAndWait()
  }

  @Test(
    "leaving frames out, an encoder stage of 300 ms a frame: the camera never waits for it; the 1.5 s movie keeps the frames the encoder took at their own times, the others left out, counted and reported"
  )
  func slowEncoderLeavesFramesOut() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = try Self.slowPreset(microseconds: 300_000)
    camera.controller.drainStallTimeout = 3
    camera.controller.videoMaximumDuration = 1.5
    camera.controller.slowEncoderPolicy = .leaveFramesOut
    try await camera.controller.presentAndWait()
    try await camera.startRecording()
    let started = ContinuousClock.now
    let stopped = try await camera.delegate.nextEvent {
      if case .recordingStopped(let elapsed, _) = $0 { elapsed } else { nil }
    }
    let recordingTime = ContinuousClock.now - started
    let movie = try await camera.delegate.nextCapture(.movie)
    let metadata = try movie.metadata
    let kept = try #require(metadata.frameCount)
    let dropped = try #require(metadata.framesDroppedForEncoder)
    #expect(
      kept + dropped == 45 && dropped > 0 && kept >= RecordingClock.minimumFrames, "\(kept) kept, \(dropped) left out")
    // The camera ran at its own rate: 1.5 s of its frames took about that long, not the 13.5 s the encoder
    // needs for all of them (a loaded machine may add a little, never that much).
    #expect(stopped == 1.5 && recordingTime < .seconds(4.5), "\(recordingTime) for \(stopped) s")
    // Read back: each frame at its own time on the camera's 30 fps grid; the missing ones are those counted.
    let times = try await MediaInspector.presentationTimes(try movie.movieURL.path)
    let slots = Set(times.map { Int(($0 * 30).rounded()) })
    #expect(times.count == kept && slots.count == kept && slots.allSatisfy { (0..<45).contains($0) }, "\(times)")
    #expect(times.allSatisfy { abs($0 * 30 - ($0 * 30).rounded()) < 0.01 }, "\(times)")
    #expect(45 - slots.count == dropped)
    let reported = camera.delegate.calls.compactMap { call -> Int? in
      if case .event(.recordingFramesDropped(let total, _)) = call { total } else { nil }
    }
    #expect(!reported.isEmpty && reported == reported.sorted() && reported.last! <= dropped, "\(reported)")
    await camera.controller.dismissAndWait()
  }

  /// Makes `element` of the camera's running pipeline take `seconds` more for each frame: a probe on its
  /// sink pad holds its streaming thread, as a machine far too slow for the encoder would.
  static func slowDown(_ element: String, of camera: TestCamera, by seconds: Double) throws {
    let session = try #require(camera.controller.currentSession)
    let pad = try #require(session.pipeline.element(named: element)?.staticPad("sink"), "no \(element)")
    pad.addProbe(.buffer) { _, _ in
      Thread.sleep(forTimeInterval: seconds)
      return .ok
    }
  }

  /// The preview's rate (``cameraRate(of:)``) above which the camera never waited for a 300 ms encoder:
  /// it gets about 3 frames a second if it waits and 30 if not, but a preview starved of CPU may leave
  /// some out (19.5 once, in a loaded Debian 13 tier run); 10 is three times either side.
  static let neverWaited = 10.0

  /// Starts counting the frames `camera`'s preview receives; the function returned says how many a
  /// second it received since. A camera held back by an encoder 300 ms a frame gets about 3; one that
  /// never waits, 30 — however late the test itself is scheduled on a loaded machine.
  static func cameraRate(of camera: TestCamera) throws -> () -> Double {
    let frames = try #require(camera.controller.previewStatistics).frames
    let started = ContinuousClock.now
    return {
      let received = Double((camera.controller.previewStatistics?.frames ?? frames) - frames)
      return received / HVTCameraController.seconds(started.duration(to: .now))
    }
  }

  /// The frames missing from a movie of `seconds` at 30 fps, by its timestamps (`times`, read back):
  /// `nil` when one is not on the 30 fps grid from 0 or not within the movie, or two share a slot.
  static func framesMissing(_ times: [Double], seconds: Int) -> Int? {
    let slots = Set(times.map { Int(($0 * 30).rounded()) })
    guard slots.count == times.count, slots.allSatisfy({ (0..<seconds * 30).contains($0) }),
      times.allSatisfy({ abs($0 * 30 - ($0 * 30).rounded()) < 0.01 })
    else { return nil }
    return seconds * 30 - slots.count
  }

  /// Expects `movie`, of `seconds` at 30 fps, to hold the frames its metadata counts, some left out for
  /// the encoder, and its count of those left out to be the frames its timestamps miss (read by FFmpeg).
  static func expectFramesLeftOutCounted(in movie: HVTCapture, seconds: Int) async throws {
    let kept = try #require(movie.metadata.frameCount)
    let dropped = try #require(movie.metadata.framesDroppedForEncoder)
    let times = try await MediaInspector.presentationTimes(movie.url.path)
    #expect(
      times.count == kept && kept >= RecordingClock.minimumFrames && dropped > 0, "\(kept) kept, \(dropped) left out")
    #expect(Self.framesMissing(times, seconds: seconds) == dropped, "\(times)")
  }

  @Test(
    "leaving frames out, a pre-roll whose encoder takes 300 ms a frame: the camera never waits for it; a movie taking its video counts the frames it left out, as many as are missing by timestamp"
  )
  func slowPreRollLeavesFramesOut() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.drainStallTimeout = 3
    camera.controller.preRollDuration = 1
    camera.controller.slowEncoderPolicy = .leaveFramesOut
    try await camera.controller.presentAndWait()
    try Self.slowDown("movie-encoder", of: camera, by: 0.3)
    _ = try await camera.delegate.nextEvent { if case .preRollFilled = $0 { true } else { nil } }
    let camerasRate = try Self.cameraRate(of: camera)
    let movie = try await camera.controller.recordMovie(maximumDuration: 3)
    // The camera ran at its own rate (waiting for the encoder, at about 3 frames a second).
    #expect(camerasRate() >= Self.neverWaited)
    try await Self.expectFramesLeftOutCounted(in: movie, seconds: 3)
    await camera.controller.dismissAndWait()
  }

  @Test(
    "leaving frames out, a streams' encoder that takes 300 ms a frame: the camera never waits for it; streamFramesDropped reports what it leaves out, and a movie recorded on it counts those it is missing"
  )
  func slowStreamEncoderLeavesFramesOut() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.drainStallTimeout = 3
    camera.controller.slowEncoderPolicy = .leaveFramesOut
    try await camera.controller.presentAndWait()
    _ = try await camera.controller.startStreaming(
      to: .hls(directory: camera.directory.appendingPathComponent("stream", isDirectory: true)))
    try Self.slowDown("stream-encoding-encoder", of: camera, by: 0.3)
    let camerasRate = try Self.cameraRate(of: camera)
    let movie = try await camera.controller.recordMovie(maximumDuration: 2)
    #expect(camerasRate() >= Self.neverWaited)
    let reported = try await camera.delegate.nextEvent { event -> Int? in
      if case .streamFramesDropped(.movie, let total) = event { total } else { nil }
    }
    #expect(reported > 0)
    try await Self.expectFramesLeftOutCounted(in: movie, seconds: 2)
    await camera.controller.dismissAndWait()
  }

  @Test("a branch that makes no progress for drainStallTimeout ends with drainStalled, naming the partial file")
  func hardStallIsATypedError() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = try Self.slowPreset(microseconds: 4_000_000)
    camera.controller.drainStallTimeout = 0.5
    try await camera.controller.presentAndWait()
    let error = await #expect(throws: HVTCameraError.self) {
      try await camera.controller.recordMovie(maximumDuration: 0.5)
    }
    guard case .drainStalled(let partial, let seconds, let frames) = error else {
      Issue.record("expected drainStalled, got \(String(describing: error))")
      return
    }
    #expect(seconds == 0.5 && frames == 15)
    #expect(partial.hasSuffix(".partial.mp4") && FileManager.default.fileExists(atPath: partial))
    // The camera keeps running: a photo still works.
    #expect(try await camera.controller.capturePhoto().image?.width == 640)
    await camera.controller.dismissAndWait()
  }

  /// Records 9 s with `policy`, the encoder's thread stopped for 7.5 s at the movie's first frame (a probe
  /// on the converter before the encoder), and returns the movie, delivered with no failure reported, and
  /// the movie's time of the frame held. The probe goes on the next recording's encoding, made ahead in
  /// video mode (``ArmedRecording``: its encoder's `latency` message says it is open), before the
  /// recording starts: however late this task runs on a loaded machine, the stall is at the movie's start
  /// (a probe added after the start once held a frame 7.8 s into the movie).
  static func recordWithEncoderStall(policy: HVTSlowEncoderPolicy) async throws -> (
    TestCamera, Capture, stalledAt: Double
  ) {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.videoMaximumDuration = 9
    camera.controller.slowEncoderPolicy = policy
    var messages = camera.controller.busMessages.makeAsyncIterator()
    try await camera.controller.presentAndWait()
    while let message = await messages.next(), !ArmedRecordingTests.saysOpened(message) {}
    let session = try #require(camera.controller.currentSession)
    let converter = try #require(session.pipeline.element(named: "recording-convert")?.staticPad("sink"))
    // The movie's time of the frame held (the branch's entry wrote its timestamp from the movie's start).
    let stalledAt = Locked<Double?>(nil)
    converter.addProbe(.buffer) { _, info in
      let first = stalledAt.withLock { stalledAt in
        defer { stalledAt = stalledAt ?? info.buffer.map { ClockTime.seconds($0.presentationTime) } }
        return stalledAt == nil
      }
      if first { Thread.sleep(forTimeInterval: 7.5) }
      return .ok
    }
    try await camera.startRecording()
    let movie = try await camera.delegate.nextCapture(.movie)
    let failures = camera.delegate.calls.filter { if case .failed = $0 { true } else { false } }
    #expect(failures.isEmpty, "\(failures)")
    return (camera, movie, try #require(stalledAt.withLock { $0 }))
  }

  @Test("an encoder that stops for longer than the recording queue holds the camera back: it is not given up")
  func backPressureIsNoStall() async throws {
    // The queue before the encoder holds 3 s, so the tee then waits for room, with a frame inside it, for
    // 4.5 s. A stalled camera would be given up after 3.5 s (0.5 s to call it stalled, then the default
    // timeout of 3 s). A loaded machine may delay a frame long enough to announce a stall, so only giving
    // up counts here.
    let (camera, movie, _) = try await Self.recordWithEncoderStall(policy: .keepEveryFrame)
    let metadata = try movie.metadata
    #expect(metadata.frameCount == 270, "9 s at 30 fps")
    let counted = try await MediaInspector.frameCount(try movie.movieURL.path)
    #expect(counted.frames == 270, "\(counted.output)")
    await camera.controller.dismissAndWait()
  }

  @Test(
    "leaving frames out, an encoder that stops for 7.5 s once: the camera is not held back nor the recording given up; the 9 s movie keeps its timeline, the frames past the backlog's 3 s left out and counted"
  )
  func encoderStallLeavesFramesOut() async throws {
    // The backlog before the encoder takes 2 s of frames, every other one up to 3 s, then none until the
    // encoder goes on: every frame from 3 s after the one held until the stall's end (or the movie's) is
    // left out.
    let (camera, movie, stalledAt) = try await Self.recordWithEncoderStall(policy: .leaveFramesOut)
    let unbuffered = min(stalledAt + 7.5, 9) - (stalledAt + 3)
    try #require(unbuffered >= 1, "the encoder stalled at \(stalledAt) s, too late in the 9 s movie")
    let metadata = try movie.metadata
    let kept = try #require(metadata.frameCount)
    let dropped = try #require(metadata.framesDroppedForEncoder)
    #expect(
      kept + dropped == 270 && Double(dropped) >= 30 * unbuffered,
      "9 s at 30 fps, stalled at \(stalledAt) s: \(kept) kept, \(dropped) left out")
    let times = try await MediaInspector.presentationTimes(try movie.movieURL.path)
    #expect(times.count == kept && 270 - Set(times.map { Int(($0 * 30).rounded()) }).count == dropped)
    await camera.controller.dismissAndWait()
  }
}
