import Dispatch

/// Traps in debug builds unless the caller runs on `queue`: the run-time check of the confinement an
/// `@unchecked Sendable` type's comment states ("written only on the worker queue"), as swift-nio's
/// `assertInEventLoop` checks its channels'. Nothing in release builds.
package func assertOnQueue(_ queue: DispatchQueue) {
  #if DEBUG
    dispatchPrecondition(condition: .onQueue(queue))
  #endif
}
