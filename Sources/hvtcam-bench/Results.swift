import Foundation

/// One figure of one engine: every value measured and its summary.
struct Measurement: Codable, Sendable {
  /// Which engine: `hvtcamera`, `camerabin`, `gst-launch-1.0`, or `mp4mux (not fragmented)`.
  var engine: String
  var median: Double
  var min: Double
  var max: Double
  var count: Int
  var values: [Double]

  init?(engine: String, _ series: Series) {
    guard let median = series.median, let min = series.min, let max = series.max else { return nil }
    self.engine = engine
    self.median = median
    self.min = min
    self.max = max
    count = series.count
    values = series.values
  }
}

/// One row of the table: a figure at one resolution (or camera count), ours and the alternative's.
struct Row: Codable, Sendable {
  /// Stable identifier, e.g. `startup`, `shutter`, `cpu-per-frame`.
  var id: String
  /// What is measured, for people.
  var title: String
  /// `1280x720`, `1920x1080`, or `640x480 x4` for the concurrent cameras.
  var resolution: String
  /// `ms`, `frames`, `%`, `MiB`, `s`.
  var unit: String
  /// HVTCameraController's figure.
  var hvtcamera: Measurement?
  /// The alternative's figure, if the row has one.
  var reference: Measurement?
  /// What the alternative measures, in its own terms (e.g. `start-capture → image-done`).
  var referenceTitle: String?
  /// Whether ours divided by theirs means something (durations and costs, not counts or signed ages).
  var hasRatio: Bool
  /// Ours divided by the alternative's (medians), when the row has a ratio, both exist and the
  /// alternative's is not zero.
  var ratio: Double? {
    guard hasRatio, let ours = hvtcamera?.median, let theirs = reference?.median, theirs != 0 else { return nil }
    return ours / theirs
  }

  enum CodingKeys: String, CodingKey {
    case id, title, resolution, unit, hvtcamera, reference, referenceTitle, ratio, hasRatio
  }

  init(
    id: String, title: String, resolution: String, unit: String, hvtcamera: Series,
    reference: (engine: String, title: String, series: Series)? = nil, hasRatio: Bool = true
  ) {
    self.hasRatio = hasRatio
    self.id = id
    self.title = title
    self.resolution = resolution
    self.unit = unit
    self.hvtcamera = Measurement(engine: "hvtcamera", hvtcamera)
    self.reference = reference.flatMap { Measurement(engine: $0.engine, $0.series) }
    referenceTitle = reference?.title
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    resolution = try container.decode(String.self, forKey: .resolution)
    unit = try container.decode(String.self, forKey: .unit)
    hvtcamera = try container.decodeIfPresent(Measurement.self, forKey: .hvtcamera)
    reference = try container.decodeIfPresent(Measurement.self, forKey: .reference)
    referenceTitle = try container.decodeIfPresent(String.self, forKey: .referenceTitle)
    hasRatio = try container.decodeIfPresent(Bool.self, forKey: .hasRatio) ?? false
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(resolution, forKey: .resolution)
    try container.encode(unit, forKey: .unit)
    try container.encodeIfPresent(hvtcamera, forKey: .hvtcamera)
    try container.encodeIfPresent(reference, forKey: .reference)
    try container.encodeIfPresent(referenceTitle, forKey: .referenceTitle)
    try container.encode(hasRatio, forKey: .hasRatio)
    try container.encodeIfPresent(ratio, forKey: .ratio)
  }
}

/// Whether one of the targets is met, with the figures that say so.
struct TargetVerdict: Codable, Sendable {
  /// The target as the issue states it.
  var goal: String
  /// Where it was measured (resolution or camera count).
  var resolution: String
  /// Met or not.
  var met: Bool
  /// The measured figures behind the verdict.
  var measured: String
}

/// Everything one run produced: the machine, the plan, the rows and the verdicts.
struct BenchReport: Codable, Sendable {
  var version = 1
  var mode: String
  var command: String
  var date: String
  var durationSeconds: Double
  var machine: Machine
  var plan: BenchPlan
  /// Per size, the `x264enc` settings of both engines (camerabin's read back from its element).
  var encoders: [String: LatencyRounds.Encoders]
  var rows: [Row]
  var targets: [TargetVerdict]
}
