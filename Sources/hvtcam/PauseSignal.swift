import Dispatch
import Foundation

/// SIGUSR1, which pauses the recording of `hvtcam record` and resumes it (`kill -USR1 PID`).
///
/// `install()` runs first thing in `main`, with the stop signals, so that one sent early never ends the
/// process (SIGUSR1's default action); one that comes while nothing records is ignored.
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

  private func deliver() {
    lock.withLock { handler }?()
  }
}
