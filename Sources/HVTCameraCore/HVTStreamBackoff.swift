/// How a push stream (``HVTStreamTarget/reconnects``) waits before each new try to reach its server:
/// exponential back-off, capped, with jitter. The delay doubles with each try that fails, from
/// ``initialDelay`` up to ``maximumDelay``, and a random part of up to half of it is taken off, so that
/// the cameras that lost one server do not all call it again at the same moment.
public struct HVTStreamBackoff: Sendable, Hashable {
  /// The longest wait before the first new try, in seconds.
  public var initialDelay: Double
  /// The longest wait before any try, in seconds.
  public var maximumDelay: Double

  /// The engine's: at most 1 s before the first new try, then 2, 4, 8, 16, and 30 s from the sixth on.
  public static let standard = HVTStreamBackoff(initialDelay: 1, maximumDelay: 30)

  /// A back-off from `initialDelay` doubling up to `maximumDelay` seconds.
  public init(initialDelay: Double, maximumDelay: Double) {
    self.initialDelay = initialDelay
    self.maximumDelay = maximumDelay
  }

  /// The seconds to wait before try `attempt` (1 for the first new try): the capped delay
  /// `min(maximumDelay, initialDelay × 2^(attempt − 1))`, less `jitter` (from 0 up to, not including, 1)
  /// times half of it ("equal jitter"): between half of it and all of it.
  public func delay(beforeAttempt attempt: Int, jitter: Double) -> Double {
    let doubled = Double(sign: .plus, exponent: max(0, min(attempt - 1, 62)), significand: 1)
    let capped = min(maximumDelay, initialDelay * doubled)
    return capped - capped / 2 * min(max(jitter, 0), 1)
  }
}

/// A push stream's next try to reach its server (``HVTCameraEvent/streamDisconnected(_:reason:retry:)``).
public struct HVTStreamRetry: Sendable, Hashable {
  /// Which try it is since the stream last ran: 1 for the first.
  public var attempt: Int
  /// The seconds until it is made (``HVTStreamBackoff``).
  public var delay: Double

  /// Try `attempt`, in `delay` seconds.
  public init(attempt: Int, delay: Double) {
    self.attempt = attempt
    self.delay = delay
  }
}
