import CGStreamer

/// One device provider, asked once for its devices (probed, never started: no monitoring thread, no
/// device-added messages).
public enum DeviceProvider {
  /// The devices the provider `name` (e.g. `pipewiredeviceprovider`) offers whose class matches
  /// `deviceClass` (e.g. `"Video/Source"`), with `properties` set on the provider for the probe (e.g.
  /// `fd`, the PipeWire remote to list). Throws `missingElement` when no such provider is installed and
  /// `unknownProperty` or `readOnlyProperty` for a property it lacks.
  ///
  /// The probe runs on an instance of its own, made for it and released after, not on the factory's
  /// instance that every `GstDeviceMonitor` of the process shares: that one may be running (PipeWire's
  /// is started once for the process, ``SharedDeviceMonitor``), and a running provider answers with the
  /// devices it follows, not with a probe of `properties`. Wraps `gst_device_provider_factory_get_by_name`,
  /// `g_object_new_with_properties`, `gst_util_set_object_arg`, `gst_device_provider_get_devices` and
  /// `gst_device_has_classes`.
  public static func probe(
    _ name: String, properties: KeyValuePairs<String, String> = [:], deviceClass: String
  ) throws(GStreamerError) -> [Device] {
    GStreamer.initialize()
    guard let shared = gst_device_provider_factory_get_by_name(name) else {
      throw GStreamerError.missingElement(factory: name, suggestion: nil)
    }
    let type = hvt_g_object_type(shared)
    gst_object_unref(shared)
    guard let made = g_object_new_with_properties(type, 0, nil, nil) else {
      throw GStreamerError.missingElement(factory: name, suggestion: nil)
    }
    let object = UnsafeMutableRawPointer(made)
    // A new GstObject is floating: sunk here, so that this function holds the one reference.
    gst_object_ref_sink(object)
    defer { gst_object_unref(object) }
    for (property, value) in properties {
      guard let spec = hvt_g_object_find_property(object, property) else {
        throw GStreamerError.unknownProperty(element: name, property: property, suggestion: nil)
      }
      guard hvt_g_param_spec_is_writable(spec) != 0 else {
        throw GStreamerError.readOnlyProperty(element: name, property: property)
      }
      gst_util_set_object_arg(object.assumingMemoryBound(to: GObject.self), property, value)
    }
    return Device.adoptingAll(gst_device_provider_get_devices(object.assumingMemoryBound(to: GstDeviceProvider.self)))
      .filter { gst_device_has_classes($0.pointer, deviceClass) != 0 }
  }
}
