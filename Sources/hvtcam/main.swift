import Foundation
import HVTCamera

/// `hvtcam`: capture photos and movies, and print the GStreamer pipeline behind them.
///
/// Exit codes: 0 success, 1 runtime error (GStreamer's message on stderr), 64 usage error.
let commands: [(parser: CommandLineParser, run: (ParsedArguments) throws -> Void)] = [
  (PhotoCommand.parser, PhotoCommand.run),
  (RecordCommand.parser, RecordCommand.run),
  (DescribeCommand.parser, DescribeCommand.run),
  (DemoCommand.parser, DemoCommand.run),
  (PresetsCommand.parser, PresetsCommand.run),
  (GraphCommand.parser, GraphCommand.run),
  (DevicesCommand.parser, DevicesCommand.run),
]

let overview = """
  usage: hvtcam COMMAND [options]

  commands:
  \(commands.map { "  \($0.parser.command.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.parser.firstSentence)" }.joined(separator: "\n"))

  Run 'hvtcam COMMAND --help' for a command's options. HVT_CAMERA_SOURCE=simulated uses the simulated camera.
  """

let arguments = Array(CommandLine.arguments.dropFirst())
var status: Int32 = 0
if arguments.isEmpty {
  FileHandle.standardError.write("\(overview)\n")
  status = 64
} else if ["-h", "--help", "help"].contains(arguments[0]) {
  print(overview)
} else if let command = commands.first(where: { $0.parser.command == arguments[0] }) {
  do {
    if let parsed = try command.parser.parse(Array(arguments.dropFirst())) {
      try command.run(parsed)
    } else {
      print(command.parser.help, terminator: "")
    }
  } catch let error as UsageError {
    FileHandle.standardError.write("\(error)\n")
    status = 64
  } catch {
    FileHandle.standardError.write("hvtcam \(arguments[0]): \(error)\n")
    status = 1
  }
} else {
  FileHandle.standardError.write("hvtcam: unknown command '\(arguments[0])' (see hvtcam --help)\n")
  status = 64
}
_ = busRelays.wait(timeout: .now() + 5)
HVTCameraRuntime.shutDown()
exit(status)
