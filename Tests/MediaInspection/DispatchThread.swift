import Dispatch

/// Runs seconds of blocking work (parsing megabytes, hundreds of preset loads) on a Dispatch thread, so
/// that it never holds one of Swift Concurrency's few cooperative threads, which tests running in
/// parallel need to make progress.
public func onDispatchThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
  }
}
