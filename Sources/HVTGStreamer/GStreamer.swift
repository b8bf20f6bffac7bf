import CGStreamer
import Synchronization

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
  /// Call it only at the very end of a process: afterwards no element can be made. Wraps `gst_deinit`.
  public static func deinitialize() {
    gst_deinit()
  }

  /// The version of the GStreamer library in use, e.g. `"GStreamer 1.22.0"`. Wraps `gst_version_string`.
  public static var versionString: String {
    initialize()
    return String(ownedCString: gst_version_string())
  }

  /// Whether an element factory of this name is registered (its plugin is installed).
  /// Wraps `gst_element_factory_find`.
  public static func hasElement(_ factory: String) -> Bool {
    initialize()
    guard let found = gst_element_factory_find(factory) else { return false }
    gst_object_unref(UnsafeMutableRawPointer(found))
    return true
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

extension String {
  /// Takes a newly allocated C string (transfer full), copies it and frees it with `g_free`.
  init(ownedCString pointer: UnsafeMutablePointer<gchar>?) {
    guard let pointer else {
      self = ""
      return
    }
    self = String(cString: pointer)
    g_free(pointer)
  }
}
