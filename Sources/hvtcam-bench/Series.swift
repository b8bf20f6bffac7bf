/// Repeated measurements of one figure, with the summary the report shows: median and range.
struct Series: Codable, Sendable {
  /// Every value, in the order measured.
  var values: [Double] = []

  /// Adds a value.
  mutating func add(_ value: Double) { values.append(value) }

  /// How many values there are.
  var count: Int { values.count }

  /// The median (the mean of the middle two for an even count); `nil` when empty.
  var median: Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The smallest value.
  var min: Double? { values.min() }
  /// The largest value.
  var max: Double? { values.max() }
  /// The sum of the values.
  var sum: Double { values.reduce(0, +) }
}
