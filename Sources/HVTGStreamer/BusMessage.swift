import CGStreamer
import HVTGLib

/// A bus message turned into a `Sendable` value on the thread that posted it, so that it can cross to
/// any queue after the `GstMessage` itself is released.
public enum BusMessage: Sendable {
  /// `GST_MESSAGE_ERROR`: an element failed; data flow has usually stopped.
  case error(MessageReport)
  /// `GST_MESSAGE_WARNING`: something went wrong but data still flows.
  case warning(MessageReport)
  /// `GST_MESSAGE_INFO`: an informational note from an element.
  case info(MessageReport)
  /// `GST_MESSAGE_EOS`: every sink of the pipeline has received end-of-stream.
  case endOfStream(source: String)
  /// `GST_MESSAGE_STATE_CHANGED` of one element.
  case stateChanged(source: String, old: ElementState, new: ElementState, pending: ElementState)
  /// `GST_MESSAGE_ELEMENT`: an element-specific message, named by its structure.
  case element(source: String, name: String, structure: String)
  /// Any other message type, by its name (e.g. `"latency"`, `"stream-start"`), with its structure's text.
  case other(type: String, source: String, details: String)

  /// The path of the object that posted the message.
  public var source: String {
    switch self {
    case .error(let report), .warning(let report), .info(let report): report.source
    case .endOfStream(let source), .stateChanged(let source, _, _, _), .element(let source, _, _),
      .other(_, let source, _):
      source
    }
  }

  /// The message's type as GStreamer names it (`error`, `state-changed`, `eos`…).
  public var typeName: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .info: "info"
    case .endOfStream: "eos"
    case .stateChanged: "state-changed"
    case .element: "element"
    case .other(let type, _, _): type
    }
  }

  /// What the message says, in one line: the report's text, the state change, or the structure.
  public var details: String {
    switch self {
    case .error(let report), .warning(let report), .info(let report):
      report.message + (report.debug.map { " (\($0.replacingNewlines()))" } ?? "")
    case .endOfStream: ""
    case .stateChanged(_, let old, let new, let pending):
      "\(old) -> \(new)" + (pending == .voidPending ? "" : " (pending \(pending))")
    case .element(_, _, let structure), .other(_, _, let structure): structure
    }
  }

  /// Reads a message without taking ownership of it. Wraps `gst_message_parse_*`.
  public init(_ message: UnsafeMutablePointer<GstMessage>) {
    let sourceObject = hvt_gst_message_src(message)
    let source = sourceObject.map { String(ownedCString: gst_object_get_path_string($0)) } ?? ""
    let type = hvt_gst_message_type(message)
    switch type {
    case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING, GST_MESSAGE_INFO:
      var error: UnsafeMutablePointer<GError>?
      var debug: UnsafeMutablePointer<gchar>?
      switch type {
      case GST_MESSAGE_ERROR: gst_message_parse_error(message, &error, &debug)
      case GST_MESSAGE_WARNING: gst_message_parse_warning(message, &error, &debug)
      default: gst_message_parse_info(message, &error, &debug)
      }
      let report = GStreamerError.report(from: error, debug: debug, source: source)
      g_clear_error(&error)
      g_free(debug)
      switch type {
      case GST_MESSAGE_ERROR: self = .error(report)
      case GST_MESSAGE_WARNING: self = .warning(report)
      default: self = .info(report)
      }
    case GST_MESSAGE_EOS:
      self = .endOfStream(source: source)
    case GST_MESSAGE_STATE_CHANGED:
      var old = GST_STATE_VOID_PENDING
      var new = GST_STATE_VOID_PENDING
      var pending = GST_STATE_VOID_PENDING
      gst_message_parse_state_changed(message, &old, &new, &pending)
      self = .stateChanged(
        source: source, old: ElementState(old), new: ElementState(new), pending: ElementState(pending))
    case GST_MESSAGE_ELEMENT:
      let structure = gst_message_get_structure(message)
      self = .element(
        source: source,
        name: structure.map { String(cString: gst_structure_get_name($0)) } ?? "",
        structure: structure.map { String(ownedCString: gst_structure_to_string($0)) } ?? "")
    default:
      self = .other(
        type: String(cString: gst_message_type_get_name(type)), source: source,
        details: gst_message_get_structure(message).map { String(ownedCString: gst_structure_to_string($0)) } ?? "")
    }
  }
}

extension String {
  fileprivate func replacingNewlines() -> String {
    String(map { $0 == "\n" ? " " : $0 })
  }
}
