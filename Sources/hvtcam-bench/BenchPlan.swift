import HVTCamera

/// How many of everything a run measures: the full run the issue asks for, or the quick smoke run.
struct BenchPlan: Codable, Sendable {
  /// The sizes of the latency and throughput rows.
  var resolutions: [String]
  /// Rounds per resolution; each round measures each engine once, alternating which goes first: a
  /// start-up, a burst of stills, a recording.
  var rounds: Int
  /// Stills per burst.
  var burst: Int
  /// Seconds each recording of a round lasts (with a still every 500 ms for HVTCamera).
  var recordingSeconds: Int
  /// Frames per recording in the CPU rows.
  var cpuFrames: Int
  /// Frames of the short recordings that, subtracted, give the steady cost of a frame.
  var cpuShortFrames: Int
  /// Recordings per engine and resolution in the CPU rows.
  var cpuRepetitions: Int
  /// Camera counts of the concurrency rows.
  var concurrentCameras: [Int]
  /// Seconds the concurrent cameras record.
  var concurrentSeconds: Int
  /// Stills in the memory soak.
  var soakStills: Int
  /// Recordings (half a second each) in the memory soak.
  var soakRecordings: Int
  /// Seconds into a recording the crash rows kill the process.
  var crashAfterSeconds: Int
  /// Kills per engine and resolution in the crash rows.
  var crashRepetitions: Int
  /// The preview-window rows (absent from the reports of runs made before they existed).
  var previewWindow: PreviewWindow?
  /// Frames of the long recording whose sound's drift from its picture is measured (none: no such row;
  /// absent from older reports).
  var driftFrames: Int? = nil
  /// Seconds of the longer pre-roll the pre-roll row sets against one of a second (none: no such row;
  /// absent from older reports).
  var preRollSeconds: Int? = nil
  /// The streaming rows, at the first size (none: no such rows; absent from older reports).
  var streaming: Streaming? = nil
  /// The overload rows (none: no such rows; absent from older reports).
  var overload: Overload? = nil

  /// Where and how long the overload rows (``OverloadRows``) record.
  struct Overload: Codable, Sendable {
    /// The sizes recorded at.
    var resolutions: [String]
    /// Seconds each recording lasts.
    var seconds: Int
    /// Shell loops spinning beside each engine.
    var busyLoops: Int
  }

  /// Rounds and seconds of the preview-window rows, at the first size.
  struct PreviewWindow: Codable, Sendable {
    /// Rounds; each runs every engine once, alternating the order, and the controls' activity run.
    var rounds: Int
    /// Seconds each engine shows the preview for.
    var seconds: Int
  }

  /// How the streaming rows measure: their CPU rows take `cpuFrames` and `cpuRepetitions`.
  struct Streaming: Codable, Sendable {
    /// The client counts whose recordings are checked for lost frames (1 is the CPU rows' own).
    var clients: [Int]
    /// Frames of the recordings with more than one client.
    var clientFrames: Int
    /// Rounds of the latency rows; each runs both engines, alternating which goes first.
    var latencyRounds: Int
    /// Brightness changes per engine and round.
    var toggles: Int
  }

  /// The preview-window rows' plan (none for an old report).
  var preview: PreviewWindow { previewWindow ?? PreviewWindow(rounds: 0, seconds: 0) }

  /// The full run: at least 20 stills, 8 recordings and 5 start-ups per engine and resolution.
  static let full = BenchPlan(
    resolutions: ["1280x720", "1920x1080"], rounds: 8, burst: 20, recordingSeconds: 2, cpuFrames: 300,
    cpuShortFrames: 30, cpuRepetitions: 5, concurrentCameras: [1, 2, 4], concurrentSeconds: 5, soakStills: 200,
    soakRecordings: 20,
    crashAfterSeconds: 3, crashRepetitions: 2, previewWindow: PreviewWindow(rounds: 6, seconds: 4),
    driftFrames: 18_000, preRollSeconds: 11,
    streaming: Streaming(clients: [1, 4, 16], clientFrames: 300, latencyRounds: 4, toggles: 10),
    overload: Overload(resolutions: ["1920x1080", "3840x2160"], seconds: 15, busyLoops: 2))

  /// The smoke run: every row, once, 1280x720 only; about a minute in a release build.
  static let quick = BenchPlan(
    resolutions: ["1280x720"], rounds: 1, burst: 5, recordingSeconds: 1, cpuFrames: 60, cpuShortFrames: 30,
    cpuRepetitions: 1,
    concurrentCameras: [1, 2, 4], concurrentSeconds: 1, soakStills: 10, soakRecordings: 2, crashAfterSeconds: 2,
    crashRepetitions: 1, previewWindow: PreviewWindow(rounds: 1, seconds: 2), preRollSeconds: 2,
    streaming: Streaming(clients: [1, 4, 16], clientFrames: 60, latencyRounds: 1, toggles: 4),
    overload: Overload(resolutions: ["1280x720"], seconds: 2, busyLoops: 2))

  /// The real-camera rows (`--camera`), under emulation in the VM tier: 640x480 only, sixteen rounds (the
  /// emulated machine varies from round to round about as much as the engines differ, and a record stop
  /// waits, for either engine, for the frame the encoder is on: 0 to about 16 ms there, so that the
  /// medians of eight stops moved by a factor of two between runs); CPU per frame from recordings of 100
  /// and 25 frames, five times (the medians of two moved from 0.92× to 1.15× the line between runs).
  static let realCamera = BenchPlan(
    resolutions: ["640x480"], rounds: 16, burst: 5, recordingSeconds: 2, cpuFrames: 100, cpuShortFrames: 25,
    cpuRepetitions: 5, concurrentCameras: [], concurrentSeconds: 0, soakStills: 0, soakRecordings: 0,
    crashAfterSeconds: 0, crashRepetitions: 0, previewWindow: nil)

  /// The controller quality of a resolution.
  static func quality(_ resolution: String) -> HVTCameraController.QualityType {
    HVTCameraController.QualityType(commandLineName: resolution) ?? .type1280x720
  }
}
