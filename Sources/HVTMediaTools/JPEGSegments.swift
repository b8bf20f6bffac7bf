import HVTCameraCore
import Foundation

/// Puts metadata segments into a JPEG: after its start-of-image marker and, when there is one, its JFIF
/// `APP0` segment (which JFIF requires first), before everything else. The picture's bytes are untouched.
package enum JPEGSegments {
  /// The longest payload a segment holds: its 16-bit length counts itself.
  static let maximumPayload = 65_533

  /// `jpeg` with one `APP1` segment per payload inserted, or `nil` when `jpeg` is not a JPEG (no `FFD8`
  /// start-of-image marker) or a payload is too long for a segment.
  static func inserting(app1 payloads: [Data], into jpeg: Data) -> Data? {
    let bytes = [UInt8](jpeg.prefix(6))
    guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8,
      payloads.allSatisfy({ $0.count <= maximumPayload })
    else { return nil }
    var position = 2
    if bytes.count == 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
      position += 2 + (Int(bytes[4]) << 8 | Int(bytes[5]))
      guard position <= jpeg.count else { return nil }
    }
    var segments = Data()
    for payload in payloads {
      segments.append(contentsOf: [0xFF, 0xE1])
      segments.appendBigEndian(UInt16(payload.count + 2))
      segments.append(payload)
    }
    var result = Data(capacity: jpeg.count + segments.count)
    result.append(jpeg.prefix(position))
    result.append(segments)
    result.append(jpeg.dropFirst(position))
    return result
  }

  /// `jpeg` with the photo's EXIF and XMP (``PhotoExif``, ``PhotoXMP``), or `nil` when it is not a JPEG.
  package static func tagging(_ jpeg: Data, with photo: PhotoTags) -> Data? {
    inserting(app1: [PhotoExif.block(photo), PhotoXMP.packet(photo)], into: jpeg)
  }
}
