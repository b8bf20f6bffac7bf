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
  private let stream: AsyncStream<DelegateCall>
  private let continuation: AsyncStream<DelegateCall>.Continuation
  private var iterator: AsyncStream<DelegateCall>.Iterator

  init() {
    queue.setSpecific(key: key, value: true)
    (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    iterator = stream.makeAsyncIterator()
  }

  /// Becomes the controller's delegate on this recorder's queue.
  func attach(to controller: HVTCameraController) {
    controller.delegateQueue = queue
    controller.cameraDelegate = self
  }

  private func record(_ call: DelegateCall) {
    let onQueue = DispatchQueue.getSpecific(key: key) == true
    lock.withLock {
      received.append(call)
      if !onQueue { offQueueCalls += 1 }
    }
    continuation.yield(call)
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

  /// The next callback for which `match` returns a value (earlier ones are skipped). Throws when an error
  /// arrives first, unless `match` accepts it.
  func next<T>(_ match: (DelegateCall) -> T?) async throws -> T {
    while let call = await iterator.next() {
      if let value = match(call) { return value }
      if case .failed(let error) = call { throw error }
    }
    throw CancellationError()
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
