import Foundation

/// The freedesktop thumbnail cache as other programs see it, for both test targets: the URI GLib's own
/// `gio` tool gives a file, `md5sum` of it, the `tEXt` chunks `exiftool` reads, and entries written by
/// Python's `zlib` and `struct` (not by the engine) to plant current, stale or foreign ones.
public enum FreedesktopThumbnails {
  /// The file's URI as `gio info` prints it (GIO's `g_file_get_uri`).
  public static func uri(of path: String) async throws -> String {
    let info = try await Subprocess.run(tool: "gio", ["info", "--attributes=standard::name", path])
    guard info.succeeded, let line = info.outputLines.first(where: { $0.hasPrefix("uri: ") }) else {
      throw TestFailure("gio info \(path): \(info)")
    }
    return String(line.dropFirst("uri: ".count))
  }

  /// The MD5 digest of `text` in hexadecimal, by `md5sum`.
  public static func md5(of text: String) async throws -> String {
    let digest = try await Subprocess.run(tool: "sh", ["-c", "printf %s \"$1\" | md5sum", "sh", text])
    guard digest.succeeded, let line = digest.outputLines.first, let hex = line.split(separator: " ").first else {
      throw TestFailure("md5sum: \(digest)")
    }
    return String(hex)
  }

  /// Where the cache in `cacheHome` (an `XDG_CACHE_HOME`) keeps the `flavour` (`normal`, `large`)
  /// thumbnail of `path`: `thumbnails/FLAVOUR/MD5(URI).png`, named by ``uri(of:)`` and ``md5(of:)``.
  public static func entry(of path: String, in cacheHome: String, flavour: String = "large") async throws -> String {
    "\(cacheHome)/thumbnails/\(flavour)/\(try await md5(of: try await uri(of: path))).png"
  }

  /// The file's modification time in whole seconds, by `stat -c %Y`.
  public static func modified(_ path: String) async throws -> Int {
    let status = try await Subprocess.run(tool: "stat", ["-c", "%Y", path])
    guard status.succeeded, let seconds = status.outputLines.first.flatMap({ Int($0) }) else {
      throw TestFailure("stat \(path): \(status)")
    }
    return seconds
  }

  /// A PNG as `exiftool -j -a -G1` reads it: `PNG:ThumbURI`, `PNG:ThumbMTime`, `PNG:ImageWidth`…, and
  /// `File:FileType` (`PNG` for a PNG). Throws when exiftool cannot read the file.
  public static func tags(of path: String) async throws -> [String: Any] {
    let read = try await Subprocess.run(tool: "exiftool", ["-j", "-a", "-G1", path])
    guard read.succeeded,
      let documents = try JSONSerialization.jsonObject(with: Data(read.standardOutput.utf8)) as? [[String: Any]],
      let tags = documents.first
    else { throw TestFailure("exiftool \(path): \(read)") }
    return tags
  }

  /// The numeric mode of `path` (`stat -c %a`: `600`, `700`).
  public static func mode(of path: String) async throws -> String {
    let status = try await Subprocess.run(tool: "stat", ["-c", "%a", path])
    guard status.succeeded, let mode = status.outputLines.first else { throw TestFailure("stat \(path): \(status)") }
    return mode
  }

  /// The inode number of `path` (`stat -c %i`): a file renamed over it has another.
  public static func inode(of path: String) async throws -> String {
    let status = try await Subprocess.run(tool: "stat", ["-c", "%i", path])
    guard status.succeeded, let inode = status.outputLines.first else { throw TestFailure("stat \(path): \(status)") }
    return inode
  }

  /// Writes at `path` (its folders made) a PNG of `width` × `height` pixels of one colour with a `tEXt`
  /// chunk for each of `text`, in that order — with Python's `zlib` and `struct`, as another program
  /// would write an entry.
  public static func plant(
    _ path: String, width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, text: [(String, String)]
  ) async throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let written = try await Subprocess.run(
      tool: "python3",
      ["-c", pngWriter, path, "\(width)", "\(height)", "\(red)", "\(green)", "\(blue)"]
        + text.map { "\($0.0)=\($0.1)" })
    guard written.succeeded else { throw TestFailure("python3 PNG writer: \(written)") }
  }

  /// A PNG writer in Python: `PATH W H R G B KEY=TEXT…`.
  private static let pngWriter = """
    import struct, sys, zlib
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    r, g, b = (int(v) for v in sys.argv[4:7])
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\\0" + bytes([r, g, b]) * width for _ in range(height))
    png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    for item in sys.argv[7:]:
        key, value = item.split("=", 1)
        png += chunk(b"tEXt", key.encode("latin-1") + b"\\0" + value.encode("latin-1"))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)
    """

  /// What keeps `entry` from being a current large thumbnail of `photo` as other programs read it: `exiftool`
  /// must find a PNG whose `Thumb::URI` is `gio`'s URI of the photo and whose `Thumb::MTime` is `stat`'s,
  /// and `gst-discoverer-1.0` a picture of `size`; empty when it is one.
  public static func problems(ofEntry entry: String, for photo: String, size: String = "256x192") async throws
    -> [String]
  {
    let tags = try await tags(of: entry)
    let uri = try await uri(of: photo)
    let modified = try await modified(photo)
    var problems: [String] = []
    if tags["File:FileType"] as? String != "PNG" { problems.append("not a PNG: \(tags)") }
    if tags["PNG:ThumbURI"] as? String != uri { problems.append("Thumb::URI is not \(uri): \(tags)") }
    if tags["PNG:ThumbMTime"] as? Int != modified { problems.append("Thumb::MTime is not \(modified): \(tags)") }
    let discovered = try await MediaInspector.discover(entry)
    if discovered.size != size { problems.append("not \(size): \(discovered)") }
    return problems
  }
}
