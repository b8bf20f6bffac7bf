import Dispatch
import Foundation
import HVTCamera
import Testing

/// One delegate callback, as received.
enum DelegateCall: Sendable {
  case finished([HVTCameraController.InfoKey: any Sendable])
  case cancelled
  case failed(any Error)
  case event(HVTCameraEvent)
}

/// A delegate that records every callback, checks that each arrives on its own delegate queue, and lets
/// a test await them in order.
final class DelegateRecorder: HVTCameraControllerDelegate, @unchecked Sendable {
  let queue = DispatchQueue(label: "test.delegate")
  private let key = DispatchSpecificKey<Bool>()
  private let lock = NSLock()
  private var received: [DelegateCall] = []
  private var offQueueCalls = 0
  /// Calls no `next` has taken yet, in arrival order.
  private var unclaimed: [DelegateCall] = []
  /// The `next` waiting for a new call, if any.
  private var waiter: CheckedContinuation<Void, Never>?
  /// How many calls have arrived, to tell whether one came between a search and a wait.
  private var arrivals = 0

  init() {
    queue.setSpecific(key: key, value: true)
  }

  /// Becomes the controller's delegate on this recorder's queue.
  func attach(to controller: HVTCameraController) {
    controller.delegateQueue = queue
    controller.cameraDelegate = self
  }

  private func record(_ call: DelegateCall) {
    let onQueue = DispatchQueue.getSpecific(key: key) == true
    let wake = lock.withLock {
      received.append(call)
      unclaimed.append(call)
      arrivals += 1
      if !onQueue { offQueueCalls += 1 }
      defer { waiter = nil }
      return waiter
    }
    wake?.resume()
  }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) { record(.finished(info)) }
  func cameraControllerDidCancel(_ controller: HVTCameraController) { record(.cancelled) }
  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) { record(.failed(error)) }
  func cameraController(_ controller: HVTCameraController, didReceive event: HVTCameraEvent) { record(.event(event)) }

  /// Every callback so far.
  var calls: [DelegateCall] { lock.withLock { received } }

  /// Callbacks that did not run on the delegate queue.
  var callsOffQueue: Int { lock.withLock { offQueueCalls } }

  /// Captures delivered so far.
  var captures: [[HVTCameraController.InfoKey: any Sendable]] {
    calls.compactMap { if case .finished(let info) = $0 { info } else { nil } }
  }

  /// Errors delivered so far.
  var errors: [any Error] { calls.compactMap { if case .failed(let error) = $0 { error } else { nil } } }

  /// Waits until every callback already queued has run.
  func flush() { queue.sync {} }

  /// The first callback not yet taken for which `match` returns a value, waiting for it if needed. It is
  /// taken with every event before it (events are moments); captures passed over stay for later calls,
  /// so captures may arrive in any order. Throws when an error not yet taken comes before the match,
  /// unless `match` accepts it.
  func next<T>(_ match: (DelegateCall) -> T?) async throws -> T {
    while true {
      try Task.checkCancellation()
      let (found, searched): (Result<T, any Error>?, Int) = lock.withLock {
        (search(match), arrivals)
      }
      if let found { return try found.get() }
      await withCheckedContinuation { continuation in
        let arrived = lock.withLock {
          if arrivals > searched { return true }
          waiter = continuation
          return false
        }
        if arrived { continuation.resume() }
      }
    }
  }

  /// Takes the first call `match` accepts (or an error before it), dropping the events passed over;
  /// called with the lock held.
  private func search<T>(_ match: (DelegateCall) -> T?) -> Result<T, any Error>? {
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
  func nextCapture(_ type: HVTMediaType) async throws -> Capture {
    try await next { call in
      guard case .finished(let info) = call, info[.mediaType] as? HVTMediaType == type else { return nil }
      return Capture(info)
    }
  }

  /// The next event `match` accepts.
  func nextEvent<T>(_ match: @escaping (HVTCameraEvent) -> T?) async throws -> T {
    try await next { call in if case .event(let event) = call { match(event) } else { nil } }
  }

  /// The next error.
  func nextError() async throws -> any Error {
    try await next { call in if case .failed(let error) = call { error } else { nil } }
  }
}

/// A delivered capture with typed accessors.
struct Capture: @unchecked Sendable {
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
