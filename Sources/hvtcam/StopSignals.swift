import Dispatch
import Foundation
import HVTSupport

/// The signals that end a capture cleanly — SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) and
/// SIGQUIT (Ctrl-\) — and SIGPIPE, which is ignored so that a closed output pipe is a failed write, not
/// the end of the process.
///
/// `install()` runs first thing in `main`, before any camera starts, so that no signal is lost: one that
/// arrives before a command is ready to stop is remembered (``received``) and acted on when it is.
///
final class StopSignals: Sendable {
  /// The process's one instance.
  static let shared = StopSignals()

  private struct State {
    var received: Int32?
    var handlers: [Int: @Sendable (Int32) -> Void] = [:]
    var nextHandler = 0
  }

  private let state = Locked(State())
  /// The dispatch sources, kept for the life of the process; set once by `install()`, before a signal can
  /// come (so unguarded).
  nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

  /// Ignores SIGPIPE and routes the stop signals to ``onStop(_:)`` handlers (on a background queue).
  /// The default actions are replaced, so SIGQUIT no longer ends the process with a crash report.
  func install() {
    signal(SIGPIPE, SIG_IGN)
    sources = [SIGINT, SIGTERM, SIGHUP, SIGQUIT].map { number -> any DispatchSourceSignal in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [weak self] in self?.deliver(number) }
      source.resume()
      return source
    }
  }

  /// The first stop signal received, if any.
  var received: Int32? { state.withLock { $0.received } }

  /// Calls `handler` on every stop signal from now on — at once if one was already received. Returns a
  /// token for ``remove(_:)``.
  @discardableResult
  func onStop(_ handler: @escaping @Sendable (Int32) -> Void) -> Int {
    let (token, pending) = state.withLock { state -> (Int, Int32?) in
      state.nextHandler += 1
      state.handlers[state.nextHandler] = handler
      return (state.nextHandler, state.received)
    }
    if let pending { handler(pending) }
    return token
  }

  /// Stops calling the handler `token` names.
  func remove(_ token: Int) {
    _ = state.withLock { $0.handlers.removeValue(forKey: token) }
  }

  private func deliver(_ number: Int32) {
    let handlers = state.withLock { state in
      if state.received == nil { state.received = number }
      return Array(state.handlers.values)
    }
    handlers.forEach { $0(number) }
  }

  /// `SIGINT`, `SIGTERM`…
  static func name(_ number: Int32) -> String {
    switch number {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    case SIGQUIT: "SIGQUIT"
    default: "signal \(number)"
    }
  }
}

/// A stop signal ended a command before it had done its work.
struct Interrupted: Error, CustomStringConvertible {
  let signal: Int32
  /// What had been done, e.g. "before the recording started".
  let when: String
  var description: String { "interrupted by \(StopSignals.name(signal)) \(when)" }
}
