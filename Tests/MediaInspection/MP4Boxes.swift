import Foundation

/// The top-level boxes of an MP4 file (`ftyp`, `moov`, then `moof`/`mdat` pairs in a fragmented one),
/// read from their 32-bit size and type headers: where a test cuts a file to play a crash mid-write.
public struct MP4Box: Sendable, Equatable, CustomStringConvertible {
  /// The four-letter type, e.g. `moof`.
  public var type: String
  /// Where the box starts in the file.
  public var offset: Int
  /// The size its header declares; past the end of the data when the box was cut short.
  public var size: Int

  /// `type@offset+size`.
  public var description: String { "\(type)@\(offset)+\(size)" }

  /// The boxes of `data` in order, the last one possibly cut short. Stops at a header that does not fit
  /// or at a 64-bit or to-the-end size (which recordings do not write).
  public static func topLevel(of data: Data) -> [MP4Box] {
    let bytes = [UInt8](data)
    var boxes: [MP4Box] = []
    var offset = 0
    while offset + 8 <= bytes.count {
      let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard size >= 8 else { break }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      boxes.append(MP4Box(type: type, offset: offset, size: size))
      offset += size
    }
    return boxes
  }
}
