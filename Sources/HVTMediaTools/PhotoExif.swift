import HVTCameraCore
import Foundation

/// What a photo's EXIF and XMP say beyond ``CaptureTags``: its size and its flash.
package struct PhotoTags: Sendable {
  package var capture: CaptureTags
  /// The picture's width and height in pixels.
  package var width: Int
  package var height: Int
  /// Whether the camera has a flash, the flash mode at the shutter, and whether it fired.
  var hasFlash: Bool
  var flashMode: HVTCameraFlashMode
  var flashFired: Bool

  /// EXIF's `Flash` field: bit 0 fired, bits 3–4 the mode (on, off, auto), bit 5 no flash at all.
  var exifFlash: UInt16 {
    guard hasFlash else { return 0x20 }
    let mode: UInt16 =
      switch flashMode {
      case .on: 0x08
      case .off: 0x10
      case .auto: 0x18
      }
    return mode | (flashFired ? 1 : 0)
  }

  /// Each stored property, as a memberwise initializer takes them.
  package init(
    capture: CaptureTags, width: Int, height: Int, hasFlash: Bool, flashMode: HVTCameraFlashMode, flashFired: Bool
  ) {
    self.capture = capture
    self.width = width
    self.height = height
    self.hasFlash = hasFlash
    self.flashMode = flashMode
    self.flashFired = flashFired
  }
}

/// The EXIF block of a photo (the `Exif\0\0` APP1 segment's payload): GStreamer's EXIF writer
/// (`gst_tag_list_to_exif_buffer`, in `jifmux`) drops the UTC offset and the sub-seconds, so the block
/// is built here, EXIF 2.32: date and time (`DateTimeOriginal`, `CreateDate`, `ModifyDate`) with
/// `OffsetTime*` and `SubSecTime*`, `Make`, `Model`, `Software`, `Orientation`, pixel dimensions, `Flash`,
/// the app's tags, and a GPS IFD when there is a location.
enum PhotoExif {
  static func block(_ photo: PhotoTags) -> Data {
    let capture = photo.capture
    let (dateTime, offset, subSeconds) = (capture.exifDateTime, capture.offsetText, capture.subSeconds)
    var main = ExifDirectory()
    main.fields[0x0112] = .short(1)  // Orientation: the frame is upright as captured.
    main.fields[0x011A] = .rationals([(72, 1)])  // XResolution
    main.fields[0x011B] = .rationals([(72, 1)])  // YResolution
    main.fields[0x0128] = .short(2)  // ResolutionUnit: inches
    main.fields[0x0131] = .text(capture.software)
    main.fields[0x0132] = .text(dateTime)  // ModifyDate
    main.fields[0x0213] = .short(1)  // YCbCrPositioning: centred
    main.fields[0x0110] = .text(capture.model)
    if let make = capture.make { main.fields[0x010F] = .text(make) }
    if let title = capture.tags.title { main.fields[0x010E] = .text(title) }  // ImageDescription
    if let artist = capture.tags.artist { main.fields[0x013B] = .text(artist) }
    if let copyright = capture.tags.copyright { main.fields[0x8298] = .text(copyright) }

    var exif = ExifDirectory()
    exif.fields[0x9000] = .undefined(Array("0232".utf8))  // ExifVersion
    exif.fields[0x9003] = .text(dateTime)  // DateTimeOriginal
    exif.fields[0x9004] = .text(dateTime)  // CreateDate
    for tag: UInt16 in [0x9010, 0x9011, 0x9012] { exif.fields[tag] = .text(offset) }  // OffsetTime*
    for tag: UInt16 in [0x9290, 0x9291, 0x9292] { exif.fields[tag] = .text(subSeconds) }  // SubSecTime*
    exif.fields[0x9101] = .undefined([1, 2, 3, 0])  // ComponentsConfiguration: Y, Cb, Cr
    exif.fields[0x9209] = .short(photo.exifFlash)
    if let comment = capture.tags.comment { exif.fields[0x9286] = .undefined(userComment(comment)) }
    exif.fields[0xA000] = .undefined(Array("0100".utf8))  // FlashpixVersion
    exif.fields[0xA001] = .short(1)  // ColorSpace: sRGB
    exif.fields[0xA002] = .long(UInt32(clamping: photo.width))  // PixelXDimension
    exif.fields[0xA003] = .long(UInt32(clamping: photo.height))  // PixelYDimension
    main.fields[0x8769] = .directory(exif)
    if let location = capture.location { main.fields[0x8825] = .directory(gps(location, at: capture)) }
    return Data("Exif".utf8) + Data([0, 0]) + main.tiffData()
  }

  /// The GPS IFD: position as degrees, minutes and seconds, altitude, direction, accuracy, and the UTC
  /// date and time of the capture.
  private static func gps(_ location: HVTLocation, at capture: CaptureTags) -> ExifDirectory {
    var gps = ExifDirectory()
    gps.fields[0x0000] = .bytes([2, 3, 0, 0])  // GPSVersionID
    gps.fields[0x0001] = .text(location.latitude < 0 ? "S" : "N")
    gps.fields[0x0002] = .rationals(sexagesimal(location.latitude))
    gps.fields[0x0003] = .text(location.longitude < 0 ? "W" : "E")
    gps.fields[0x0004] = .rationals(sexagesimal(location.longitude))
    if let altitude = location.altitude {
      gps.fields[0x0005] = .bytes([altitude < 0 ? 1 : 0])  // GPSAltitudeRef: below sea level
      gps.fields[0x0006] = .rationals([fraction(abs(altitude), scale: 1000)])
    }
    let utc = capture.utcParts
    let seconds = Double(utc.second ?? 0) + Double(utc.nanosecond ?? 0) / 1e9
    let hour = (numerator: UInt32(utc.hour ?? 0), denominator: UInt32(1))
    let minute = (numerator: UInt32(utc.minute ?? 0), denominator: UInt32(1))
    gps.fields[0x0007] = .rationals([hour, minute, fraction(seconds, scale: 1000)])
    if let direction = location.direction {
      gps.fields[0x0010] = .text("T")  // GPSImgDirectionRef: true north
      gps.fields[0x0011] = .rationals([fraction(direction, scale: 100)])
    }
    gps.fields[0x0012] = .text("WGS-84")  // GPSMapDatum
    gps.fields[0x001D] = .text(
      String(format: "%04d:%02d:%02d", utc.year ?? 1970, utc.month ?? 1, utc.day ?? 1))  // GPSDateStamp
    if let accuracy = location.horizontalAccuracy {
      gps.fields[0x001F] = .rationals([fraction(accuracy, scale: 100)])  // GPSHPositioningError
    }
    return gps
  }

  /// Degrees, minutes and seconds (to 1/10000 s, about 3 mm) of an angle's magnitude.
  private static func sexagesimal(_ angle: Double) -> [(numerator: UInt32, denominator: UInt32)] {
    let magnitude = abs(angle)
    let degrees = magnitude.rounded(.down)
    let minutes = ((magnitude - degrees) * 60).rounded(.down)
    let seconds = ((magnitude - degrees) * 60 - minutes) * 60
    return [(UInt32(degrees), 1), (UInt32(minutes), 1), fraction(seconds, scale: 10000)]
  }

  /// `value` as a fraction over `scale`.
  private static func fraction(_ value: Double, scale: UInt32) -> (numerator: UInt32, denominator: UInt32) {
    (UInt32(clamping: Int((value * Double(scale)).rounded())), scale)
  }

  /// `UserComment`: an 8-byte character code, then the text: `ASCII` when it is, else `UNICODE`
  /// (UTF-16, big-endian like the rest of the block).
  private static func userComment(_ text: String) -> [UInt8] {
    guard text.unicodeScalars.allSatisfy(\.isASCII) else {
      return Array("UNICODE".utf8) + [0] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
    return Array("ASCII".utf8) + [0, 0, 0] + Array(text.utf8)
  }
}
