import HVTGStreamer
import HVTSupport

/// How the engine lets go of a bin or pipeline it built: everything in it stopped
/// (``HVTGStreamer/Element/stopCompletely()``), then taken out of its pipeline. One whose elements refuse
/// NULL is named in a warning and kept for the life of the process instead: released in PAUSED, a
/// `queue`'s streaming thread would go on with the queue freed under it.
enum Teardown {
  /// What refused to stop, never released.
  private static let refused = Locked<[Element]>([])

  /// Stops `element` — `what` says what it is, for the warning — and removes it from `pipeline` when
  /// given. Its state is locked first, so that a state change of the pipeline meanwhile (the camera
  /// stopping) cannot take it out of NULL again before it is removed. Returns whether every element in it
  /// reached NULL.
  @discardableResult
  static func stop(_ element: Element, removingFrom pipeline: Bin? = nil, what: String) -> Bool {
    if pipeline != nil { element.setLockedState(true) }
    let running = element.stopCompletely()
    if !running.isEmpty {
      debugLog.log(
        .warning, "\(what) \(element.path) refused to stop; kept, never released: \(running.joined(separator: ", "))")
      refused.withLock { $0.append(element) }
    }
    pipeline?.remove(element)
    return running.isEmpty
  }
}
