import CGStreamer

/// An element's state (`GstState`).
public enum ElementState: Int, Sendable, Hashable, CustomStringConvertible {
  /// `GST_STATE_VOID_PENDING`: no state (used for "nothing pending").
  case voidPending = 0
  /// `GST_STATE_NULL`: resources released.
  case null = 1
  /// `GST_STATE_READY`: resources allocated, no data flowing.
  case ready = 2
  /// `GST_STATE_PAUSED`: prerolled (live sources produce nothing yet).
  case paused = 3
  /// `GST_STATE_PLAYING`: data flows.
  case playing = 4

  init(_ state: GstState) { self = ElementState(rawValue: Int(state.rawValue)) ?? .voidPending }

  var gstState: GstState { GstState(rawValue: UInt32(rawValue)) }

  /// The state's name as GStreamer prints it, e.g. `PLAYING`.
  public var description: String {
    switch self {
    case .voidPending: "VOID_PENDING"
    case .null: "NULL"
    case .ready: "READY"
    case .paused: "PAUSED"
    case .playing: "PLAYING"
    }
  }
}

/// The result of a state change (`GstStateChangeReturn`).
public enum StateChangeResult: Sendable, Hashable {
  /// `GST_STATE_CHANGE_FAILURE`.
  case failure
  /// `GST_STATE_CHANGE_SUCCESS`.
  case success
  /// `GST_STATE_CHANGE_ASYNC`: completes later (a sink prerolls).
  case async
  /// `GST_STATE_CHANGE_NO_PREROLL`: a live source; PAUSED produces no data.
  case noPreroll

  init(_ result: GstStateChangeReturn) {
    switch result {
    case GST_STATE_CHANGE_SUCCESS: self = .success
    case GST_STATE_CHANGE_ASYNC: self = .async
    case GST_STATE_CHANGE_NO_PREROLL: self = .noPreroll
    default: self = .failure
    }
  }
}
