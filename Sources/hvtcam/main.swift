import Foundation
import HVTCamera

/// `hvtcam`: capture photos and movies, and print the GStreamer pipeline behind them.
///
/// Exit codes: 0 success, 1 runtime error (what failed and where, on stderr), 64 usage error, 74 the work
/// was done but standard output or error could not be written.

// First of all, so that a signal during start-up is never lost.
StopSignals.shared.install()
PauseSignal.shared.install()

let commands: [(parser: CommandLineParser, run: (ParsedArguments) async throws -> Void)] = [
  (PhotoCommand.parser, PhotoCommand.run),
  (RecordCommand.parser, RecordCommand.run),
  (RunCommand.parser, RunCommand.run),
  (StreamCommand.parser, StreamCommand.run),
  (DescribeCommand.parser, DescribeCommand.run),
  (DemoCommand.parser, DemoCommand.run),
  (PresetsCommand.parser, PresetsCommand.run),
  (GraphCommand.parser, GraphCommand.run),
  (DevicesCommand.parser, DevicesCommand.run),
  (ControlsCommand.parser, ControlsCommand.run),
  (RepairCommand.parser, RepairCommand.run),
  (TrimCommand.parser, TrimCommand.run),
  (LibraryCommand.parser, LibraryCommand.run),
]

let overview = """
  usage: hvtcam COMMAND [options]

  commands:
  \(commands.map { "  \($0.parser.command.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.parser.firstSentence)" }.joined(separator: "\n"))

  Run 'hvtcam COMMAND --help' for a command's options. HVT_CAMERA_SOURCE=simulated uses the simulated camera;
  HVT_CAMERA_PORTAL=1 takes the cameras from the Camera portal, as in a Flatpak sandbox (0: never).
  """

let arguments = Array(CommandLine.arguments.dropFirst())
var status: Int32 = 0
if arguments.isEmpty {
  Console.error(overview)
  status = 64
} else if ["-h", "--help", "help"].contains(arguments[0]) {
  Console.out(overview)
} else if let command = commands.first(where: { $0.parser.command == arguments[0] }) {
  do {
    if let parsed = try command.parser.parse(Array(arguments.dropFirst())) {
      try await command.run(parsed)
    } else {
      Console.write(command.parser.help)
    }
  } catch let error as UsageError {
    Console.error("\(error)")
    status = 64
  } catch {
    Console.error("hvtcam \(arguments[0]): \(error)")
    status = 1
  }
} else {
  Console.error("hvtcam: unknown command '\(arguments[0])' (see hvtcam --help)")
  status = 64
}
_ = busRelays.wait(timeout: .now() + 5)
HVTCameraRuntime.shutDown()
if status == 0, Console.hadWriteFailure { status = Console.writeFailureStatus }
exit(status)
