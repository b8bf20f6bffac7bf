import Dispatch
import Foundation
import HVTSupport

/// SIGUSR1, which pauses the recording of `hvtcam record` and resumes it (`kill -USR1 PID`), or, with
/// `--pre-roll`, starts it.
///
/// `install()` runs first thing in `main`, with the stop signals, so that one sent early never ends the
/// process (SIGUSR1's default action); one that comes while nothing records is ignored.
///
final class PauseSignal: Sendable {
  /// The process's one instance.
  static let shared = PauseSignal()

  /// What a SIGUSR1 calls now, if anything.
  private let handler = Locked<(@Sendable () -> Void)?>(nil)
  /// The dispatch source, kept for the life of the process; set once by `install()`, before a signal can
  /// come (so unguarded).
  nonisolated(unsafe) private var source: (any DispatchSourceSignal)?

  /// Routes SIGUSR1 to the handler of ``whileSet(_:_:)`` (on a background queue).
  func install() {
    signal(SIGUSR1, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
    source.setEventHandler { [weak self] in self?.deliver() }
    source.resume()
    self.source = source
  }

  /// Calls `handler` on every SIGUSR1 while `body` runs.
  func whileSet<T>(_ handler: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
    self.handler.withLock { $0 = handler }
    defer { self.handler.withLock { $0 = nil } }
    return try await body()
  }

  /// Returns at the next SIGUSR1: the trigger that starts a recording after its pre-roll. Throws
  /// ``Interrupted`` when a stop signal comes first.
  func trigger() async throws {
    let triggered = Outcome<Void>()
    let stop = StopSignals.shared.onStop { signal in
      triggered.finish(.failure(Interrupted(signal: signal, when: "before the recording was triggered")))
    }
    defer { StopSignals.shared.remove(stop) }
    try await whileSet({ triggered.finish(.success(())) }) {
      try await triggered.wait()
    }
  }

  private func deliver() {
    handler.value?()
  }
}
