import Foundation
import HVTCamera

/// `hvtcam trim`: cuts a movie down to a stretch of it, without re-encoding, or with `--exact` encoding
/// again only the frames from the start to the next key frame (``HVTMovieTrim``).
enum TrimCommand {
  static let parser = CommandLineParser(
    command: "trim",
    summary: """
      Cuts FILE (MP4, QuickTime, Matroska or WebM) down to the stretch from --start to --end seconds, \
      copying its frames and sound as they are: NAME.trimmed.mp4 beside it (numbered when taken) unless \
      -o says otherwise. The new movie begins at the last key frame at or before --start (with --exact, \
      at the first frame at or after it: the frames from there to the next key frame are encoded again; \
      H.264 only), and ends before the first frame at or after --end (without --end, at \
      the movie's end; with B-frames, the frames from the key frame before --end are encoded again). FILE is kept as it was; an \
      existing file is never replaced unless --overwrite is given. Prints the new file's path on stdout \
      and what it holds on stderr.
      """,
    options: [
      .init(names: ["--start"], valueName: "SECONDS", help: "Where the stretch begins (default 0)."),
      .init(names: ["--end"], valueName: "SECONDS", help: "Where it ends (default: the movie's end)."),
      .init(names: ["-o", "--output"], valueName: "PATH", help: "Where to write the trimmed movie."),
      .init(
        names: ["--exact"], valueName: nil,
        help: "Begin at the frame asked, not at a key frame (a smart cut: the first frames encoded again)."),
      CameraOptions.overwrite,
    ],
    operands: "FILE")

  static func run(_ arguments: ParsedArguments) async throws {
    guard arguments.operands.count == 1 else {
      throw UsageError("hvtcam trim: give one movie file to trim (see hvtcam trim --help)")
    }
    let start = try arguments.number("--start", in: 0...86_400) ?? 0
    let end = try arguments.number("--end", in: 0...86_400) ?? .infinity
    guard end > start else { throw UsageError("hvtcam trim: --end (\(end) s) must come after --start (\(start) s)") }
    let movie = try await HVTMovieTrim.trim(
      URL(fileURLWithPath: arguments.operands[0]), start: start, end: end,
      precision: arguments.flag("--exact") ? .frame : .keyFrame,
      to: arguments["--output"].map { URL(fileURLWithPath: $0) }, replacingExisting: arguments.flag("--overwrite"))
    Console.out(movie.url.path)
    Console.error("trimmed \(movie.source.path): \(movie.summary)")
  }
}
