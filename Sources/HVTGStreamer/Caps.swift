import CGStreamer
import HVTGLib

/// An owned, immutable reference to `GstCaps`: the media formats a pad can carry.
///
/// `@unchecked Sendable`: a counted reference to caps that are not changed once made.
public final class Caps: @unchecked Sendable, CustomStringConvertible {
  /// The underlying caps; valid as long as this object lives.
  public let pointer: UnsafeMutablePointer<GstCaps>

  /// Takes over a full reference.
  public init(adopting pointer: UnsafeMutablePointer<GstCaps>) {
    self.pointer = pointer
  }

  /// Adds a reference of its own. Wraps `gst_caps_ref`.
  public convenience init(retaining pointer: UnsafeMutablePointer<GstCaps>) {
    self.init(adopting: gst_caps_ref(pointer))
  }

  /// Parses caps syntax, e.g. `video/x-raw,format=I420,width=1280,height=720`. Wraps `gst_caps_from_string`.
  public convenience init(_ text: String) throws {
    GStreamer.initialize()
    guard let caps = gst_caps_from_string(text) else { throw GStreamerError.invalidCaps(text) }
    self.init(adopting: caps)
  }

  deinit {
    gst_caps_unref(pointer)
  }

  /// The caps in GStreamer's text syntax. Wraps `gst_caps_to_string`.
  public var description: String { String(ownedCString: gst_caps_to_string(pointer)) }

  /// Whether the caps describe no format at all. Wraps `gst_caps_is_empty`.
  public var isEmpty: Bool { gst_caps_is_empty(pointer) != 0 }

  /// The number of structures (alternatives). Wraps `gst_caps_get_size`.
  public var count: Int { Int(gst_caps_get_size(pointer)) }

  /// The formats both caps allow, in this caps' order of preference.
  /// Wraps `gst_caps_intersect_full` with `GST_CAPS_INTERSECT_FIRST`.
  public func intersection(_ other: Caps) -> Caps {
    Caps(adopting: gst_caps_intersect_full(pointer, other.pointer, GST_CAPS_INTERSECT_FIRST))
  }

  /// A copy of the structure at `index` as a value, for reading its fields. Wraps `gst_caps_get_structure`.
  public func structure(at index: Int) -> CapsStructure {
    CapsStructure(copying: gst_caps_get_structure(pointer, guint(index)))
  }

  /// All the structures, in order.
  public var structures: [CapsStructure] { (0..<count).map(structure(at:)) }
}

/// An owned copy of one `GstStructure` from caps (a media type and its fields).
///
/// `@unchecked Sendable`: an owned copy of a structure, only read.
public final class CapsStructure: @unchecked Sendable, CustomStringConvertible {
  let pointer: UnsafeMutablePointer<GstStructure>

  init(copying structure: UnsafePointer<GstStructure>?) {
    pointer = gst_structure_copy(structure)
  }

  deinit {
    gst_structure_free(pointer)
  }

  /// The media type, e.g. `"video/x-raw"` or `"image/jpeg"`. Wraps `gst_structure_get_name`.
  public var name: String { String(cString: gst_structure_get_name(pointer)) }

  /// The structure in caps syntax. Wraps `gst_structure_to_string`.
  public var description: String { String(ownedCString: gst_structure_to_string(pointer)) }

  /// A fixed integer field, or `nil` when absent or not fixed. Wraps `gst_structure_get_int`.
  public func int(_ field: String) -> Int? {
    var value: gint = 0
    return gst_structure_get_int(pointer, field, &value) != 0 ? Int(value) : nil
  }

  /// The integers a field allows: `n...n` for a fixed value, `min...max` for a range, `nil` otherwise.
  /// Wraps `gst_value_get_int_range_min` / `_max`.
  public func intRange(_ field: String) -> ClosedRange<Int>? {
    guard let value = gst_structure_get_value(pointer, field) else { return nil }
    if hvt_g_value_type(value) == gst_int_range_get_type() {
      return Int(gst_value_get_int_range_min(value))...Int(gst_value_get_int_range_max(value))
    }
    return int(field).map { $0...$0 }
  }

  /// A fixed string field, or `nil`. Wraps `gst_structure_get_string`.
  public func string(_ field: String) -> String? {
    gst_structure_get_string(pointer, field).map { String(cString: $0) }
  }

  /// A fixed fraction field as (numerator, denominator), or `nil`. Wraps `gst_structure_get_fraction`.
  public func fraction(_ field: String) -> (numerator: Int, denominator: Int)? {
    var numerator: gint = 0
    var denominator: gint = 1
    guard gst_structure_get_fraction(pointer, field, &numerator, &denominator) != 0 else { return nil }
    return (Int(numerator), Int(denominator))
  }

  /// The string values a field allows: one for a fixed string, each entry for a list. Wraps
  /// `gst_structure_get_value` and `gst_value_list_get_value`.
  public func strings(_ field: String) -> [String] {
    guard let value = gst_structure_get_value(pointer, field) else { return [] }
    func text(_ value: UnsafePointer<GValue>) -> String? { g_value_get_string(value).map { String(cString: $0) } }
    switch hvt_g_value_type(value) {
    case hvt_g_type_string():
      return text(value).map { [$0] } ?? []
    case gst_value_list_get_type():
      return (0..<Int(gst_value_list_get_size(value))).compactMap {
        gst_value_list_get_value(value, guint($0)).flatMap(text)
      }
    default:
      return []
    }
  }

  /// Fixes `field` to the fraction nearest `numerator/denominator` and every other field to its first or
  /// smallest value, returning the result. Wraps `gst_structure_fixate_field_nearest_fraction` and
  /// `gst_structure_fixate`.
  public func fixated(nearestFraction field: String, numerator: Int, denominator: Int) -> CapsStructure {
    let copy = CapsStructure(copying: pointer)
    gst_structure_fixate_field_nearest_fraction(copy.pointer, field, gint(numerator), gint(denominator))
    gst_structure_fixate(copy.pointer)
    return copy
  }
}
