import Foundation
import MediaInspection
import Testing

/// The Python programs of the tests' resources that listen on 127.0.0.1 (`Fixtures/NAME.py`: the RTSP
/// RECORD server, the silent peer, the slow link), each saying `listening PORT` on standard error once
/// bound.
enum ListeningFixture {
  /// Starts `Fixtures/name.py` with `arguments` and waits for its `listening PORT` line (`what` names it
  /// in the error when it ends without one): the process and the port.
  static func start(_ name: String, _ arguments: [String], what: String) async throws -> (Subprocess, Int) {
    guard let script = Bundle.module.url(forResource: name, withExtension: "py") else {
      throw TestFailure("\(name).py is not in the tests' resources")
    }
    let process = try Subprocess(
      URL(fileURLWithPath: "/usr/bin/python3"), [script.path] + arguments,
      environment: ProcessInfo.processInfo.environment)
    let line = try await process.requireStandardErrorLine(what) { $0.hasPrefix("listening ") }
    return (process, try #require(Int(line.dropFirst("listening ".count)), "\(line)"))
  }
}
