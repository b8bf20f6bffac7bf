import Foundation
import MediaInspection

/// A private X server (`Xvfb`) for tests that open windows, on a display number it picks itself.
struct PrivateDisplay {
  private let server: Subprocess
  /// `:N`, for `DISPLAY`.
  let name: String

  /// Starts `Xvfb` and waits until it accepts clients: `-displayfd 2` makes it print its display number on
  /// standard error once it is ready. `-noreset`, as a desktop's X server behaves (its window manager and
  /// panels stay connected): an X server resets when its last client leaves, and a window sink's probe
  /// (``WindowSink``), closing the only connection, reset it under the sink's own `XOpenDisplay`, which then
  /// failed ("Could not open display") or hung, 18 runs of 25 of `LibraryWindowTests` on a loaded machine.
  init() async throws {
    let xvfb = URL(fileURLWithPath: "/usr/bin/Xvfb")
    guard FileManager.default.isExecutableFile(atPath: xvfb.path) else {
      throw TestFailure("no /usr/bin/Xvfb (Debian: xvfb; ./dev test installs it)")
    }
    server = try Subprocess(
      xvfb, ["-displayfd", "2", "-noreset", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
      environment: ProcessInfo.processInfo.environment)
    let number = await server.standardErrorLine { line in !line.isEmpty && line.allSatisfy(\.isNumber) }
    guard let number else { throw TestFailure("Xvfb did not start: \(await server.result())") }
    name = ":\(number)"
  }

  /// Runs `/usr/bin/xdotool arguments` on this display (clicks and keys through the XTEST extension,
  /// window searches); throws, with what it printed, when it fails.
  @discardableResult
  func xdotool(_ arguments: [String]) async throws -> ProcessResult {
    let result = try await Subprocess.run(
      URL(fileURLWithPath: "/usr/bin/xdotool"), arguments, environment: ["DISPLAY": name])
    guard result.succeeded else { throw TestFailure("xdotool \(arguments.joined(separator: " ")): \(result)") }
    return result
  }

  /// Whether the server process is still there.
  var isRunning: Bool { server.isRunning }

  /// What the server has printed so far, for failure messages.
  var log: [String] { server.standardErrorSoFar }

  /// Stops the server and removes its lock file and socket. SIGKILL, because a child inherits the test
  /// runner's ignored signals, and this one may ignore SIGTERM.
  func stop() async {
    server.send(SIGKILL)
    _ = await server.result()
    let number = name.dropFirst()
    unlink("/tmp/.X\(number)-lock")
    unlink("/tmp/.X11-unix/X\(number)")
  }
}
