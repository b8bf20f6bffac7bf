import HVTCameraCore
import Foundation

/// The text of a Matroska or WebM file's tags, mended in place. GStreamer 1.22's `matroskamux` writes a
/// tag's text as `gst_value_serialize` gives it: a value with a space, a bracket or any non-ASCII letter
/// in it comes out quoted and escaped (`"My\ title"`, `"\302\251\ 2026"` for `© 2026`), and players show
/// it so. Each such `TagString` is rewritten with its plain UTF-8 text, zero-padded to the element's size
/// (Matroska's strings may end in zero bytes; FFmpeg, exiftool and `matroskademux` read up to the first),
/// so nothing else in the file moves.
package enum MatroskaTagStrings {
  /// EBML IDs, with their length markers, as they stand in the file.
  private enum ID {
    static let header: UInt32 = 0x1A45_DFA3
    static let segment: UInt32 = 0x1853_8067
    static let tags: UInt32 = 0x1254_C367
    static let tag: UInt32 = 0x7373
    static let simpleTag: UInt32 = 0x67C8
    static let tagString: UInt32 = 0x4487
  }

  /// The longest tag text mended; a longer one is left as it is.
  private static let longestText = 1 << 16

  /// The Matroska muxers (GStreamer element factories), `matroskamux` and `webmmux`: the tags they are
  /// given are written their way (``CaptureTags/write(into:)``), and only their files may need mending.
  package static let muxers: Set<String> = ["matroskamux", "webmmux"]

  /// Mends every quoted tag text in `url`, when it is a Matroska or WebM file; does nothing to any other
  /// file. Returns how many it mended. A failure to read or write is logged: the movie is complete all
  /// the same, with its tags as `matroskamux` wrote them.
  @discardableResult
  package static func unquote(in url: URL) -> Int {
    // Any other file (an MP4's `ftyp` box) is left alone after one small read.
    guard mayBeMatroska(url) else { return 0 }
    do {
      let handle = try FileHandle(forUpdating: url)
      defer { try? handle.close() }
      let file = EBMLReader(handle: handle, end: try handle.seekToEnd())
      guard let header = try file.element(at: 0), header.id == ID.header,
        let segment = try file.element(at: header.end), segment.id == ID.segment
      else { return 0 }
      var mended = 0
      for tags in try file.children(of: segment) where tags.id == ID.tags {
        for tag in try file.children(of: tags) where tag.id == ID.tag {
          mended += try unquote(simpleTagsIn: tag, of: file)
        }
      }
      return mended
    } catch {
      debugLog.log(.warning, "\(url.path) keeps its tags as the muxer quoted them: \(error)")
      return 0
    }
  }

  /// Whether `url` begins with the EBML header's ID, read with `pread(2)` alone: a recording's stop
  /// asks this of every movie, most of them MP4. A file that cannot be opened here says yes, so that
  /// the mending's own attempt logs why.
  private static func mayBeMatroska(_ url: URL) -> Bool {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    var first = [UInt8](repeating: 0, count: 4)
    return pread(descriptor, &first, first.count, 0) == first.count
      && first == withUnsafeBytes(of: ID.header.bigEndian) { [UInt8]($0) }
  }

  /// Mends the `TagString`s of the `SimpleTag`s in `parent`, and of those nested in them.
  private static func unquote(simpleTagsIn parent: EBMLReader.Element, of file: EBMLReader) throws -> Int {
    var mended = 0
    for simple in try file.children(of: parent) where simple.id == ID.simpleTag {
      for child in try file.children(of: simple) where child.id == ID.tagString {
        guard let size = child.size, size <= longestText,
          let plain = unwrapped(try file.bytes(at: child.dataStart, count: size))
        else { continue }
        try file.write(plain + [UInt8](repeating: 0, count: size - plain.count), at: child.dataStart)
        mended += 1
      }
      mended += try unquote(simpleTagsIn: simple, of: file)
    }
    return mended
  }

  /// The text inside `gst_value_serialize`'s quotes, its escapes undone (`\` and three octal digits is
  /// that byte, `\` and any other character is that character), or `nil` when `text` is not quoted.
  static func unwrapped(_ text: [UInt8]) -> [UInt8]? {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    var end = text.count
    while end > 0, text[end - 1] == 0 { end -= 1 }
    guard end >= 2, text[0] == quote, text[end - 1] == quote else { return nil }
    var plain: [UInt8] = []
    var index = 1
    func isOctal(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) }
    while index < end - 1 {
      guard text[index] == backslash, index + 1 < end - 1 else {
        plain.append(text[index])
        index += 1
        continue
      }
      let digits = text[(index + 1)..<min(index + 4, end - 1)]
      if digits.count == 3, digits.allSatisfy(isOctal) {
        plain.append(digits.reduce(0) { $0 &* 8 &+ ($1 - UInt8(ascii: "0")) })
        index += 4
      } else {
        plain.append(text[index + 1])
        index += 2
      }
    }
    return plain
  }
}

/// Reads EBML elements (ID, size, data) from a file, and overwrites bytes in it.
private struct EBMLReader {
  /// One element: its ID with its length marker, where its data starts, and its data's size (`nil`:
  /// unknown, up to its parent's end).
  struct Element {
    var id: UInt32
    var dataStart: Int
    package var size: Int?
    /// Where the next element starts; the file's end for an unknown size.
    var end: Int { size.map { dataStart + $0 } ?? Int.max }
  }

  let handle: FileHandle
  let end: UInt64

  /// The element at `offset`, or `nil` at the end of the file.
  package func element(at offset: Int) throws -> Element? {
    guard offset < end else { return nil }
    let head = try bytes(at: offset, count: min(12, Int(end) - offset))
    guard let (id, idLength) = Self.number(head, from: 0, keepingMarker: true), idLength <= 4,
      let (size, sizeLength) = Self.number(head, from: idLength, keepingMarker: false)
    else { throw EBMLError(offset: offset) }
    let unknown = size == (UInt64(1) << (7 * sizeLength)) - 1
    return Element(id: UInt32(id), dataStart: offset + idLength + sizeLength, size: unknown ? nil : Int(size))
  }

  /// The elements inside `parent`. An element of unknown size ends the list (what follows it cannot be
  /// found without reading it all), except as the last one.
  func children(of parent: Element) throws -> [Element] {
    var children: [Element] = []
    var offset = parent.dataStart
    let limit = min(parent.end, Int(end))
    while offset < limit, let child = try element(at: offset) {
      children.append(child)
      guard child.size != nil else { break }
      offset = child.end
    }
    return children
  }

  /// `count` bytes from `offset`.
  package func bytes(at offset: Int, count: Int) throws -> [UInt8] {
    try handle.seek(toOffset: UInt64(offset))
    let data = try handle.read(upToCount: count) ?? Data()
    guard data.count == count else { throw EBMLError(offset: offset) }
    return [UInt8](data)
  }

  /// Overwrites the file from `offset` with `bytes`.
  package func write(_ bytes: [UInt8], at offset: Int) throws {
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data(bytes))
  }

  /// An EBML variable-length number at `start` in `bytes`, and its length: the leading zero bits of its
  /// first byte say how many bytes follow. IDs keep the length marker; sizes drop it.
  static func number(_ bytes: [UInt8], from start: Int, keepingMarker: Bool) -> (UInt64, Int)? {
    guard start < bytes.count, bytes[start] != 0 else { return nil }
    let length = bytes[start].leadingZeroBitCount + 1
    guard start + length <= bytes.count else { return nil }
    var value = UInt64(keepingMarker ? bytes[start] : bytes[start] & (0xFF >> length))
    for byte in bytes[(start + 1)..<(start + length)] { value = value << 8 | UInt64(byte) }
    return (value, length)
  }
}

/// A Matroska file whose elements could not be read at `offset`.
private struct EBMLError: Error, CustomStringConvertible {
  var offset: Int
  var description: String { "not a readable EBML element at byte \(offset)" }
}
