import Foundation
import HVTGStreamer
import MediaInspection
import Testing

@testable import HVTCamera

/// Movies with sound (`capturesAudio`): from the simulated microphone, encoded for the container, lined
/// up with the video, and a movie that keeps its video when the microphone fails. Read back by ffprobe.
///
/// One at a time: seven recordings with sound at once, beside the rest of the suite on two cores, left
/// the simulated microphone's first encoded sound more than ``RecordingAudio/startTimeout`` late in two
/// clean-clone runs in a row, and the engine then (by design) gives the sound up.
@Suite(
  "Sound in movies", .serialized, .timeLimit(.minutes(2)),
  .enabled(if: MediaInspector.hasFFprobe, "ffprobe is not installed"))
struct AudioRecordingTests {
  /// One frame at 30 fps: how far apart the two streams may start and end.
  static let frame = 1.0 / 30

  /// What a recording's start said about its sound.
  enum Start { case silent(reason: String), started }

  /// Records with the simulated camera at 640x480 until `seconds` (the maximum duration) or, with
  /// `stopAfter`, until that many seconds are recorded and `stopVideoCapture()` is called. Returns the
  /// reason of an ``HVTCameraEvent/audioUnavailable(reason:)`` that came before the recording started.
  func record(
    preset: HVTPreset? = nil, capturesAudio: Bool = true, seconds: Double = 2, stopAfter: Double? = nil
  ) async throws -> (movie: Capture, streams: [MediaInspector.Stream], silence: String?) {
    let camera = try TestCamera(mode: .video, present: false)
    if let preset { camera.controller.preset = preset }
    camera.controller.videoQuality = .type640x480
    camera.controller.capturesAudio = capturesAudio
    camera.controller.videoMaximumDuration = seconds
    try await camera.controller.presentAndWait()
    guard camera.controller.startVideoCapture() else { throw TestFailure("startVideoCapture() returned false") }
    let start = try await camera.delegate.nextEvent { event -> Start? in
      switch event {
      case .audioUnavailable(let reason): .silent(reason: reason)
      case .recordingStarted: .started
      default: nil
      }
    }
    var silence: String?
    if case .silent(let reason) = start {
      silence = reason
      _ = try await camera.delegate.nextEvent { if case .recordingStarted = $0 { true } else { nil } }
    }
    if let stopAfter {
      try await camera.waitForRecorded(seconds: stopAfter)
      camera.controller.stopVideoCapture()
    }
    let movie = try await camera.delegate.nextCapture(.movie)
    return (movie, try await MediaInspector.streams(try movie.movieURL.path), silence)
  }

  /// Checks that the movie has one video and one sound stream that start and end within a frame of
  /// each other, and that the metadata says what was written.
  func expectLinedUp(_ streams: [MediaInspector.Stream], _ movie: Capture, codec: String) throws {
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    let sound = try #require(streams.first { $0.type == "audio" }, "\(streams)")
    #expect(streams.count == 2 && sound.codec == codec, "\(streams)")
    #expect(sound.sampleRate == 48_000 && sound.channels == 2, "\(sound)")
    #expect(abs(sound.start - video.start) < Self.frame, "\(streams)")
    #expect(abs(sound.end - video.end) < Self.frame, "\(streams)")
    let metadata = try movie.metadata
    #expect(metadata.audioEncoder != nil, "\(metadata)")
    let written = try #require(metadata.audioDuration)
    #expect(
      abs(written - (metadata.duration ?? 0)) < Self.frame, "sound \(written) s, video \(metadata.duration ?? 0) s")
  }

  @Test("microphones are asked of PulseAudio only where its server's socket is, never of a server that is not there")
  func providersAsked() throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let runtime = ["XDG_RUNTIME_DIR": directory.path]
    #expect(!Microphones.providers(environment: runtime).contains("pulsedeviceprovider"))
    #expect(Microphones.providers(environment: ["PULSE_SERVER": "tcp:127.0.0.1:4713"]).contains("pulsedeviceprovider"))
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("pulse"), withIntermediateDirectories: true)
    #expect(
      FileManager.default.createFile(atPath: directory.appendingPathComponent("pulse/native").path, contents: nil))
    #expect(Microphones.providers(environment: runtime).contains("pulsedeviceprovider"))
  }

  @Test("sound is cut to the sample at the movie's first frame and at its end, its timestamps from the first frame")
  func cutToTheSample() {
    let sample = 1e9 / 48_000
    var timing = RecordingAudio.Timing(end: 1_000_000_000)
    // Before the first frame is known, nothing goes through.
    #expect(timing.admit(start: 0, frames: 480, sample: sample) == .drop)
    timing.base = 2_000_000_000
    #expect(timing.admit(start: 1_980_000_000, frames: 480, sample: sample) == .drop)
    // 5 ms (240 samples) of this 10 ms buffer come before the first frame.
    #expect(timing.admit(start: 1_995_000_000, frames: 480, sample: sample) == .pass(skip: 240, keep: 240, start: 0))
    // A microphone whose first sound comes 1 ms after the first frame is led in by 48 samples of silence.
    var late = RecordingAudio.Timing(base: 2_000_000_000, end: 1_000_000_000)
    #expect(
      late.admit(start: 2_001_000_000, frames: 480, sample: sample) == .pass(skip: 0, keep: 480, silence: 48, start: 0))
    #expect(
      late.admit(start: 2_011_000_000, frames: 480, sample: sample) == .pass(skip: 0, keep: 480, start: 11_000_000))
    #expect(
      timing.admit(start: 2_005_000_000, frames: 480, sample: sample) == .pass(skip: 0, keep: 480, start: 5_000_000))
    // The video ended 1 s after its start: the buffer across it keeps its first 2.5 ms (120 samples),
    // the next one ends the stream, and nothing follows.
    #expect(
      timing.admit(start: 2_997_500_000, frames: 480, sample: sample) == .pass(skip: 0, keep: 120, start: 997_500_000))
    #expect(timing.written == 1_000_000_000)
    #expect(timing.admit(start: 3_007_500_000, frames: 480, sample: sample) == .end)
    #expect(timing.admit(start: 3_017_500_000, frames: 480, sample: sample) == .drop)
  }

  @Test(
    "a movie that reaches its maximum duration has AAC sound from the simulated microphone, lined up with its video")
  func aacAtTheLimit() async throws {
    let (movie, streams, silence) = try await record(seconds: 2)
    #expect(silence == nil)
    try expectLinedUp(streams, movie, codec: "aac")
    #expect(try movie.metadata.stopReason == .maximumDurationReached)
  }

  @Test("a movie stopped on request ends its sound with its last frame")
  func aacOnRequest() async throws {
    let (movie, streams, _) = try await record(seconds: 60, stopAfter: 1)
    try expectLinedUp(streams, movie, codec: "aac")
  }

  @Test("WebM movies get Opus sound")
  func opusInWebM() async throws {
    let (movie, streams, _) = try await record(preset: try HVTPreset.named("webm-vp8"), seconds: 1.5)
    try expectLinedUp(streams, movie, codec: "opus")
  }

  @Test("capturesAudio = false makes a silent movie")
  func silent() async throws {
    let (movie, streams, _) = try await record(capturesAudio: false, seconds: 1)
    #expect(streams.map(\.type) == ["video"], "\(streams)")
    #expect(try movie.metadata.audioEncoder == nil && movie.metadata.audioDuration == nil)
  }

  @Test("a microphone that cannot be opened: the movie keeps its video, and an event says why")
  func microphoneMissing() async throws {
    var preset = try HVTPreset.default
    preset.audioSource = HVTElementDescription("filesrc", ["location": "/nonexistent/microphone"])
    let (movie, streams, silence) = try await record(preset: preset, seconds: 1)
    #expect(streams.map(\.type) == ["video"], "\(streams)")
    #expect(abs((streams.first?.duration ?? 0) - 1) < Self.frame, "\(streams)")
    let reason = try #require(silence)
    #expect(reason.contains("microphone (microphone) could not be opened"), "\(reason)")
    #expect(try movie.metadata.audioEncoder == nil)
  }

  @Test("a microphone that stops delivering mid-recording: the sound ends there, the video goes on to the end")
  func microphoneStops() async throws {
    var preset = try HVTPreset.default
    // One second of sound (100 buffers of 10 ms), then its end of stream.
    preset.audioSource = HVTPipelineModel.simulatedMicrophone.setting("num-buffers", to: "100")
    let (movie, streams, _) = try await record(preset: preset, seconds: 2)
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    #expect(abs(video.duration - 2) < Self.frame, "\(streams)")
    #expect(try movie.metadata.stopReason == .maximumDurationReached)
    // The sound never outlasts the microphone's second. (On a heavily loaded machine the camera's frames
    // may come more than that second after the microphone's first sound, which then lies wholly before
    // the movie's first frame: the movie is silent, seen once in a full parallel run.)
    if let sound = streams.first(where: { $0.type == "audio" }) {
      #expect(sound.end < 1.1, "\(streams)")
      // The metadata counts the samples that went to the encoder; voaacenc keeps the last 1024 or so.
      #expect(try movie.metadata.audioDuration.map { abs($0 - sound.duration) < 0.05 } ?? false, "\(streams)")
    } else {
      #expect(try movie.metadata.audioDuration == nil)
    }
  }

  @Test("a chosen microphone takes the place of the simulated one: the movie has its 880 Hz tone, not the 440 Hz one")
  func chosenMicrophone() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.microphone = HVTMicrophone(
      name: "Tone", api: "test",
      source: HVTElementDescription("audiotestsrc", ["is-live": "true", "freq": "880", "samplesperbuffer": "480"]))
    try await camera.controller.presentAndWait()
    let movie = try await camera.controller.recordMovie(maximumDuration: 1)
    let streams = try await MediaInspector.streams(movie.url.path)
    try expectLinedUp(streams, Capture(movie.info), codec: "aac")
    let rate = try await MediaInspector.zeroCrossingRate(movie.url.path)
    #expect(abs(rate - 2 * 880 / 48_000) < 0.004, "zero crossings per sample: \(rate) (440 Hz: 0.0183)")
  }
}
