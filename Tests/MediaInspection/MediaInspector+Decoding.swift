import Foundation

extension MediaInspector {
  /// Counts the frames a movie of any container decodes to: `gst-launch-1.0 -v filesrc location=… !
  /// decodebin ! video/x-raw ! fakesink silent=false` (its sound, if any, is left unlinked), one `chain`
  /// message per decoded frame. Throws when the tool fails.
  public static func decodedFrameCount(_ path: String) async throws -> Int {
    try await withPlainLink(to: path, named: "movie") { link in
      let result = try await run(
        "gst-launch-1.0",
        ["-v", "filesrc", "location=\(link)", "!", "decodebin", "!", "video/x-raw", "!", "fakesink", "silent=false"])
      guard result.status == 0 else { throw InspectionError(result.output) }
      return result.output.split(separator: "\n").filter { $0.contains("last-message = chain") }.count
    }
  }

  /// What `ffprobe` (FFmpeg's reader, independent of GStreamer) says about a movie.
  public struct Probe: Sendable, CustomStringConvertible {
    /// The container's duration in seconds (`format=duration`), if it has one.
    public var duration: Double?
    /// The frames of the first video stream, counted by decoding them (`-count_frames`).
    public var decodedFrames: Int?
    /// The first video stream's codec, e.g. `h264` or `vp8`.
    public var codec: String?
    /// The tool's output.
    public var output: String
    /// The tool's output.
    public var description: String { output }
  }

  /// Whether `ffprobe` is installed (on `PATH`).
  public static let hasFFprobe = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/ffprobe")
  }

  /// Runs `ffprobe -count_frames` on the first video stream and reads the container duration, the
  /// decoded frame count and the codec. Throws when the tool fails.
  public static func probe(_ path: String) async throws -> Probe {
    let result = try await run(
      "ffprobe",
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "format=duration:stream=nb_read_frames,codec_name", "-of", "default=noprint_wrappers=1", path,
      ])
    guard result.status == 0 else { throw InspectionError(result.output) }
    var fields: [String: String] = [:]
    for line in result.output.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
    return Probe(
      duration: fields["duration"].flatMap(Double.init), decodedFrames: fields["nb_read_frames"].flatMap { Int($0) },
      codec: fields["codec_name"], output: result.output)
  }

  /// The first video stream's packets as `ffprobe` reads them (their times, flags and sizes), in file order.
  public struct Packets: Sendable, CustomStringConvertible {
    /// The indexes of the key frames (flag `K`).
    public var keyFrames: [Int]
    /// Each packet's presentation time in seconds, in file order (0 where ffprobe gives none).
    public var presentationTimes: [Double]
    /// The packets' bytes, all together.
    public var bytes: Int
    /// How many packets there are.
    public var count: Int
    /// The indexes of the packets that come more than `interval` seconds after the one before them: the
    /// first after each gap.
    public func afterGaps(longerThan interval: Double) -> [Int] {
      presentationTimes.indices.dropFirst().filter { presentationTimes[$0] - presentationTimes[$0 - 1] > interval }
    }
    /// The longest run of packets from one key frame to the next (or to the end), in packets.
    public var longestKeyFrameDistance: Int {
      zip(keyFrames, keyFrames.dropFirst() + [count]).map { $1 - $0 }.max() ?? count
    }
    /// The tool's output.
    public var output: String
    /// The tool's output.
    public var description: String { output }
  }

  /// ffmpeg's PSNR (average over the planes, dB) of `count` frames of the movie at `path` from its frame
  /// `skipping` on against the frames of the movie at `source` from its frame `first` on: a picture
  /// encoded again scores about 30 dB or more against its original, another picture far less.
  public static func psnr(
    of path: String, skipping: Int = 0, against source: String, from first: Int, count: Int
  ) async throws -> [Double] {
    let filter =
      "[1:v]trim=start_frame=\(first):end_frame=\(first + count),setpts=PTS-STARTPTS[s];"
      + "[0:v]trim=start_frame=\(skipping):end_frame=\(skipping + count),setpts=PTS-STARTPTS[t];"
      + "[t][s]psnr=stats_file=-"
    let result = try await run(
      "ffmpeg", ["-v", "error", "-i", path, "-i", source, "-filter_complex", filter, "-f", "null", "-"])
    guard result.status == 0 else { throw InspectionError("ffmpeg psnr: \(result.output)") }
    return result.output.split(separator: "\n").compactMap { line in
      line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.flatMap { Double($0.dropFirst(9)) }
    }
  }

  /// Runs `ffprobe -show_entries packet=pts_time,dts_time,flags,size` on the first video stream (the
  /// times are for a failure's message: ffprobe prints them first). Throws when the tool fails.
  public static func packets(_ path: String) async throws -> Packets {
    let result = try await run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time,flags,size", "-of",
        "csv=p=0", path,
      ])
    guard result.status == 0 else { throw InspectionError(result.output) }
    let rows = result.output.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
      .filter { $0.count >= 4 }
    return Packets(
      keyFrames: rows.indices.filter { rows[$0][3].contains("K") }, presentationTimes: rows.map { Double($0[0]) ?? 0 },
      bytes: rows.compactMap { Int($0[2]) }.reduce(0, +), count: rows.count, output: result.output)
  }

  /// The presentation times (seconds) of the first video stream's packets, as `ffprobe` reads them, in
  /// order of time. Throws when the tool fails.
  public static func presentationTimes(_ path: String) async throws -> [Double] {
    let result = try await run(
      "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
    guard result.status == 0 else { throw InspectionError(result.output) }
    return result.output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
  }
}
