import Foundation

/// How far a recording's video has got, which its sound keeps pace with: the one place where a GStreamer
/// streaming thread waits in HVTCamera. The microphone's thread (its bin's queue, which holds 3 s of sound,
/// not the source's: a PulseAudio or ALSA source never loses sound to it) waits here for the camera's
/// frames that lag behind its sound on a loaded machine — sound let through ahead of them could not be
/// taken back if the recording stopped before they came. Each wait is bounded (``startTimeout``,
/// ``paceTimeout``) and ends at once when the video ends or the branch is removed.
///
/// `@unchecked Sendable`: its variables are read and written only with its condition's lock held.
final class VideoPace: @unchecked Sendable {
  /// The longest the sound waits for the movie's first frame to be known, so that the sound from that
  /// frame on is not lost while the video is being linked: 2 s.
  let startTimeout: Double

  /// The longest the sound waits for the video to catch up with one buffer: 0.5 s. With 0.15 s, the sound
  /// of a movie stopped on a loaded machine ran 1.2 s past its picture.
  let paceTimeout: Double

  private let condition = NSCondition()
  /// The movie's first frame is known.
  private var started = false
  /// The running time up to which the video has decided: the end of the last frame that reached the
  /// branch, kept or left out by a pause.
  private var reached: UInt = 0
  /// The video ended, or the branch is being removed: no wait goes on.
  private var finished = false

  /// A recording's video pace, its waits bounded by `startTimeout` and `paceTimeout` seconds.
  init(startTimeout: Double = 2, paceTimeout: Double = 0.5) {
    self.startTimeout = startTimeout
    self.paceTimeout = paceTimeout
  }

  /// The movie's first frame is known.
  func start() {
    change { started = true }
  }

  /// A frame ending at running time `time` reached the branch.
  func reach(_ time: UInt) {
    change { reached = max(reached, time) }
  }

  /// The video ended (or the branch is removed): every wait ends, and none begins.
  func finish() {
    change { finished = true }
  }

  /// Whether the video ended.
  var hasFinished: Bool {
    condition.lock()
    defer { condition.unlock() }
    return finished
  }

  /// Waits (at most ``startTimeout``) until the movie's first frame is known, or the video ended; returns
  /// false when the time ran out first.
  @discardableResult
  func waitForStart() -> Bool {
    wait(seconds: startTimeout) { started }
  }

  /// Waits (at most ``paceTimeout``) until the video has decided up to running time `time`, or ended;
  /// returns false when the time ran out first.
  @discardableResult
  func waitUntilReached(_ time: UInt) -> Bool {
    wait(seconds: paceTimeout) { reached >= time }
  }

  /// Changes the video's progress under the lock, and wakes a waiting thread.
  private func change(_ body: () -> Void) {
    condition.lock()
    body()
    condition.broadcast()
    condition.unlock()
  }

  /// Waits, at most `seconds`, until `done` holds or the video ended; whether one of them came first.
  /// The bound is kept on the monotonic clock: `NSCondition` waits until a wall-clock date, which a clock
  /// being slewed or set reaches early or late.
  private func wait(seconds: Double, until done: () -> Bool) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    // Mostly the video is ahead already: no deadline to compute, once for each buffer of sound.
    guard !finished, !done() else { return true }
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !finished, !done() {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      _ = condition.wait(until: Date(timeIntervalSinceNow: HVTCameraController.seconds(left)))
    }
    return true
  }
}
