import CGStreamer

/// What GStreamer said in an error, warning or info message: the `GError` and the debug string.
public struct MessageReport: Sendable, Hashable, CustomStringConvertible {
  /// The `GError` domain, e.g. `"gst-resource-error-quark"` (from `g_quark_to_string`).
  public var domain: String
  /// The `GError` code within its domain (e.g. `GST_RESOURCE_ERROR_OPEN_WRITE`).
  public var code: Int
  /// GStreamer's human-readable message.
  public var message: String
  /// GStreamer's debug string: source file, function and details, when the element gave one.
  public var debug: String?
  /// The object path of the element that posted it, e.g. `/GstPipeline:camera/GstFileSink:sink`.
  public var source: String

  /// Creates a report from its parts.
  public init(domain: String, code: Int, message: String, debug: String?, source: String) {
    self.domain = domain
    self.code = code
    self.message = message
    self.debug = debug
    self.source = source
  }

  /// `message (source)` followed by the debug string on its own line when there is one.
  public var description: String {
    var text = "\(message) (\(source))"
    if let debug, !debug.isEmpty { text += "\n\(debug)" }
    return text
  }
}

/// A failure from GStreamer or from using it: every C error passes through here on its way to Swift.
public enum GStreamerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// An element posted an error message on the bus (or a call returned a `GError`).
  case reported(MessageReport)
  /// No element factory of this name is installed.
  case missingElement(factory: String, suggestion: String?)
  /// The element has no property of this name.
  case unknownProperty(element: String, property: String, suggestion: String?)
  /// The property exists but is read-only.
  case readOnlyProperty(element: String, property: String)
  /// The element rejected the value: it does not parse as the property's type or is out of range.
  case invalidPropertyValue(element: String, property: String, value: String, expected: String)
  /// The text is not valid caps syntax.
  case invalidCaps(String)
  /// Two elements or pads could not be linked.
  case linkFailed(from: String, to: String)
  /// An element has no pad of this name (or template) where one was expected.
  case missingPad(element: String, pad: String)
  /// An element or pipeline refused a state change.
  case stateChangeFailed(element: String, target: ElementState)
  /// Something did not happen within the time allowed.
  case timedOut(String)
  /// The element has no signal of this name (or not one that can be emitted without arguments).
  case unknownSignal(element: String, signal: String)
  /// `GstDiscoverer` cannot read the file as media: why.
  case unreadableMedia(path: String, reason: String)

  /// What failed, with the names involved and, where one exists, the nearest valid name.
  public var description: String {
    switch self {
    case .reported(let report):
      return report.description
    case .missingElement(let factory, let suggestion):
      return "no element '\(factory)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        + " (is its GStreamer plugin installed? see gst-inspect-1.0)"
    case .unknownProperty(let element, let property, let suggestion):
      return "element '\(element)' has no property '\(property)'"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .readOnlyProperty(let element, let property):
      return "property '\(property)' of element '\(element)' is read-only"
    case .invalidPropertyValue(let element, let property, let value, let expected):
      return "element '\(element)' rejects \(property)=\(value): expected \(expected)"
    case .invalidCaps(let text):
      return "invalid caps '\(text)'"
    case .linkFailed(let from, let to):
      return "cannot link '\(from)' to '\(to)': their caps do not intersect or a pad is missing"
    case .missingPad(let element, let pad):
      return "'\(element)' has no pad '\(pad)'"
    case .stateChangeFailed(let element, let target):
      return "'\(element)' failed to change state to \(target)"
    case .timedOut(let what):
      return "timed out: \(what)"
    case .unknownSignal(let element, let signal):
      return "element '\(element)' has no action signal '\(signal)'"
    case .unreadableMedia(let path, let reason):
      return "GStreamer cannot read \(path) as media: \(reason)"
    }
  }

  /// Builds a `.reported` error from a `GError` and debug string, freeing neither.
  static func report(
    from error: UnsafeMutablePointer<GError>?, debug: UnsafeMutablePointer<gchar>?, source: String
  ) -> MessageReport {
    MessageReport(
      domain: error.map { String(cString: g_quark_to_string($0.pointee.domain)) } ?? "",
      code: Int(error?.pointee.code ?? 0),
      message: error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error",
      debug: debug.map { String(cString: $0) },
      source: source)
  }
}
