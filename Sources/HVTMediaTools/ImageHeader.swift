import HVTCameraCore
import Glibc

/// A still image's size as its header gives it, read without decoding a pixel: a JPEG's first frame
/// header (`SOFn` marker) or a PNG's `IHDR` chunk. Listing a library reads this instead of running
/// `GstDiscoverer`, which decodes the picture (a 20000×20000 JPEG took 632 MB, and 200 photos 20 s).
package enum ImageHeader {
  /// The image kinds the header is read for.
  package enum Kind: Sendable, Equatable {
    case jpeg, png
  }

  /// The kind and size of the image at `path`, or `nil` when it is neither a JPEG nor a PNG with a
  /// well-formed header (GStreamer then decides what it is). Reads the markers' lengths and skips over
  /// their contents (`pread(2)`), so a large Exif block costs nothing.
  package static func read(path: String) -> (kind: Kind, width: Int, height: Int)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let file = Reader(fd: fd)
    guard let start = file.bytes(at: 0, count: 8) else { return nil }
    if start[0] == 0xFF, start[1] == 0xD8 { return jpeg(file).map { (.jpeg, $0.width, $0.height) } }
    if start == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
      return png(file).map { (.png, $0.width, $0.height) }
    }
    return nil
  }

  /// Reads bytes at offsets of a file.
  private struct Reader {
    let fd: Int32

    /// `count` bytes at `offset`, or `nil` when the file ends before them.
    package func bytes(at offset: Int, count: Int) -> [UInt8]? {
      var buffer = [UInt8](repeating: 0, count: count)
      var done = 0
      while done < count {
        let got = buffer.withUnsafeMutableBytes {
          pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done))
        }
        if got < 0, errno == EINTR { continue }
        guard got > 0 else { return nil }
        done += got
      }
      return buffer
    }
  }

  /// The markers whose segment is a frame header (`SOF0`–`SOF15`, less `DHT` C4, `JPG` C8, `DAC` CC).
  private static let frameMarkers: Set<UInt8> = [
    0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
  ]

  /// The size in a JPEG's first frame header, found by walking its markers from after `SOI`.
  private static func jpeg(_ file: Reader) -> (width: Int, height: Int)? {
    var offset = 2
    // A JPEG's markers before its image data are few; the bound stops a crafted file looping long.
    for _ in 0..<4096 {
      guard let head = file.bytes(at: offset, count: 2), head[0] == 0xFF else { return nil }
      let marker = head[1]
      if marker == 0xFF {  // a fill byte before the marker
        offset += 1
        continue
      }
      // Markers without a segment: TEM, RSTn, SOI; an end or the scan before a frame header is no image.
      if marker == 0x01 || (0xD0...0xD8).contains(marker) {
        offset += 2
        continue
      }
      guard marker != 0xD9, marker != 0xDA, let length = file.bytes(at: offset + 2, count: 2) else { return nil }
      let segment = Int(length[0]) << 8 | Int(length[1])
      guard segment >= 2 else { return nil }
      if frameMarkers.contains(marker) {
        guard segment >= 7, let frame = file.bytes(at: offset + 4, count: 5) else { return nil }
        let height = Int(frame[1]) << 8 | Int(frame[2])
        let width = Int(frame[3]) << 8 | Int(frame[4])
        return width > 0 && height > 0 ? (width, height) : nil
      }
      offset += 2 + segment
    }
    return nil
  }

  /// The size in a PNG's `IHDR` chunk, which must come first.
  private static func png(_ file: Reader) -> (width: Int, height: Int)? {
    guard let chunk = file.bytes(at: 8, count: 16), Array(chunk[4..<8]) == Array("IHDR".utf8) else { return nil }
    let width = chunk[8..<12].reduce(0) { $0 << 8 | Int($1) }
    let height = chunk[12..<16].reduce(0) { $0 << 8 | Int($1) }
    return width > 0 && height > 0 ? (width, height) : nil
  }
}
