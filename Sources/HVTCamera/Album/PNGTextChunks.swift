/// The `tEXt` chunks of a PNG file (PNG specification, section 11.3.4.3): keyword–text pairs in Latin-1,
/// which the freedesktop thumbnail cache uses to say which file a thumbnail shows (`Thumb::URI`,
/// `Thumb::MTime`). Read and written on the file's bytes, around the picture cairo encodes and decodes.
struct PNGTextChunks: Equatable, Sendable {
  /// The picture's width in pixels, from the `IHDR` chunk.
  let width: Int
  /// The picture's height in pixels, from the `IHDR` chunk.
  let height: Int
  /// Each `tEXt` chunk's text, by keyword (the first chunk of a keyword wins).
  let text: [String: String]

  /// The eight bytes every PNG file starts with.
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Reads `png`'s chunks: `nil` unless it starts with the signature and an `IHDR` chunk, every chunk fits
  /// in the file, the `IHDR` and `tEXt` chunks' CRCs are right and an `IEND` chunk ends it (a truncated or
  /// garbled file). The picture's own chunks are left to the decoder, which checks them.
  init?(png: [UInt8]) {
    guard png.count >= 8 + 25 + 12, png.starts(with: Self.signature) else { return nil }
    var offset = 8
    var (width, height) = (0, 0)
    var text: [String: String] = [:]
    while offset + 12 <= png.count {
      let length = Int(Self.bigEndian(png, at: offset))
      let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: Unicode.ASCII.self)
      guard length <= png.count - offset - 12 else { return nil }
      let data = png[(offset + 8)..<(offset + 8 + length)]
      if offset == 8 {
        guard type == "IHDR", length == 13 else { return nil }
      }
      if type == "IHDR" || type == "tEXt" {
        guard Self.crc(of: png[(offset + 4)..<(offset + 8 + length)]) == Self.bigEndian(png, at: offset + 8 + length)
        else { return nil }
      }
      switch type {
      case "IHDR":
        (width, height) = (Int(Self.bigEndian(png, at: offset + 8)), Int(Self.bigEndian(png, at: offset + 12)))
      case "tEXt":
        guard let separator = data.firstIndex(of: 0) else { return nil }
        let keyword = Self.string(latin1: data[data.startIndex..<separator])
        if text[keyword] == nil {
          text[keyword] = Self.string(latin1: data[(separator + 1)..<data.endIndex])
        }
      case "IEND":
        guard width > 0, height > 0 else { return nil }
        (self.width, self.height, self.text) = (width, height, text)
        return
      default:
        break
      }
      offset += 12 + length
    }
    return nil
  }

  /// `png` with a `tEXt` chunk for each of `entries` (keyword, text: Latin-1 characters, the keyword 1 to
  /// 79 of them) right after its `IHDR` chunk; `nil` when `png` does not start with the signature and an
  /// `IHDR` chunk, or an entry cannot be written in Latin-1.
  static func inserting(_ entries: [(keyword: String, text: String)], into png: [UInt8]) -> [UInt8]? {
    let afterHeader = 8 + 25
    guard png.count > afterHeader, png.starts(with: signature),
      png[12..<16].elementsEqual("IHDR".utf8), bigEndian(png, at: 8) == 13
    else { return nil }
    var chunks: [UInt8] = []
    for (keyword, text) in entries {
      guard (1...79).contains(keyword.unicodeScalars.count),
        let keywordBytes = latin1(keyword), let textBytes = latin1(text), !keywordBytes.contains(0),
        !textBytes.contains(0)
      else { return nil }
      let body = Array("tEXt".utf8) + keywordBytes + [0] + textBytes
      chunks += bigEndianBytes(UInt32(body.count - 4)) + body + bigEndianBytes(crc(of: body[...]))
    }
    return Array(png[..<afterHeader]) + chunks + png[afterHeader...]
  }

  /// The CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected) PNG chunks carry over their type and data.
  static func crc(of bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  /// The CRC of each byte value, computed once.
  private static let crcTable: [UInt32] = (0..<256).map { value in
    var crc = UInt32(value)
    for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    return crc
  }

  /// The 32-bit big-endian number at `offset`.
  private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// `value` as four big-endian bytes.
  private static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }

  /// The text of Latin-1 `bytes` (each byte is the Unicode scalar of its value).
  private static func string(latin1 bytes: ArraySlice<UInt8>) -> String {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: bytes.map { Unicode.Scalar($0) })
    return String(text)
  }

  /// `text` in Latin-1, or `nil` when it has a character Latin-1 lacks.
  private static func latin1(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    for scalar in text.unicodeScalars {
      guard scalar.value < 256 else { return nil }
      bytes.append(UInt8(scalar.value))
    }
    return bytes
  }
}
