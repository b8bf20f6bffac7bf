import CAllocator
import Foundation
import HVTSupport

extension HVTCameraRuntime {
  /// Whether the first ``HVTCameraController`` pins glibc's mmap threshold at its default, 128 KiB
  /// (`mallopt(M_MMAP_THRESHOLD)`), for the whole process. `true` unless changed before then.
  ///
  /// glibc raises the threshold each time a large mapped block is freed. Once a camera has freed one
  /// frame-sized block, later frame-sized ones (the encoders' pictures and output) come from malloc's
  /// arenas, which keep them after they are freed: a long session's resident memory then grows by tens
  /// of MiB at 1080p (see `BENCHMARKS.md`). With the threshold pinned they go back to the system when
  /// freed. Set this to `false` to leave the allocator as the application configured it; the
  /// environment variable `MALLOC_MMAP_THRESHOLD_`, when set, always wins.
  public static var pinsMmapThreshold: Bool {
    get { AllocatorPolicy.state.withLock { $0.enabled } }
    set { AllocatorPolicy.state.withLock { $0.enabled = newValue } }
  }

  /// Whether the engine gives back to the system the memory that a finished recording or stream, or a
  /// closed camera, left free in malloc's arenas (glibc's `malloc_trim(0)`), on its worker queue once the
  /// branch or pipeline has stopped. `true` unless changed; it can be changed at any time.
  ///
  /// Each thread that mallocs (an encoder's, a muxer's, a microphone's streaming thread) draws from one of
  /// glibc's arenas, up to eight per processor, and an arena keeps what is freed in it for the next
  /// allocation. Over a session of many recordings the threads of their encoders leave several MiB free in
  /// those arenas, counted in the process's resident memory though nothing uses it: 7 to 11 MiB after 20
  /// recordings at 720p or 1080p, against 0 to 4 MiB with the trim (see `BENCHMARKS.md`). The trim runs after
  /// the branch is gone, never on a streaming thread. Set this to `false` when the application manages
  /// its allocator itself.
  public static var releasesFreedMemory: Bool {
    get { AllocatorPolicy.state.withLock { $0.releasesFreedMemory } }
    set { AllocatorPolicy.state.withLock { $0.releasesFreedMemory = newValue } }
  }
}

/// Applies ``HVTCameraRuntime/pinsMmapThreshold`` once per process, and
/// ``HVTCameraRuntime/releasesFreedMemory`` after each teardown.
enum AllocatorPolicy {
  /// glibc's default mmap threshold.
  static let mmapThreshold = 128 * 1024

  struct State {
    var enabled = true
    var applied = false
    var releasesFreedMemory = true
  }

  static let state = Locked(State())

  /// Pins the threshold the first time it is called, if enabled and the environment does not set it.
  static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) {
    let pin = state.withLock { state in
      defer { state.applied = true }
      return state.enabled && !state.applied
    }
    guard pin, environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
    if hvt_malloc_set_mmap_threshold(mmapThreshold) == 1 {
      debugLog.log(.info, "glibc mmap threshold pinned at \(mmapThreshold) bytes")
    } else {
      debugLog.log(.warning, "glibc refused an mmap threshold of \(mmapThreshold) bytes")
    }
  }

  /// Gives the free memory of malloc's arenas back to the system once `what` has stopped, if
  /// ``HVTCameraRuntime/releasesFreedMemory``. Call it on the worker queue: `malloc_trim` holds each
  /// arena's lock while it walks it.
  static func releaseFreedMemory(after what: String) {
    guard state.withLock({ $0.releasesFreedMemory }) else { return }
    let start = ContinuousClock.now
    let released = hvt_malloc_trim() == 1
    let took = start.duration(to: .now).components
    let milliseconds = Double(took.seconds) * 1000 + Double(took.attoseconds) / 1e15
    let outcome = released ? "memory released" : "nothing to release"
    debugLog.log(.debug, "malloc_trim after \(what): \(outcome) in \(String(format: "%.2f", milliseconds)) ms")
  }
}
