import CGStreamer

/// A fraction as caps hold it, e.g. a frame rate of `30000/1001`.
public struct Fraction: Sendable, Hashable, CustomStringConvertible {
  /// The numerator.
  public var numerator: Int
  /// The denominator.
  public var denominator: Int

  /// Creates `numerator/denominator`.
  public init(_ numerator: Int, _ denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// `30/1`, as in caps.
  public var description: String { "\(numerator)/\(denominator)" }
}

/// The integers one caps field allows: a fixed value (`width=(int)640`), a list (`{ 360, 480 }`) or a
/// range (`[ 16, 3840 ]`, possibly with a step: `[ 16, 3840, 2 ]`).
public enum CapsIntValues: Sendable, Hashable {
  /// One value.
  case fixed(Int)
  /// Any of these values, in the order the caps list them.
  case list([Int])
  /// Any value from `bounds.lowerBound` to `bounds.upperBound` in steps of `step` (1 when none is given).
  case range(ClosedRange<Int>, step: Int)
}

/// The fractions one caps field allows: a fixed value (`framerate=(fraction)30/1`), a list
/// (`{ 30/1, 15/1 }`) or a range (`[ 1/1, 30/1 ]`).
public enum CapsFractionValues: Sendable, Hashable {
  /// One value.
  case fixed(Fraction)
  /// Any of these values, in the order the caps list them.
  case list([Fraction])
  /// Any value from `min` to `max`.
  case range(min: Fraction, max: Fraction)
}

extension CapsStructure {
  /// The integers `field` allows, or `nil` when the field is absent or holds something else. Wraps
  /// `gst_structure_get_value`, `gst_value_get_int_range_min` / `_max` / `_step` and
  /// `gst_value_list_get_value`.
  public func intValues(_ field: String) -> CapsIntValues? {
    guard let value = gst_structure_get_value(pointer, field) else { return nil }
    let type = hvt_g_value_type(value)
    if type == hvt_g_type_int() { return .fixed(Int(g_value_get_int(value))) }
    if type == gst_int_range_get_type() {
      let bounds = Int(gst_value_get_int_range_min(value))...Int(gst_value_get_int_range_max(value))
      return .range(bounds, step: Int(gst_value_get_int_range_step(value)))
    }
    guard type == gst_value_list_get_type() else { return nil }
    let items = (0..<gst_value_list_get_size(value)).compactMap { index -> Int? in
      guard let item = gst_value_list_get_value(value, index), hvt_g_value_type(item) == hvt_g_type_int() else {
        return nil
      }
      return Int(g_value_get_int(item))
    }
    return .list(items)
  }

  /// The fractions `field` allows, or `nil` when the field is absent or holds something else. Wraps
  /// `gst_structure_get_value`, `gst_value_get_fraction_numerator` / `_denominator`,
  /// `gst_value_get_fraction_range_min` / `_max` and `gst_value_list_get_value`.
  public func fractionValues(_ field: String) -> CapsFractionValues? {
    guard let value = gst_structure_get_value(pointer, field) else { return nil }
    func fraction(_ value: UnsafePointer<GValue>) -> Fraction? {
      guard hvt_g_value_type(value) == gst_fraction_get_type() else { return nil }
      return Fraction(
        Int(gst_value_get_fraction_numerator(value)), Int(gst_value_get_fraction_denominator(value)))
    }
    let type = hvt_g_value_type(value)
    if let fixed = fraction(value) { return .fixed(fixed) }
    if type == gst_fraction_range_get_type() {
      guard let min = gst_value_get_fraction_range_min(value).flatMap(fraction),
        let max = gst_value_get_fraction_range_max(value).flatMap(fraction)
      else { return nil }
      return .range(min: min, max: max)
    }
    guard type == gst_value_list_get_type() else { return nil }
    return .list(
      (0..<gst_value_list_get_size(value)).compactMap { gst_value_list_get_value(value, $0).flatMap(fraction) })
  }
}
