import Dispatch
import Foundation
@testable import HVTCamera
import HVTSupport
import Testing

/// One delegate callback, as received.
enum DelegateCall: Sendable {
  case finished([HVTCameraController.InfoKey: any Sendable])
  case cancelled
  case failed(any Error)
  case event(HVTCameraEvent)
}

/// A delegate on the main actor, as an app's is, that records every callback, checks that each runs on
/// the main queue, and lets a test (off the main actor) await them in order. Everything but the
/// callbacks is nonisolated: the recorded calls are behind a lock.
@MainActor final class DelegateRecorder: HVTCameraControllerDelegate {
  private let box = Locked(Box())

  /// What the recorder holds, under its lock.
  private struct Box {
    var received: [DelegateCall] = []
    var offMainCalls = 0
    /// Calls no `next` has taken yet, in arrival order.
    var unclaimed: [DelegateCall] = []
    /// The `next` waiting for a new call, if any.
    var waiter: CheckedContinuation<Void, Never>?
    /// How many calls have arrived, to tell whether one came between a search and a wait.
    var arrivals = 0
  }

  nonisolated init() { _ = Self.mainQueueKey }

  /// Becomes the controller's delegate.
  nonisolated func attach(to controller: HVTCameraController) {
    controller.cameraDelegate = self
  }

  /// Marks the main queue, so that a callback can tell it runs there: the main actor's executor is the
  /// main queue, which is not always served by the main thread (`dispatchMain()` on Linux hands it to a
  /// thread of the pool, as Swift Testing's runner does).
  private nonisolated static let mainQueueKey = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  private func record(_ call: DelegateCall) {
    let onMain = DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
    box.withLock { box in
      box.received.append(call)
      box.unclaimed.append(call)
      box.arrivals += 1
      if !onMain { box.offMainCalls += 1 }
    }
    wakeWaiter()
  }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) { record(.finished(info)) }
  func cameraControllerDidCancel(_ controller: HVTCameraController) { record(.cancelled) }
  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) { record(.failed(error)) }
  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) { record(.event(event)) }

  /// Every callback so far.
  nonisolated var calls: [DelegateCall] { box.withLock { $0.received } }

  /// Callbacks that did not run on the main queue.
  nonisolated var callsOffMain: Int { box.withLock { $0.offMainCalls } }

  /// Captures delivered so far.
  nonisolated var captures: [[HVTCameraController.InfoKey: any Sendable]] {
    calls.compactMap { if case .finished(let info) = $0 { info } else { nil } }
  }

  /// Errors delivered so far.
  nonisolated var errors: [any Error] { calls.compactMap { if case .failed(let error) = $0 { error } else { nil } } }

  /// Waits until every callback already queued on the main actor has run: the controller queues them
  /// on the main dispatch queue, in order, and this job follows them there.
  nonisolated func flush() async { await MainActor.run {} }

  /// The first callback not yet taken for which `match` returns a value, waiting for it if needed. It is
  /// taken with every event before it (events are moments); captures passed over stay for later calls,
  /// so captures may arrive in any order. Throws when an error not yet taken comes before the match,
  /// unless `match` accepts it, and `CancellationError` when the task is cancelled (a test's time limit
  /// ends the wait, instead of the wait holding the test until then).
  nonisolated func next<T>(_ match: (DelegateCall) -> T?) async throws -> T {
    while true {
      try Task.checkCancellation()
      let (found, searched): (Result<T, any Error>?, Int) = box.withLock { box in
        (Self.search(match, in: &box.unclaimed), box.arrivals)
      }
      if let found { return try found.get() }
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let arrived = box.withLock { box in
            if box.arrivals > searched { return true }
            box.waiter = continuation
            return false
          }
          if arrived { return continuation.resume() }
          // Cancelled before the wait was registered: the handler below found no waiter to wake.
          if Task.isCancelled { wakeWaiter() }
        }
      } onCancel: {
        wakeWaiter()
      }
    }
  }

  /// Resumes the `next` waiting for a call, if one is.
  private nonisolated func wakeWaiter() {
    box.withLock { box in
      defer { box.waiter = nil }
      return box.waiter
    }?.resume()
  }

  /// Takes the first call of `unclaimed` that `match` accepts (or an error before it), dropping the
  /// events passed over; called with the lock held.
  private nonisolated static func search<T>(
    _ match: (DelegateCall) -> T?, in unclaimed: inout [DelegateCall]
  ) -> Result<T, any Error>? {
    var kept: [DelegateCall] = []
    defer { unclaimed = kept }
    for (index, call) in unclaimed.enumerated() {
      if let value = match(call) {
        kept += unclaimed[(index + 1)...]
        return .success(value)
      }
      switch call {
      case .failed(let error):
        kept += unclaimed[(index + 1)...]
        return .failure(error)
      case .event:
        continue
      case .finished, .cancelled:
        kept.append(call)
      }
    }
    return nil
  }

  /// The next capture of a media type.
  nonisolated func nextCapture(_ type: HVTMediaType) async throws -> Capture {
    try await next { call in
      guard case .finished(let info) = call, info[.mediaType] as? HVTMediaType == type else { return nil }
      return Capture(info)
    }
  }

  /// The next event `match` accepts.
  nonisolated func nextEvent<T>(_ match: @escaping (HVTCameraEvent) -> T?) async throws -> T {
    try await next { call in if case .event(let event) = call { match(event) } else { nil } }
  }

  /// The next error.
  nonisolated func nextError() async throws -> any Error {
    try await next { call in if case .failed(let error) = call { error } else { nil } }
  }
}

/// A delivered capture with typed accessors.
struct Capture: Sendable {
  let info: [HVTCameraController.InfoKey: any Sendable]
  init(_ info: [HVTCameraController.InfoKey: any Sendable]) { self.info = info }

  var metadata: HVTMediaMetadata {
    get throws { try #require(info[.mediaMetadata] as? HVTMediaMetadata) }
  }
  var image: HVTImage {
    get throws { try #require(info[.originalImage] as? HVTImage) }
  }
  var imageURL: URL {
    get throws { try #require(info[.imageURL] as? URL) }
  }
  var movieURL: URL {
    get throws { try #require(info[.mediaURL] as? URL) }
  }
}
