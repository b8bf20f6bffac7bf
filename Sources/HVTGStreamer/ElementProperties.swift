import CGStreamer
import Foundation
import HVTGLib

extension Element {
  /// Sets a property from the text a `gst-launch-1.0` user would write after `name=`, e.g.
  /// `setProperty("speed-preset", fromString: "ultrafast")` or `setProperty("caps", fromString: "video/x-raw")`.
  ///
  /// Unlike `gst_util_set_object_arg`, which silently ignores unknown properties and bad values, this looks
  /// the property up first and throws `unknownProperty`, `readOnlyProperty` or `invalidPropertyValue`.
  /// String properties take the text verbatim. Wraps `g_object_class_find_property`,
  /// `gst_value_deserialize_with_pspec`, `g_param_value_validate` and `g_object_set_property`.
  public func setProperty(_ property: String, fromString text: String) throws {
    let spec = try writablePropertySpec(property)
    let type = hvt_g_param_spec_value_type(spec)
    var value = GValue()
    g_value_init(&value, type)
    defer { g_value_unset(&value) }
    let parsed: Bool
    if type == hvt_g_type_string() {
      g_value_set_string(&value, text)
      parsed = true
    } else {
      parsed = gst_value_deserialize_with_pspec(&value, text, spec) != 0
    }
    // g_param_value_validate clamps an out-of-range value and says whether it had to; integers are also
    // checked as written, because deserializing wraps "-5" into a huge unsigned value first.
    guard parsed, g_param_value_validate(spec, &value) == 0, Self.integerFits(text, spec) else {
      throw GStreamerError.invalidPropertyValue(
        element: name, property: property, value: text, expected: Self.describeExpectedValue(spec))
    }
    g_object_set_property(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), property, &value)
  }

  /// Sets a date-and-time property (a `GDateTime`, e.g. `matroskamux`'s `creation-time`) to `date`, in UTC,
  /// to the microsecond. Not through its text: GStreamer 1.22's deserializer of a `GDateTime` never
  /// releases the `GstDateTime` it parses first (the leaks tracer shows it). Throws `unknownProperty`,
  /// `readOnlyProperty`, or `invalidPropertyValue` for a property of another type. Wraps
  /// `g_date_time_new_from_unix_utc`, `g_date_time_add`, `g_value_take_boxed` and `g_object_set_property`.
  public func setProperty(_ property: String, date: Date) throws {
    let spec = try writablePropertySpec(property)
    let type = hvt_g_param_spec_value_type(spec)
    guard type == g_date_time_get_type() else {
      throw GStreamerError.invalidPropertyValue(
        element: name, property: property, value: "\(date)", expected: Self.describeExpectedValue(spec))
    }
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let microseconds = ((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded(.down)
    guard let whole = g_date_time_new_from_unix_utc(gint64(seconds)) else {
      throw GStreamerError.invalidPropertyValue(
        element: name, property: property, value: "\(date)", expected: "a date GLib can hold")
    }
    defer { g_date_time_unref(whole) }
    var value = GValue()
    g_value_init(&value, type)
    defer { g_value_unset(&value) }
    let moment = g_date_time_add(whole, GTimeSpan(microseconds))
    g_value_take_boxed(&value, UnsafeRawPointer(moment))
    g_object_set_property(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), property, &value)
  }

  /// Sets a property from a Swift value through its text form (`true`, `42`, `0.5`, `ultrafast`).
  public func set(_ property: String, _ value: some CustomStringConvertible) throws {
    try setProperty(property, fromString: value.description)
  }

  /// Reads a property in its serialized (gst-launch) form. Wraps `g_object_get_property` and `gst_value_serialize`.
  public func propertyString(_ property: String) throws -> String {
    let spec = try propertySpec(property)
    var value = GValue()
    g_value_init(&value, hvt_g_param_spec_value_type(spec))
    defer { g_value_unset(&value) }
    g_object_get_property(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), property, &value)
    if hvt_g_value_type(&value) == hvt_g_type_string() {
      return g_value_get_string(&value).map { String(cString: $0) } ?? ""
    }
    return String(ownedCString: gst_value_serialize(&value))
  }

  /// Calls `body` with the object an object property holds (a `GObject *`, e.g. `gtk4paintablesink`'s
  /// `paintable`), or `nil` when it holds none or the property is not an object's. The reference
  /// `g_object_get_property` hands over is held while `body` runs and released when it returns: to keep
  /// the object longer, `body` takes a reference of its own. Throws `unknownProperty` when there is no such
  /// property. Wraps `g_object_get_property`, `g_value_get_object` and `g_value_unset`.
  public func withObjectProperty<Result>(
    _ property: String, _ body: (UnsafeMutableRawPointer?) throws -> Result
  ) throws -> Result {
    let spec = try propertySpec(property)
    let type = hvt_g_param_spec_value_type(spec)
    guard hvt_g_type_is_object(type) != 0 else { return try body(nil) }
    var value = GValue()
    g_value_init(&value, type)
    defer { g_value_unset(&value) }
    g_object_get_property(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), property, &value)
    return try body(g_value_get_object(&value))
  }

  /// The property's description; throws `unknownProperty`, with the nearest name, when there is none.
  /// Wraps `g_object_class_find_property`.
  func propertySpec(_ property: String) throws -> UnsafeMutablePointer<GParamSpec> {
    guard let spec = hvt_g_object_find_property(pointer, property) else {
      throw GStreamerError.unknownProperty(
        element: name, property: property, suggestion: NameSuggestion.nearest(to: property, among: propertyNames))
    }
    return spec
  }

  /// The description of a property that can be set; throws `unknownProperty` or `readOnlyProperty`.
  func writablePropertySpec(_ property: String) throws -> UnsafeMutablePointer<GParamSpec> {
    let spec = try propertySpec(property)
    guard hvt_g_param_spec_is_writable(spec) != 0 else {
      throw GStreamerError.readOnlyProperty(element: name, property: property)
    }
    return spec
  }

  /// The names of all the element's properties. Wraps `g_object_class_list_properties`.
  public var propertyNames: [String] {
    var count: guint = 0
    guard let specs = hvt_g_object_list_properties(pointer, &count) else { return [] }
    defer { g_free(specs) }
    return (0..<Int(count)).compactMap { specs[$0].map { String(cString: g_param_spec_get_name($0)) } }
  }

  /// A short description of what a property accepts, for error messages: its type name, and its range or
  /// the nicks of its enum values where it has them.
  private static func describeExpectedValue(_ spec: UnsafeMutablePointer<GParamSpec>) -> String {
    let type = hvt_g_param_spec_value_type(spec)
    let typeName = String(cString: g_type_name(type))
    if hvt_g_type_is_enum(type) != 0, let classPointer = g_type_class_ref(type) {
      let enumClass = classPointer.assumingMemoryBound(to: GEnumClass.self)
      defer { g_type_class_unref(enumClass) }
      let nicks = (0..<Int(enumClass.pointee.n_values)).map {
        String(cString: enumClass.pointee.values[$0].value_nick)
      }
      return "one of \(nicks.joined(separator: ", "))"
    }
    let blurb = g_param_spec_get_blurb(spec).map { String(cString: $0) } ?? ""
    let range = describeRange(spec) ?? ""
    return "a value of type \(typeName)\(range)" + (blurb.isEmpty ? "" : " (\(blurb))")
  }

  /// Whether a decimal integer as written lies in an integer property's range; true for other properties
  /// and for text that is not a plain decimal number (enum-like names such as `G_MAXINT` parse elsewhere).
  private static func integerFits(_ text: String, _ spec: UnsafeMutablePointer<GParamSpec>) -> Bool {
    guard let value = Int128(text) else { return true }
    func fits<Spec, Bound: BinaryInteger>(_ type: Spec.Type, _ bounds: (Spec) -> (Bound, Bound)) -> Bool {
      let (low, high) = UnsafeMutableRawPointer(spec).withMemoryRebound(to: Spec.self, capacity: 1) {
        bounds($0.pointee)
      }
      return Int128(low) <= value && value <= Int128(high)
    }
    switch String(cString: g_type_name(spec.pointee.g_type_instance.g_class.pointee.g_type)) {
    case "GParamInt": return fits(GParamSpecInt.self) { ($0.minimum, $0.maximum) }
    case "GParamUInt": return fits(GParamSpecUInt.self) { ($0.minimum, $0.maximum) }
    case "GParamLong": return fits(GParamSpecLong.self) { ($0.minimum, $0.maximum) }
    case "GParamULong": return fits(GParamSpecULong.self) { ($0.minimum, $0.maximum) }
    case "GParamInt64": return fits(GParamSpecInt64.self) { ($0.minimum, $0.maximum) }
    case "GParamUInt64": return fits(GParamSpecUInt64.self) { ($0.minimum, $0.maximum) }
    default: return true
    }
  }

  /// `" in min...max"` for numeric properties, read off the param spec's own min and max fields.
  private static func describeRange(_ spec: UnsafeMutablePointer<GParamSpec>) -> String? {
    let specType = String(cString: g_type_name(spec.pointee.g_type_instance.g_class.pointee.g_type))
    func range<T>(_ type: T.Type, _ read: (UnsafeMutablePointer<T>) -> String) -> String {
      UnsafeMutableRawPointer(spec).withMemoryRebound(to: T.self, capacity: 1) { " in " + read($0) }
    }
    switch specType {
    case "GParamInt": return range(GParamSpecInt.self) { "\($0.pointee.minimum)...\($0.pointee.maximum)" }
    case "GParamUInt": return range(GParamSpecUInt.self) { "\($0.pointee.minimum)...\($0.pointee.maximum)" }
    case "GParamInt64": return range(GParamSpecInt64.self) { "\($0.pointee.minimum)...\($0.pointee.maximum)" }
    case "GParamUInt64": return range(GParamSpecUInt64.self) { "\($0.pointee.minimum)...\($0.pointee.maximum)" }
    case "GParamFloat": return range(GParamSpecFloat.self) { "\($0.pointee.minimum)...\($0.pointee.maximum)" }
    case "GParamDouble": return range(GParamSpecDouble.self) { "\($0.pointee.minimum)...\($0.pointee.maximum)" }
    default: return nil
    }
  }
}
