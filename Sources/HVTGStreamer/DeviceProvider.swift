import CGStreamer
import Synchronization

/// One device provider, asked once for its devices (probed, never started: no monitoring thread, no
/// device-added messages).
public enum DeviceProvider {
  /// Providers are one instance per factory in a process, shared with every `GstDeviceMonitor`: a probe
  /// with properties of its own holds this lock from setting them until they are back to their defaults.
  private static let probing = Mutex(())

  /// The devices the provider `name` (e.g. `pipewiredeviceprovider`) offers whose class matches
  /// `deviceClass` (e.g. `"Video/Source"`), with `properties` set on the provider for the probe (e.g.
  /// `fd`, the PipeWire remote to list) and reset to their defaults afterwards. Throws `missingElement`
  /// when no such provider is installed and `unknownProperty` or `readOnlyProperty` for a property it
  /// lacks. Wraps `gst_device_provider_factory_get_by_name`, `g_object_class_find_property`,
  /// `gst_util_set_object_arg`, `gst_device_provider_get_devices` and `gst_device_has_classes`.
  public static func probe(
    _ name: String, properties: KeyValuePairs<String, String> = [:], deviceClass: String
  ) throws(GStreamerError) -> [Device] {
    GStreamer.initialize()
    guard let provider = gst_device_provider_factory_get_by_name(name) else {
      throw GStreamerError.missingElement(factory: name, suggestion: nil)
    }
    defer { gst_object_unref(provider) }
    let object = UnsafeMutableRawPointer(provider)
    return try probing.withLock { _ throws(GStreamerError) in
      var specs: [UnsafeMutablePointer<GParamSpec>] = []
      defer {
        for spec in specs {
          g_object_set_property(
            object.assumingMemoryBound(to: GObject.self), g_param_spec_get_name(spec),
            g_param_spec_get_default_value(spec))
        }
      }
      for (property, value) in properties {
        guard let spec = hvt_g_object_find_property(object, property) else {
          throw GStreamerError.unknownProperty(element: name, property: property, suggestion: nil)
        }
        guard hvt_g_param_spec_is_writable(spec) != 0 else {
          throw GStreamerError.readOnlyProperty(element: name, property: property)
        }
        specs.append(spec)
        gst_util_set_object_arg(object.assumingMemoryBound(to: GObject.self), property, value)
      }
      var devices: [Device] = []
      let list = gst_device_provider_get_devices(provider)
      var node = list
      while let current = node {
        if let data = current.pointee.data {
          let device = data.assumingMemoryBound(to: GstDevice.self)
          if gst_device_has_classes(device, deviceClass) != 0 { devices.append(Device(retaining: device)) }
        }
        node = current.pointee.next
      }
      g_list_free_full(list) { gst_object_unref($0) }
      return devices
    }
  }
}
