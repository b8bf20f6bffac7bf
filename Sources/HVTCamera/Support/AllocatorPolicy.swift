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
}

/// Applies ``HVTCameraRuntime/pinsMmapThreshold`` once per process.
enum AllocatorPolicy {
  /// glibc's default mmap threshold.
  static let mmapThreshold = 128 * 1024

  struct State {
    var enabled = true
    var applied = false
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
}
