import CGStreamer
import Foundation
import HVTGLib

/// An owned `GstTagList`: metadata (title, date, place, device…) that muxers write into the files they
/// make. Filled with ``set(_:_:)-(_,String)`` and its overloads, handed to a muxer with
/// ``Element/mergeTags(_:)``.
///
/// `@unchecked Sendable`: a counted reference, filled on one thread before it is handed to a muxer.
public final class TagList: @unchecked Sendable, CustomStringConvertible {
  /// A tag's name, as GStreamer registers it (`GST_TAG_TITLE` is `"title"`).
  public struct Tag: RawRepresentable, Sendable, Hashable {
    /// The name, e.g. `"title"`.
    public var rawValue: String
    /// A tag by its registered name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GST_TAG_TITLE`.
    public static let title = Tag(rawValue: "title")
    /// `GST_TAG_ARTIST`.
    public static let artist = Tag(rawValue: "artist")
    /// `GST_TAG_COMMENT`.
    public static let comment = Tag(rawValue: "comment")
    /// `GST_TAG_COPYRIGHT`.
    public static let copyright = Tag(rawValue: "copyright")
    /// `GST_TAG_DATE_TIME`: a date and time with its UTC offset.
    public static let dateTime = Tag(rawValue: "datetime")
    /// `GST_TAG_GEO_LOCATION_LATITUDE`, degrees north (negative south).
    public static let latitude = Tag(rawValue: "geo-location-latitude")
    /// `GST_TAG_GEO_LOCATION_LONGITUDE`, degrees east (negative west).
    public static let longitude = Tag(rawValue: "geo-location-longitude")
    /// `GST_TAG_GEO_LOCATION_ELEVATION`, metres above sea level.
    public static let elevation = Tag(rawValue: "geo-location-elevation")
    /// `GST_TAG_GEO_LOCATION_CAPTURE_DIRECTION`, degrees clockwise from true north.
    public static let captureDirection = Tag(rawValue: "geo-location-capture-direction")
    /// `GST_TAG_GEO_LOCATION_HORIZONTAL_ERROR`, metres.
    public static let horizontalError = Tag(rawValue: "geo-location-horizontal-error")
    /// `GST_TAG_DEVICE_MANUFACTURER`.
    public static let deviceManufacturer = Tag(rawValue: "device-manufacturer")
    /// `GST_TAG_DEVICE_MODEL`.
    public static let deviceModel = Tag(rawValue: "device-model")
    /// `GST_TAG_APPLICATION_NAME`.
    public static let applicationName = Tag(rawValue: "application-name")
  }

  let pointer: UnsafeMutablePointer<GstTagList>

  /// Takes over a full reference.
  init(adopting pointer: UnsafeMutablePointer<GstTagList>) {
    self.pointer = pointer
  }

  /// An empty list. Wraps `gst_tag_list_new_empty`.
  public convenience init() {
    GStreamer.initialize()
    self.init(adopting: gst_tag_list_new_empty())
  }

  deinit {
    gst_tag_list_unref(pointer)
  }

  /// Whether the list holds no tag. Wraps `gst_tag_list_is_empty`.
  public var isEmpty: Bool { gst_tag_list_is_empty(pointer) != 0 }

  /// The list in GStreamer's text syntax. Wraps `gst_tag_list_to_string`.
  public var description: String { String(ownedCString: gst_tag_list_to_string(pointer)) }

  /// Sets a text tag, replacing its value. Wraps `gst_tag_list_add_value`.
  public func set(_ tag: Tag, _ value: String) {
    add(tag, type: hvt_g_type_string()) { g_value_set_string(&$0, value) }
  }

  /// Sets a number tag (the geo location's), replacing its value. Wraps `gst_tag_list_add_value`.
  public func set(_ tag: Tag, _ value: Double) {
    add(tag, type: hvt_g_type_double()) { g_value_set_double(&$0, value) }
  }

  /// Sets a date-and-time tag to `date` as seen `utcOffset` seconds east of UTC, to the microsecond,
  /// replacing its value. Wraps `gst_date_time_new` and `gst_tag_list_add_value`.
  public func set(_ tag: Tag, _ date: Date, utcOffset: Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: utcOffset) ?? .gmt
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let whole = calendar.date(from: parts) ?? date
    let seconds = Double(parts.second ?? 0) + max(0, date.timeIntervalSince(whole))
    guard
      let dateTime = gst_date_time_new(
        Float(utcOffset) / 3600, gint(parts.year ?? 1970), gint(parts.month ?? 1), gint(parts.day ?? 1),
        gint(parts.hour ?? 0), gint(parts.minute ?? 0), seconds)
    else { return }
    add(tag, type: gst_date_time_get_type()) { g_value_take_boxed(&$0, UnsafeRawPointer(dateTime)) }
  }

  /// Adds a whole QuickTime atom for `mp4mux` to write into the movie's `moov/udta` as it is: a sample
  /// (its buffer the atom, its info `style=itunes`) of the tag `private-qt-tag`, through which `qtdemux`
  /// hands on the atoms it does not parse and the ISO MP4 muxer writes them back (registered here, as
  /// `qtdemux` does, when it is not yet). For atoms GStreamer's muxer has no tag of its own for, such as
  /// `©xyz`. Wraps `gst_tag_register`, `gst_sample_new` and `gst_tag_list_add_value`.
  public func append(quickTimeAtom atom: Data) {
    let name = "private-qt-tag"
    if gst_tag_exists(name) == 0 {
      gst_tag_register(name, GST_TAG_FLAG_META, gst_sample_get_type(), "QT atom", "unparsed QT tag atom", nil)
    }
    let buffer = Buffer(copying: atom)
    guard let info = gst_structure_new_from_string("application/x-gst-qt-private-tag, style=(string)itunes"),
      let sample = gst_sample_new(buffer.pointer, nil, nil, info)
    else { return }
    var value = GValue()
    g_value_init(&value, gst_sample_get_type())
    g_value_take_boxed(&value, UnsafeRawPointer(sample))
    gst_tag_list_add_value(pointer, GST_TAG_MERGE_APPEND, name, &value)
    g_value_unset(&value)
  }

  /// A text tag's value, or `nil`. Wraps `gst_tag_list_get_string`.
  public func string(_ tag: Tag) -> String? {
    var value: UnsafeMutablePointer<gchar>?
    guard gst_tag_list_get_string(pointer, tag.rawValue, &value) != 0, let value else { return nil }
    return String(ownedCString: value)
  }

  /// A number tag's value, or `nil`. Wraps `gst_tag_list_get_double`.
  public func double(_ tag: Tag) -> Double? {
    var value = 0.0
    return gst_tag_list_get_double(pointer, tag.rawValue, &value) != 0 ? value : nil
  }

  /// A date-and-time tag's moment, to the microsecond, and its UTC offset in seconds, or `nil` (also for
  /// a tag of another type). Wraps `gst_tag_get_type`, `gst_tag_list_get_date_time` and the
  /// `gst_date_time_get_*` accessors.
  public func date(_ tag: Tag) -> (date: Date, utcOffset: Int)? {
    // Asked of a tag of another type, `gst_tag_list_get_date_time` fails a GLib assertion (a CRITICAL).
    guard gst_tag_get_type(tag.rawValue) == gst_date_time_get_type() else { return nil }
    var value: OpaquePointer?
    guard gst_tag_list_get_date_time(pointer, tag.rawValue, &value) != 0, let value else { return nil }
    defer { gst_date_time_unref(value) }
    let offset = Int((gst_date_time_get_time_zone_offset(value) * 3600).rounded())
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
    let parts = DateComponents(
      year: Int(gst_date_time_get_year(value)), month: Int(gst_date_time_get_month(value)),
      day: Int(gst_date_time_get_day(value)), hour: Int(gst_date_time_get_hour(value)),
      minute: Int(gst_date_time_get_minute(value)), second: Int(gst_date_time_get_second(value)))
    guard let whole = calendar.date(from: parts) else { return nil }
    return (whole.addingTimeInterval(Double(gst_date_time_get_microsecond(value)) / 1e6), offset)
  }

  /// Sets one value of `type`, made by `fill`, replacing the tag's values; the list keeps a copy.
  private func add(_ tag: Tag, type: GType, fill: (inout GValue) -> Void) {
    var value = GValue()
    g_value_init(&value, type)
    fill(&value)
    gst_tag_list_add_value(pointer, GST_TAG_MERGE_REPLACE, tag.rawValue, &value)
    g_value_unset(&value)
  }
}

extension Element {
  /// Whether the element writes tags given to it (implements `GstTagSetter`, as `mp4mux` and
  /// `matroskamux` do). Wraps `GST_IS_TAG_SETTER`.
  public var isTagSetter: Bool { hvt_gst_is_tag_setter(pointer) != 0 }

  /// Gives the element tags to write, replacing those of the same names it had; returns false when it
  /// writes no tags (see ``isTagSetter``). Safe from any thread, before the element writes its header.
  /// Wraps `gst_tag_setter_merge_tags` with `GST_TAG_MERGE_REPLACE`.
  @discardableResult
  public func mergeTags(_ tags: TagList) -> Bool {
    guard isTagSetter else { return false }
    gst_tag_setter_merge_tags(hvt_gst_tag_setter(pointer), tags.pointer, GST_TAG_MERGE_REPLACE)
    return true
  }

  /// The tags the element was given with ``mergeTags(_:)``, or `nil`. Wraps `gst_tag_setter_get_tag_list`.
  public var mergedTags: TagList? {
    guard isTagSetter, let list = gst_tag_setter_get_tag_list(hvt_gst_tag_setter(pointer)) else { return nil }
    return TagList(copying: list)
  }
}

extension TagList {
  /// A copy of a list the caller does not own. Wraps `gst_tag_list_copy`.
  convenience init(copying list: UnsafePointer<GstTagList>) {
    self.init(adopting: gst_tag_list_copy(list))
  }
}
