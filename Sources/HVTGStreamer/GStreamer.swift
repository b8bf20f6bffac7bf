import CGStreamer
import HVTGLib

/// Process-wide GStreamer set-up: initialisation, version, and plugin registry queries.
public enum GStreamer {
  private static let initialized: Void = {
    gst_init(nil, nil)
  }()

  /// Initialises GStreamer once per process; later calls do nothing. Wraps `gst_init`.
  public static func initialize() {
    _ = initialized
  }

  /// Releases GStreamer's global state so that `GST_TRACERS=leaks` can report at exit.
  ///
  /// Call it only at the very end of a process: afterwards no element can be made and no device listed.
  /// Releases the process's device monitors first (``SharedDeviceMonitor/releaseAll()``). Wraps
  /// `gst_deinit`.
  public static func deinitialize() {
    SharedDeviceMonitor.releaseAll()
    gst_deinit()
  }

  /// The version of the GStreamer library in use, e.g. `"GStreamer 1.22.0"`. Wraps `gst_version_string`.
  public static var versionString: String {
    initialize()
    return String(ownedCString: gst_version_string())
  }

  /// Whether the GStreamer library in use is version `major`.`minor` or later. Wraps `gst_version`.
  public static func isAtLeast(_ major: UInt32, _ minor: UInt32) -> Bool {
    var (libraryMajor, libraryMinor, micro, nano): (guint, guint, guint, guint) = (0, 0, 0, 0)
    gst_version(&libraryMajor, &libraryMinor, &micro, &nano)
    return (libraryMajor, libraryMinor) >= (major, minor)
  }

  /// The version of an installed plugin, as its numbers (`[1, 4, 2]` for PipeWire's `pipewire` plugin of
  /// PipeWire 1.4.2, which carries PipeWire's own version), or `nil` when no such plugin is registered.
  /// Wraps `gst_registry_find_plugin` and `gst_plugin_get_version`.
  public static func pluginVersion(_ name: String) -> [Int]? {
    initialize()
    guard let plugin = gst_registry_find_plugin(gst_registry_get(), name) else { return nil }
    defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
    guard let version = gst_plugin_get_version(plugin) else { return nil }
    return String(cString: version).split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
  }

  /// Whether an element factory of this name is registered (its plugin is installed).
  /// Wraps `gst_element_factory_find`.
  public static func hasElement(_ factory: String) -> Bool {
    initialize()
    guard let found = gst_element_factory_find(factory) else { return false }
    gst_object_unref(UnsafeMutableRawPointer(found))
    return true
  }

  /// Whether `name` is a raw video format GStreamer knows (`I420`, `YUY2`, `BGRx`…).
  /// Wraps `gst_video_format_from_string`.
  public static func isRawVideoFormat(_ name: String) -> Bool {
    initialize()
    return gst_video_format_from_string(name) != GST_VIDEO_FORMAT_UNKNOWN
  }

  /// The caps of an element factory's always-present pads in one direction (`sink` or `src`), merged;
  /// `nil` when the factory does not exist. Wraps `gst_element_factory_get_static_pad_templates`.
  public static func padTemplateCaps(of factory: String, direction: PadDirection) -> Caps? {
    initialize()
    guard let found = gst_element_factory_find(factory) else { return nil }
    defer { gst_object_unref(UnsafeMutableRawPointer(found)) }
    let merged = gst_caps_new_empty()!
    var node: UnsafePointer<GList>? = gst_element_factory_get_static_pad_templates(found)
    while let current = node {
      if let template = current.pointee.data?.assumingMemoryBound(to: GstStaticPadTemplate.self),
        template.pointee.direction == direction.gstValue,
        let caps = gst_static_caps_get(&template.pointee.static_caps)
      {
        gst_caps_append(merged, caps)
      }
      node = UnsafePointer(current.pointee.next)
    }
    return Caps(adopting: merged)
  }

  /// The names of every registered element factory, sorted. Wraps `gst_element_factory_list_get_elements`.
  public static func elementFactoryNames() -> [String] {
    initialize()
    let list = gst_element_factory_list_get_elements(hvt_gst_element_factory_type_any(), GST_RANK_NONE)
    defer { gst_plugin_feature_list_free(list) }
    var names: [String] = []
    var node = list
    while let current = node {
      if let feature = current.pointee.data {
        names.append(String(ownedCString: gst_object_get_name(hvt_gst_object_cast(feature))))
      }
      node = current.pointee.next
    }
    return names.sorted()
  }
}

/// Which way data flows through a pad (`GstPadDirection`).
public enum PadDirection: Sendable {
  /// `GST_PAD_SRC`: data comes out.
  case source
  /// `GST_PAD_SINK`: data goes in.
  case sink

  var gstValue: GstPadDirection { self == .source ? GST_PAD_SRC : GST_PAD_SINK }
}
