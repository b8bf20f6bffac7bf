import HVTGStreamer

/// One element of a pipeline, as data: its factory, name and properties in `gst-launch-1.0` syntax.
///
/// A caps filter is the element `capsfilter` with a `caps` property; `gst-launch-1.0` text renders it as
/// bare caps between two `!`.
public struct HVTElementDescription: Sendable, Hashable {
  /// The element factory, e.g. `"x264enc"`.
  public var factory: String
  /// The element's name in the pipeline, if it needs one (to be found, or for readable graphs).
  public var name: String?
  /// Property settings in order, each as the text after `name=` on a `gst-launch-1.0` line.
  public var properties: [Property]

  /// One property setting.
  public struct Property: Sendable, Hashable {
    /// The property name, e.g. `"speed-preset"`.
    public var name: String
    /// The value as `gst-launch-1.0` would parse it, e.g. `"ultrafast"`.
    public var value: String

    /// Each stored property, as a memberwise initializer takes them.
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Describes an element; properties keep the order written.
  public init(_ factory: String, name: String? = nil, _ properties: KeyValuePairs<String, String> = [:]) {
    self.factory = factory
    self.name = name
    self.properties = properties.map { Property(name: $0.key, value: $0.value) }
  }

  /// A caps filter holding `caps`.
  public static func capsFilter(_ caps: String, name: String? = nil) -> HVTElementDescription {
    HVTElementDescription("capsfilter", name: name, ["caps": caps])
  }

  /// The value of a property, if set.
  public func value(of property: String) -> String? {
    properties.last { $0.name == property }?.value
  }

  /// The element as a person reads it: `pulsesrc device=alsa_input.usb-…` (the values as they are, not
  /// quoted for a shell or `gst-launch-1.0`).
  public var launchText: String {
    ([factory] + properties.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
  }

  /// A copy with one property set (replaced if already present, else appended).
  public func setting(_ property: String, to value: String) -> HVTElementDescription {
    var copy = self
    if let index = copy.properties.lastIndex(where: { $0.name == property }) {
      copy.properties[index].value = value
    } else {
      copy.properties.append(Property(name: property, value: value))
    }
    return copy
  }
}

extension HVTElementDescription {
  /// Whether an element factory of this name is installed. Wraps `gst_element_factory_find`.
  package static func isInstalled(_ factory: String) -> Bool { GStreamer.hasElement(factory) }

  /// Whether the name is a raw video format (`I420`, `YUY2`…). Wraps `gst_video_format_from_string`.
  package static func isRawVideoFormat(_ name: String) -> Bool { GStreamer.isRawVideoFormat(name) }
}
