import Dispatch
import Foundation
import Glibc

/// Runs seconds of blocking work (parsing megabytes, hundreds of preset loads, waiting for a tool) on a
/// thread of its own, so that it never holds one of Swift Concurrency's few cooperative threads, nor one
/// of the global Dispatch queues' threads (as many as there are cores), which tests running in parallel
/// need to make progress.
public func onDispatchThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
  }
}

/// The CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`): what a piece of work
/// costs, whatever else the machine is busy with.
public func threadCPUTime() -> Duration {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
