import Foundation
import HVTSupport

extension Process {
  /// The one lock every test helper's launch takes.
  private static let launching = Locked(())

  /// `run()`, one launch at a time in the test process. A Debian 13 tier run of the command-line tests,
  /// which launch many tools at once from several threads, crashed inside `Process.run()` (a bad pointer
  /// in libc, reading a run of descriptor numbers as text): launches no longer overlap.
  public func runAlone() throws {
    try Self.launching.withLock { _ in try run() }
  }
}
