import HVTGStreamer
import HVTSupport

/// What a stream branch lets into its queue, so that what reaches the network always decodes: nothing
/// before the first key frame, and, once the queue was full and left a frame out (the network fell
/// behind), nothing up to the next key frame, since every frame until then refers to the one left out.
///
/// The branch's queue leaks at its entry (`queue leaky=upstream`): the frames it holds stay whole, and
/// the one it leaves out is the newest, which this entry sees (the queue's `overrun` signal comes just
/// before). A queue leaking at its other end would drop the oldest frame it holds, perhaps the key frame
/// every frame behind it refers to. No key frame is asked for after a loss: while the network stays
/// behind, each would be left out in turn, and the encoder would make nothing but key frames. The
/// encoder's own interval bounds the wait (the preset's `key-int-max`: a second by default).
///
/// A value type, its methods pure: the branch's streaming thread runs them under a lock.
struct StreamEntry: Sendable, Equatable {
  /// Whether frames are kept out until a key frame comes.
  private(set) var waitsForKeyFrame = true
  /// Whether a key frame came in since the branch started.
  private(set) var started = false
  /// Frames left out since the first key frame: by the queue, and here up to the next key frame.
  private(set) var framesLeftOut = 0
  /// The times the network fell behind: a frame left out while frames flowed.
  private(set) var losses = 0
  /// Whether the network is behind: from a frame left out until a frame after it was admitted and kept.
  private var behind = false
  /// Whether the queue left out a frame since the last one admitted.
  private var overranSinceAdmitted = false

  /// Whether a frame (a key frame, or one that refers to others) goes into the queue.
  mutating func admits(keyFrame: Bool) -> Bool {
    if waitsForKeyFrame && !keyFrame {
      if started { framesLeftOut += 1 }
      return false
    }
    // The frame admitted before this one was kept: the network caught up.
    if !overranSinceAdmitted { behind = false }
    (waitsForKeyFrame, started, overranSinceAdmitted) = (false, true, false)
    return true
  }

  /// The queue was full and left out the frame just admitted. Returns whether this began a loss (the
  /// network had caught up until now), which the branch reports.
  mutating func queueOverran() -> Bool {
    framesLeftOut += 1
    (waitsForKeyFrame, overranSinceAdmitted) = (true, true)
    guard !behind else { return false }
    behind = true
    losses += 1
    return true
  }
}

extension StreamEntry {
  /// Keeps `pad`'s frames (the entry of a branch whose first element is `queue`) decodable, as the type
  /// says: a buffer probe on `pad` and a handler of `queue`'s `overrun` signal. Nothing passes once
  /// `isClosed` is true. `onLoss` runs on the streaming thread each time the network falls behind, with
  /// the frames left out so far.
  static func guardDecodable(
    _ pad: Pad, queue: Element, isClosed: @escaping @Sendable () -> Bool,
    onLoss: @escaping @Sendable (_ framesLeftOut: Int) -> Void
  ) {
    let entry = Locked(StreamEntry())
    queue.onSignal("overrun") {
      let (began, framesLeftOut) = entry.withLock { ($0.queueOverran(), $0.framesLeftOut) }
      if began { onLoss(framesLeftOut) }
    }
    pad.addProbe(.buffer) { _, info in
      guard !isClosed(), let buffer = info.buffer else { return .drop }
      return entry.withLock { $0.admits(keyFrame: !buffer.isDeltaUnit) } ? .ok : .drop
    }
  }
}
