/// Frames reaching a preview sink over a window of wall time: how many arrived, and the longest wait
/// between two (or from the window's start to the first). Fed by a pad probe or a frames handler, on
/// whatever thread delivers them; read once the window ends.
struct FrameArrivals: Sendable {
  /// Frames that arrived in the window.
  private(set) var frames = 0
  /// The longest time without a frame in the window.
  private(set) var longestGap = Duration.zero
  /// The newest arrival (or the window's start), while counting.
  private var latest: Instant?

  /// Starts the window at `now`, forgetting what came before.
  mutating func begin(at now: Instant) {
    (frames, longestGap, latest) = (0, .zero, now)
  }

  /// A frame (or `count` frames, seen together by a poll) arrived at `now`; ignored outside the window.
  mutating func note(_ now: Instant, count: Int = 1) {
    guard let latest, count > 0 else { return }
    frames += count
    longestGap = max(longestGap, latest.duration(to: now))
    self.latest = now
  }

  /// Ends the window at `now`: the wait since the last frame counts as a gap too.
  mutating func end(at now: Instant) {
    if let latest { longestGap = max(longestGap, latest.duration(to: now)) }
    latest = nil
  }
}
