/// A weak reference that can cross threads, for callbacks that must not keep their target alive.
final class WeakReference<Target: AnyObject & Sendable>: Sendable {
  nonisolated(unsafe) private(set) weak var target: Target?

  init(_ target: Target) {
    self.target = target
  }
}
