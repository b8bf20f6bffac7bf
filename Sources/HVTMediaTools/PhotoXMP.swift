import HVTCameraCore
import Foundation

/// The XMP packet of a photo (the `http://ns.adobe.com/xap/1.0/` APP1 segment's payload): the same facts
/// as its EXIF, with the dates in ISO 8601 (offset and milliseconds included), and the app's tags as Dublin
/// Core (`dc:title`, `dc:description`, `dc:creator`, `dc:rights`), which hold any Unicode text.
enum PhotoXMP {
  /// The segment's namespace header, NUL-terminated.
  static let header = Data("http://ns.adobe.com/xap/1.0/".utf8) + Data([0])

  static func packet(_ photo: PhotoTags) -> Data {
    let capture = photo.capture
    let date = capture.isoDateTime
    var attributes: [(String, String)] = [
      ("xmp:CreateDate", date), ("xmp:ModifyDate", date), ("xmp:CreatorTool", capture.software),
      ("photoshop:DateCreated", date), ("exif:DateTimeOriginal", date), ("tiff:Model", capture.model),
      ("tiff:Orientation", "1"),
      ("exif:PixelXDimension", String(photo.width)), ("exif:PixelYDimension", String(photo.height)),
    ]
    if let make = capture.make { attributes.append(("tiff:Make", make)) }
    if let location = capture.location {
      attributes += [
        ("exif:GPSVersionID", "2.3.0.0"), ("exif:GPSMapDatum", "WGS-84"),
        ("exif:GPSLatitude", coordinate(location.latitude, positive: "N", negative: "S")),
        ("exif:GPSLongitude", coordinate(location.longitude, positive: "E", negative: "W")),
      ]
      if let altitude = location.altitude {
        attributes += [
          ("exif:GPSAltitudeRef", altitude < 0 ? "1" : "0"),
          ("exif:GPSAltitude", "\(Int((abs(altitude) * 1000).rounded()))/1000"),
        ]
      }
      if let direction = location.direction {
        attributes += [
          ("exif:GPSImgDirectionRef", "T"), ("exif:GPSImgDirection", "\(Int((direction * 100).rounded()))/100"),
        ]
      }
      if let accuracy = location.horizontalAccuracy {
        attributes.append(("exif:GPSHPositioningError", "\(Int((accuracy * 100).rounded()))/100"))
      }
    }
    let tags = capture.tags
    var elements = [String]()
    if let title = tags.title { elements.append(alternative("dc:title", title)) }
    if let comment = tags.comment { elements.append(alternative("dc:description", comment)) }
    if let artist = tags.artist {
      elements.append("<dc:creator><rdf:Seq><rdf:li>\(escaped(artist))</rdf:li></rdf:Seq></dc:creator>")
    }
    if let copyright = tags.copyright { elements.append(alternative("dc:rights", copyright)) }
    let text = """
      <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
      <x:xmpmeta xmlns:x="adobe:ns:meta/">
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
      xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" \
      xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
      \(attributes.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined(separator: "\n"))>
      \(elements.joined(separator: "\n"))
      </rdf:Description>
      </rdf:RDF>
      </x:xmpmeta>
      <?xpacket end="w"?>
      """
    return header + Data(text.utf8)
  }

  /// XMP's GPS coordinate syntax: whole degrees, decimal minutes, and the hemisphere: `48,51.498000N`.
  private static func coordinate(_ angle: Double, positive: String, negative: String) -> String {
    let magnitude = abs(angle)
    let degrees = magnitude.rounded(.down)
    return String(format: "%d,%.6f%@", Int(degrees), (magnitude - degrees) * 60, angle < 0 ? negative : positive)
  }

  /// A language alternative with only the default language, as `dc:title` and `dc:rights` take.
  private static func alternative(_ name: String, _ text: String) -> String {
    "<\(name)><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(text))</rdf:li></rdf:Alt></\(name)>"
  }

  /// Text made safe inside XML content and attribute values.
  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
