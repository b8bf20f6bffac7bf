import HVTCameraCore
import Foundation
import HVTGStreamer

/// What the engine writes into a capture's file besides its picture and sound: when (with the UTC offset
/// of the machine's time zone at that moment, to the millisecond), with which camera and software, where
/// (the app's ``HVTCameraController/location``) and the app's ``HVTCameraController/mediaTags``.
package struct CaptureTags: Sendable {
  /// The moment of the photo's frame, or of the movie's first frame.
  package var date: Date
  /// Seconds east of UTC of the local time written.
  var utcOffset: Int
  /// The camera's maker (EXIF `Make`), when known.
  var make: String?
  /// The camera (EXIF `Model`): its device name.
  var model: String
  /// The program that wrote the file (EXIF `Software`).
  var software = Self.software
  /// The location, when the app gave a valid one.
  var location: HVTLocation?
  /// The app's tags, as written (empty ones dropped, long ones cut).
  var tags: HVTMediaTags

  /// `HVTCamera (GStreamer 1.22.0)`.
  static var software: String { "HVTCamera (\(GStreamer.versionString))" }

  /// The tags of a capture made at `date` with the camera of `configuration`, in `timeZone`.
  package init(
    date: Date, timeZone: TimeZone = .current, configuration: HVTCaptureConfiguration, location: HVTLocation?,
    tags: HVTMediaTags
  ) {
    self.date = date
    utcOffset = timeZone.secondsFromGMT(for: date)
    make = configuration.deviceManufacturer
    model = configuration.deviceName
    self.location = location?.isValid == true ? location : nil
    self.tags = tags.written
  }

  /// The same tags for a capture made at `date` (its UTC offset in `timeZone`).
  package func at(_ date: Date, timeZone: TimeZone = .current) -> CaptureTags {
    var tags = self
    tags.date = date
    tags.utcOffset = timeZone.secondsFromGMT(for: date)
    return tags
  }

  /// Gives `muxer` these tags, before its first buffer, and returns what it writes of them; `nil` when it
  /// takes none (it is no `GstTagSetter`). `matroskamux` and `webmmux` write the date as `DateUTC`, in
  /// UTC (their `creation-time` property), the software as their writing application (`writing-app`),
  /// and of the tags only the app's (Matroska's `TITLE`, `COMMENTS`, `ARTIST`, `COPYRIGHT`): GStreamer
  /// 1.22's Matroska muxer has no tag for the place or the camera. Their text comes out quoted, which
  /// ``MatroskaTagStrings/unquote(in:)`` mends in the finished file. Wraps `gst_tag_setter_merge_tags`.
  package func write(into muxer: Element) -> CaptureTags? {
    guard muxer.isTagSetter else { return nil }
    guard MatroskaTagStrings.muxers.contains(muxer.factoryName ?? "") else {
      muxer.mergeTags(tagList)
      return self
    }
    var written = self
    (written.utcOffset, written.location, written.make) = (0, nil, nil)
    do {
      try muxer.setProperty("writing-app", fromString: software)
      try muxer.setProperty("creation-time", date: date)
    } catch {
      debugLog.log(.warning, "\(muxer.name) keeps its own writing application or date: \(error)")
    }
    muxer.mergeTags(appTagList)
    return written
  }

  /// The local date and time, whole seconds: `2026:12:02 14:41:12` (EXIF's `DateTime*` syntax).
  var exifDateTime: String {
    let local = localParts
    return String(
      format: "%04d:%02d:%02d %02d:%02d:%02d", local.year ?? 1970, local.month ?? 1, local.day ?? 1, local.hour ?? 0,
      local.minute ?? 0, local.second ?? 0)
  }

  /// The UTC offset as EXIF's `OffsetTime*` and ISO 8601 write it: `+05:30`.
  var offsetText: String {
    let minutes = abs(utcOffset) / 60
    return String(format: "%@%02d:%02d", utcOffset < 0 ? "-" : "+", minutes / 60, minutes % 60)
  }

  /// The milliseconds of the second: `345` (EXIF's `SubSecTime*`).
  var subSeconds: String { String(format: "%03d", (localParts.nanosecond ?? 0) / 1_000_000) }

  /// ISO 8601 with milliseconds and offset, as XMP writes dates: `2026-12-02T14:41:12.345+05:30`.
  var isoDateTime: String {
    let local = localParts
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d", local.year ?? 1970, local.month ?? 1, local.day ?? 1,
      local.hour ?? 0, local.minute ?? 0, local.second ?? 0, (local.nanosecond ?? 0) / 1_000_000) + offsetText
  }

  /// The UTC date and time of day, for EXIF's `GPSDateStamp` and `GPSTimeStamp`.
  var utcParts: DateComponents { parts(atOffset: 0) }

  /// The local date and time of day (at ``utcOffset``).
  private var localParts: DateComponents { parts(atOffset: utcOffset) }

  /// The date's calendar fields, to the nanosecond, as seen `offset` seconds east of UTC.
  private func parts(atOffset offset: Int) -> DateComponents {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
    return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
  }

  /// The location as the `©xyz` item of the movie's metadata list (`moov/udta/meta/ilst`, where
  /// `mp4mux` writes its iTunes-style tags), which ffprobe (`location`) and exiftool (`GPSCoordinates`)
  /// read, as phones' movies have it: the ISO 6709 point (``HVTLocation/iso6709``, e.g.
  /// `+48.858300+002.294500+35.0/`) in the item's `data` atom (type 1, UTF-8). `mp4mux` has no tag for
  /// it; ``TagList/append(quickTimeAtom:)`` hands it over whole.
  static func locationAtom(_ location: HVTLocation) -> Data {
    let string = Data(location.iso6709.utf8)
    func box(_ type: [UInt8], _ payload: Data) -> Data {
      let size = UInt32(8 + payload.count)
      return Data([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + type) + payload
    }
    // The data atom: type 1 (UTF-8 text), then a locale of 0.
    let data = box(Array("data".utf8), Data([0, 0, 0, 1, 0, 0, 0, 0]) + string)
    return box([0xA9] + Array("xyz".utf8), data)
  }

  /// The tags a muxer writes into a movie (`GstTagSetter`): date and time with offset, camera, software,
  /// location and the app's tags.
  var tagList: TagList {
    let list = TagList()
    list.set(.dateTime, date, utcOffset: utcOffset)
    list.set(.deviceModel, model)
    if let make { list.set(.deviceManufacturer, make) }
    list.set(.applicationName, software)
    if let location {
      list.set(.latitude, location.latitude)
      list.set(.longitude, location.longitude)
      if let altitude = location.altitude { list.set(.elevation, altitude) }
      if let direction = location.direction { list.set(.captureDirection, direction) }
      if let accuracy = location.horizontalAccuracy { list.set(.horizontalError, accuracy) }
      list.append(quickTimeAtom: Self.locationAtom(location))
    }
    for (tag, value) in appTags { list.set(tag, value) }
    return list
  }

  /// The app's tags alone (title, comment, artist, copyright): what Matroska takes.
  var appTagList: TagList {
    let list = TagList()
    for (tag, value) in appTags { list.set(tag, value) }
    return list
  }

  /// The app's tags that have a value, with the GStreamer tag each is written as.
  private var appTags: [(TagList.Tag, String)] {
    let text: [(TagList.Tag, String?)] = [
      (.title, tags.title), (.comment, tags.comment), (.artist, tags.artist), (.copyright, tags.copyright),
    ]
    return text.compactMap { tag, value in value.map { (tag, $0) } }
  }
}

extension HVTMediaMetadata {
  /// Mirrors what was written into the file: the UTC offset, location, tags and software.
  package mutating func record(_ written: CaptureTags) {
    captureDate = written.date
    utcOffset = written.utcOffset
    location = written.location
    tags = written.tags
    software = written.software
  }
}
