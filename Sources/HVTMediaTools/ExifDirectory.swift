import HVTCameraCore
import Foundation

/// One TIFF image file directory (IFD) of an EXIF block, with its sub-directories (the EXIF and GPS
/// IFDs), written big-endian (`MM`) by ``tiffData()``. Only the types EXIF fields need are modelled.
struct ExifDirectory {
  /// A field's value and the TIFF type it is written as.
  enum Value {
    /// `BYTE` (1): small numbers, e.g. `GPSVersionID`.
    case bytes([UInt8])
    /// `ASCII` (2): text, NUL-terminated (UTF-8 passes through, as readers expect).
    case text(String)
    /// `SHORT` (3).
    case short(UInt16)
    /// `LONG` (4).
    case long(UInt32)
    /// `RATIONAL` (5): unsigned fractions.
    case rationals([(numerator: UInt32, denominator: UInt32)])
    /// `UNDEFINED` (7): bytes whose meaning the field defines, e.g. `ExifVersion`.
    case undefined([UInt8])
    /// A sub-directory, pointed to by a `LONG` offset (`ExifIFDPointer`, `GPSInfoIFDPointer`).
    case directory(ExifDirectory)
  }

  /// The fields, by tag number; written in ascending order, as TIFF requires.
  var fields: [UInt16: Value] = [:]

  /// A TIFF structure (`MM`, 42, the first IFD at offset 8) holding this directory and its
  /// sub-directories, each directory followed by the values that do not fit in its entries.
  func tiffData() -> Data {
    var data = Data([0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08])
    data.append(encoded(at: 8))
    return data
  }

  /// The directory as it is written at `offset` in the TIFF structure: entries, the next-IFD link (none),
  /// the values too long for an entry, then the sub-directories.
  private func encoded(at offset: Int) -> Data {
    let tags = fields.keys.sorted()
    let headerSize = 2 + 12 * tags.count + 4
    var entries = Data()
    var values = Data()
    var pendingDirectories: [(entryIndex: Int, directory: ExifDirectory)] = []
    entries.appendBigEndian(UInt16(tags.count))
    for tag in tags {
      let value = fields[tag]!
      entries.appendBigEndian(tag)
      entries.appendBigEndian(value.type)
      if case .directory(let directory) = value {
        entries.appendBigEndian(UInt32(1))
        pendingDirectories.append((entries.count, directory))
        entries.appendBigEndian(UInt32(0))
        continue
      }
      let payload = value.payload
      entries.appendBigEndian(value.count)
      if payload.count <= 4 {
        entries.append(payload + Data(count: 4 - payload.count))
      } else {
        entries.appendBigEndian(UInt32(offset + headerSize + values.count))
        values.append(payload)
        if values.count % 2 == 1 { values.append(0) }
      }
    }
    entries.appendBigEndian(UInt32(0))
    var result = entries + values
    for (entryIndex, directory) in pendingDirectories {
      let start = offset + result.count
      result.replaceSubrange(entryIndex..<entryIndex + 4, with: Data(bigEndian: UInt32(start)))
      result.append(directory.encoded(at: start))
    }
    return result
  }
}

extension ExifDirectory.Value {
  /// The TIFF type number.
  fileprivate var type: UInt16 {
    switch self {
    case .bytes: 1
    case .text: 2
    case .short: 3
    case .long, .directory: 4
    case .rationals: 5
    case .undefined: 7
    }
  }

  /// The value's bytes, big-endian.
  fileprivate var payload: Data {
    switch self {
    case .bytes(let bytes), .undefined(let bytes): Data(bytes)
    case .text(let text): Data(text.utf8) + Data([0])
    case .short(let value): Data(bigEndian: value)
    case .long(let value): Data(bigEndian: value)
    case .rationals(let fractions):
      fractions.reduce(into: Data()) { data, fraction in
        data.appendBigEndian(fraction.numerator)
        data.appendBigEndian(fraction.denominator)
      }
    case .directory: Data(count: 4)
    }
  }

  /// The number of values of its type (bytes for text and undefined, fractions for rationals).
  fileprivate var count: UInt32 {
    switch self {
    case .rationals(let fractions): UInt32(fractions.count)
    case .short, .long, .directory: 1
    default: UInt32(payload.count)
    }
  }
}

extension Data {
  /// The integer's bytes, most significant first.
  init<Integer: FixedWidthInteger>(bigEndian value: Integer) {
    self = Swift.withUnsafeBytes(of: value.bigEndian) { Data($0) }
  }

  /// Appends the integer's bytes, most significant first.
  mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
    append(Data(bigEndian: value))
  }
}
