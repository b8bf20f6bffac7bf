import Foundation
import HVTCamera

/// `hvtcam repair`: finishes a movie that a crash left under its partial name.
enum RepairCommand {
  static let parser = CommandLineParser(
    command: "repair",
    summary: """
      Finishes a movie that a crash or kill -9 left under its partial name. Copies the fragments that \
      survived in FILE (NAME.partial.mp4, .mkv or .webm), without re-encoding, into a complete file with \
      its index and the right duration: NAME.mp4 (.mkv, .webm) unless -o says otherwise. A fragment cut \
      short is left out; FILE is kept as it was. Prints the repaired file's path on stdout and what it \
      holds on stderr. An existing file is never replaced unless --overwrite is given.
      """,
    options: [
      .init(
        names: ["-o", "--output"], valueName: "PATH",
        help: "Where to write the repaired movie (default: the name without .partial)."),
      CameraOptions.overwrite,
    ],
    operands: "FILE")

  static func run(_ arguments: ParsedArguments) async throws {
    guard arguments.operands.count == 1 else {
      throw UsageError("hvtcam repair: give one movie file to repair (see hvtcam repair --help)")
    }
    let movie = try await HVTMovieRepair.repair(
      URL(fileURLWithPath: arguments.operands[0]), to: arguments["--output"].map { URL(fileURLWithPath: $0) },
      replacingExisting: arguments.flag("--overwrite"))
    Console.out(movie.url.path)
    Console.error("recovered \(movie.summary) from \(movie.source.path) (\(movie.sourceBytes) bytes)")
  }
}
