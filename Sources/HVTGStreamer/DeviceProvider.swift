import CGStreamer

/// One device provider, asked once for its devices, on an instance of its own.
public enum DeviceProvider {
  /// How an instance made for one listing is asked for its devices.
  public enum Listing: Sendable {
    /// `gst_device_provider_get_devices` on the instance never started: the provider probes. No
    /// monitoring thread, no device-added messages.
    case probing
    /// `gst_device_provider_start`, then `gst_device_provider_get_devices`, then
    /// `gst_device_provider_stop`: the devices the started provider found, for a provider whose start
    /// returns once it has found them (PipeWire's does) and whose probe cannot be trusted.
    case starting
  }

  /// The devices the provider `name` (e.g. `pipewiredeviceprovider`) offers whose class matches
  /// `deviceClass` (e.g. `"Video/Source"`), with `properties` set on the provider first (e.g. `fd`, the
  /// PipeWire remote to list), asked as `listing` says. Throws `missingElement` when no such provider is
  /// installed, `unknownProperty` or `readOnlyProperty` for a property it lacks, and
  /// `stateChangeFailed` when a provider to be started refuses.
  ///
  /// The listing runs on an instance of its own, made for it and released after, not on the factory's
  /// instance that every `GstDeviceMonitor` of the process shares: that one may be running (PipeWire's
  /// is started once for the process, ``SharedDeviceMonitor``), and a running provider answers with the
  /// devices it follows, not with those of `properties`. Wraps `gst_device_provider_factory_get_by_name`,
  /// `g_object_new_with_properties`, `gst_util_set_object_arg`, `gst_device_provider_start`,
  /// `gst_device_provider_get_devices`, `gst_device_provider_stop` and `gst_device_has_classes`.
  public static func devices(
    _ name: String, properties: KeyValuePairs<String, String> = [:], deviceClass: String,
    listing: Listing = .probing
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
    let provider = object.assumingMemoryBound(to: GstDeviceProvider.self)
    if case .starting = listing {
      guard gst_device_provider_start(provider) != 0 else {
        throw GStreamerError.stateChangeFailed(element: name, target: .playing)
      }
    }
    let devices = Device.adoptingAll(gst_device_provider_get_devices(provider))
    if case .starting = listing { gst_device_provider_stop(provider) }
    return devices.filter { gst_device_has_classes($0.pointer, deviceClass) != 0 }
  }

  /// The cameras (`Video/Source`) of one PipeWire remote, `fd` (such as the Camera portal's
  /// `OpenPipeWireRemote` gives), from GStreamer's PipeWire provider, listed the way that provider's
  /// version gets right:
  ///
  /// - PipeWire 1.4.2 to 1.4.5 hand back, from a probe, devices they have already released: the probe
  ///   sinks each new device's floating reference into its list, and its node's teardown then drops that
  ///   same reference (`g_object_is_floating: assertion 'G_IS_OBJECT (object)' failed` in
  ///   `gst_device_provider_get_devices`; fixed in 1.4.6 by PipeWire commit 269f4243, "take a ref to
  ///   devices"). Their start takes a reference of its own for each device, so a started provider's
  ///   list is sound.
  /// - PipeWire before 0.3.73 (Debian 12's 0.3.65) frees its registry proxy twice in `stop` (see
  ///   ``PipeWireDeviceProvider``), but probes soundly.
  ///
  /// So a provider older than 0.3.73 is probed, and any later one started and stopped.
  public static func pipeWireCameras(fd: Int32) throws(GStreamerError) -> [Device] {
    try devices(
      "pipewiredeviceprovider", properties: ["fd": String(fd)], deviceClass: "Video/Source",
      listing: PipeWireDeviceProvider.stopIsSound ? .starting : .probing)
  }
}
