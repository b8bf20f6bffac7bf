import HVTCameraCore
import Foundation

/// The creation and modification times of an MP4 or QuickTime file: the `mvhd` movie header's and each
/// track's `tkhd` and `mdhd`, seconds since 1904-01-01 UTC. `mp4mux` dates a file with the moment it starts
/// writing it, so a repaired or trimmed movie would say it was made when it was repaired: the repair and
/// the trim copy the source's time into the file they wrote, in place (the fields keep their sizes, so
/// nothing moves).
enum MP4Times {
  /// Dates `destination` (an MP4 or QuickTime file just written) with `source`'s creation time, `later`
  /// seconds on (where a trimmed movie begins); does nothing when either is not such a file. A failure
  /// to write is logged: the movie is complete all the same, dated when it was written.
  static func copy(from source: URL, to destination: URL, later: Double = 0) {
    guard let time = creationTime(of: source) else { return }
    do {
      try setTimes(time + UInt64(max(0, later).rounded()), in: destination)
    } catch {
      debugLog.log(.warning, "\(destination.path) keeps the time it was written: \(error)")
    }
  }

  /// The boxes whose children are read: the movie, its tracks and their media.
  private static let containers: Set<String> = ["moov", "trak", "mdia"]
  /// The boxes that hold the times, after their version byte and three bytes of flags.
  private static let headers: Set<String> = ["mvhd", "tkhd", "mdhd"]

  /// The creation time in `url`'s movie header, or `nil` when the file has none (not an MP4 or QuickTime
  /// file, or no `moov` box).
  static func creationTime(of url: URL) -> UInt64? {
    guard let (_, moov) = try? movieBox(in: url) else { return nil }
    var time: UInt64?
    visit(moov) { box, offset, version in
      if box == "mvhd", time == nil { time = read(moov, at: offset + 12, bytes: version == 1 ? 8 : 4) }
    }
    return time
  }

  /// Writes `time` (seconds since 1904) as the creation and modification time of every header in
  /// `url`'s `moov` box. A 32-bit field (a version 0 header) takes a time up to 2040 only, and keeps its
  /// own after that. Throws when the file cannot be read or written.
  static func setTimes(_ time: UInt64, in url: URL) throws {
    guard let (offset, found) = try movieBox(in: url) else { return }
    var moov = found
    visit(found) { _, box, version in
      let width = version == 1 ? 8 : 4
      guard width == 8 || time <= UInt64(UInt32.max) else { return }
      for field in [box + 12, box + 12 + width] { write(time, into: &moov, at: field, bytes: width) }
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    try handle.write(contentsOf: moov)
  }

  /// The `moov` box of `url` and where it starts, found by walking the top-level box headers (a
  /// fragmented file has it first, another often last); `nil` when there is none.
  private static func movieBox(in url: URL) throws -> (offset: UInt64, data: Data)? {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let length = try handle.seekToEnd()
    var offset: UInt64 = 0
    while offset + 8 <= length {
      try handle.seek(toOffset: offset)
      guard let header = try handle.read(upToCount: 16), header.count >= 8 else { return nil }
      var size = read(header, at: 0, bytes: 4)
      if size == 1, header.count == 16 { size = read(header, at: 8, bytes: 8) }
      if size == 0 { size = length - offset }
      guard size >= 8, offset + size <= length else { return nil }
      if String(decoding: header[4..<8], as: UTF8.self) == "moov" {
        try handle.seek(toOffset: offset)
        guard let data = try handle.read(upToCount: Int(size)), data.count == Int(size) else { return nil }
        return (offset, data)
      }
      offset += size
    }
    return nil
  }

  /// Calls `found` with each time header in `data` (a box and its children, from `start`): its type,
  /// where it starts, and its version.
  private static func visit(_ data: Data, from start: Int = 0, end: Int? = nil, _ found: (String, Int, UInt8) -> Void) {
    var offset = start
    let end = end ?? data.count
    while offset + 8 <= end {
      let size = Int(read(data, at: offset, bytes: 4))
      guard size >= 8, offset + size <= end else { return }
      let type = String(decoding: data[(data.startIndex + offset + 4)..<(data.startIndex + offset + 8)], as: UTF8.self)
      if containers.contains(type) {
        visit(data, from: offset + 8, end: offset + size, found)
      } else if headers.contains(type), size >= 28 {
        found(type, offset, data[data.startIndex + offset + 8])
      }
      offset += size
    }
  }

  /// The big-endian number of `bytes` bytes at `offset` in `data`.
  private static func read(_ data: Data, at offset: Int, bytes: Int) -> UInt64 {
    (0..<bytes).reduce(0) { $0 << 8 | UInt64(data[data.startIndex + offset + $1]) }
  }

  /// Writes `value` as a big-endian number of `bytes` bytes at `offset` in `data`.
  private static func write(_ value: UInt64, into data: inout Data, at offset: Int, bytes: Int) {
    for index in 0..<bytes {
      data[data.startIndex + offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (bytes - 1 - index)))
    }
  }
}
