import Dispatch
import Foundation

/// SIGUSR1, which pauses the recording of `hvtcam record` and resumes it (`kill -USR1 PID`), or, with
/// `--pre-roll`, starts it.
///
/// `install()` runs first thing in `main`, with the stop signals, so that one sent early never ends the
/// process (SIGUSR1's default action); one that comes while nothing records is ignored.
///
/// `@unchecked Sendable`: `handler` is read and written under `lock`; `source` is set once, by `install()`, before a
/// signal can come.
final class PauseSignal: @unchecked Sendable {
  /// The process's one instance.
  static let shared = PauseSignal()

  /// Guarded by `lock`.
  private var handler: (@Sendable () -> Void)?
  private let lock = NSLock()
  /// The dispatch source, kept for the life of the process; set once by `install()`.
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
    lock.withLock { self.handler = handler }
    defer { lock.withLock { self.handler = nil } }
    return try await body()
  }

  /// Returns at the next SIGUSR1: the trigger that starts a recording after its pre-roll. Throws
  /// ``Interrupted`` when a stop signal comes first.
  func trigger() async throws {
    let waiter = Waiter()
    let stop = StopSignals.shared.onStop { signal in
      waiter.resume(with: .failure(Interrupted(signal: signal, when: "before the recording was triggered")))
    }
    defer { StopSignals.shared.remove(stop) }
    try await whileSet({ waiter.resume(with: .success(())) }) {
      try await withCheckedThrowingContinuation { waiter.wait($0) }
    }
  }

  /// A continuation resumed once, by whichever comes first; what comes before it is set is kept for it.
  ///
  /// `@unchecked Sendable`: its variables are read and written under `lock`.
  private final class Waiter: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var result: Result<Void, any Error>?

    func wait(_ continuation: CheckedContinuation<Void, any Error>) {
      let early = lock.withLock { () -> Result<Void, any Error>? in
        if result == nil { self.continuation = continuation }
        return result
      }
      if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Void, any Error>) {
      let waiting = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
        guard self.result == nil else { return nil }
        self.result = result
        defer { continuation = nil }
        return continuation
      }
      waiting?.resume(with: result)
    }
  }

  private func deliver() {
    lock.withLock { handler }?()
  }
}
