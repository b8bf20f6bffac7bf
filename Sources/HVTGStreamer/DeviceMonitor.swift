import CGStreamer

/// A capture device found by `GstDeviceMonitor`: its name, class, caps and properties.
public final class Device: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<GstDevice>

  init(retaining pointer: UnsafeMutablePointer<GstDevice>) {
    gst_object_ref(pointer)
    self.pointer = pointer
  }

  /// Takes over a full reference (as `gst_message_parse_device_added` gives).
  init(adopting pointer: UnsafeMutablePointer<GstDevice>) {
    self.pointer = pointer
  }

  deinit {
    gst_object_unref(pointer)
  }

  /// The human-readable name, e.g. `"Integrated Camera: Integrated C"`. Wraps `gst_device_get_display_name`.
  public var displayName: String { String(ownedCString: gst_device_get_display_name(pointer)) }

  /// The device class, e.g. `"Video/Source"`. Wraps `gst_device_get_device_class`.
  public var deviceClass: String { String(ownedCString: gst_device_get_device_class(pointer)) }

  /// The GObject type of the device, which names the provider that found it: `GstV4l2Device`,
  /// `GstPipeWireDevice`, `GstLibcameraDevice`… Wraps `G_OBJECT_TYPE_NAME`.
  public var typeName: String { String(cString: hvt_g_object_type_name(pointer)) }

  /// The factory of the source element the provider makes for this device (`v4l2src`, `pipewiresrc`,
  /// `libcamerasrc`…), or `nil` when it makes none. Wraps `gst_device_create_element` and
  /// `gst_element_get_factory` and `gst_object_get_name`; the element is only made, never started.
  public var elementFactoryName: String? {
    guard let element = gst_device_create_element(pointer, nil) else { return nil }
    gst_object_ref_sink(UnsafeMutableRawPointer(element))
    defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
    guard let factory = gst_element_get_factory(element) else { return nil }
    return String(ownedCString: gst_object_get_name(hvt_gst_object_cast(UnsafeMutableRawPointer(factory))))
  }

  /// The formats the device offers. Wraps `gst_device_get_caps`.
  public var caps: Caps? { gst_device_get_caps(pointer).map(Caps.init(adopting:)) }

  /// The provider's properties (e.g. `device.path`, `api.v4l2.cap.driver`), each serialized as text.
  /// Wraps `gst_device_get_properties`.
  public var properties: [String: String] {
    guard let structure = gst_device_get_properties(pointer) else { return [:] }
    defer { gst_structure_free(structure) }
    var result: [String: String] = [:]
    for index in 0..<gst_structure_n_fields(structure) {
      guard let name = gst_structure_nth_field_name(structure, guint(index)) else { continue }
      let key = String(cString: name)
      if let value = gst_structure_get_value(structure, name) {
        result[key] =
          hvt_g_value_type(value) == hvt_g_type_string()
          ? g_value_get_string(value).map { String(cString: $0) } ?? ""
          : String(ownedCString: gst_value_serialize(value))
      }
    }
    return result
  }
}

/// Lists devices of a class through `GstDeviceMonitor` (V4L2, libcamera and PipeWire providers).
public enum DeviceMonitor {
  /// The devices whose class matches `deviceClass` (e.g. `"Video/Source"`), probed once. Wraps
  /// `gst_device_monitor_add_filter`, `gst_device_monitor_start` and `gst_device_monitor_get_devices`.
  public static func devices(ofClass deviceClass: String) -> [Device] {
    GStreamer.initialize()
    guard let monitor = gst_device_monitor_new() else { return [] }
    defer { gst_object_unref(monitor) }
    gst_device_monitor_add_filter(monitor, deviceClass, nil)
    guard gst_device_monitor_start(monitor) != 0 else { return [] }
    defer { gst_device_monitor_stop(monitor) }
    var devices: [Device] = []
    var node = gst_device_monitor_get_devices(monitor)
    let list = node
    while let current = node {
      if let data = current.pointee.data {
        devices.append(Device(retaining: data.assumingMemoryBound(to: GstDevice.self)))
      }
      node = current.pointee.next
    }
    g_list_free_full(list) { gst_object_unref($0) }
    return devices
  }
}

/// A device appearing or disappearing, as `GstDeviceMonitor` reports it.
public enum DeviceChange: Sendable {
  /// `GST_MESSAGE_DEVICE_ADDED`.
  case added(Device)
  /// `GST_MESSAGE_DEVICE_REMOVED`.
  case removed(Device)
}

/// Watches for devices of a class coming and going while it lives (hot-plug). Wraps a running
/// `GstDeviceMonitor` whose bus has a sync handler, so no main loop is needed.
public final class DeviceWatcher: @unchecked Sendable {
  private let monitor: UnsafeMutablePointer<GstDeviceMonitor>
  private let bus: UnsafeMutablePointer<GstBus>

  /// Starts watching `deviceClass` (e.g. `"Video/Source"`); `handler` runs on GStreamer's thread for each
  /// change after the devices already present. Returns `nil` when the monitor cannot start. Wraps
  /// `gst_device_monitor_start` and `gst_bus_set_sync_handler`.
  public init?(deviceClass: String, handler: @escaping @Sendable (DeviceChange) -> Void) {
    GStreamer.initialize()
    guard let monitor = gst_device_monitor_new() else { return nil }
    gst_device_monitor_add_filter(monitor, deviceClass, nil)
    guard let bus = gst_device_monitor_get_bus(monitor) else {
      gst_object_unref(monitor)
      return nil
    }
    self.monitor = monitor
    self.bus = bus
    let context = CallbackContext.retained(handler)
    gst_bus_set_sync_handler(
      bus,
      { _, message, data in
        guard let message else { return GST_BUS_DROP }
        var device: UnsafeMutablePointer<GstDevice>?
        switch hvt_gst_message_type(message) {
        case GST_MESSAGE_DEVICE_ADDED: gst_message_parse_device_added(message, &device)
        case GST_MESSAGE_DEVICE_REMOVED: gst_message_parse_device_removed(message, &device)
        default: break
        }
        if let device, let data {
          let owned = Device(adopting: device)
          let change: DeviceChange =
            hvt_gst_message_type(message) == GST_MESSAGE_DEVICE_ADDED ? .added(owned) : .removed(owned)
          CallbackContext<@Sendable (DeviceChange) -> Void>.callback(from: data)(change)
        }
        gst_message_unref(message)
        return GST_BUS_DROP
      },
      context,
      { data in CallbackContext<@Sendable (DeviceChange) -> Void>.release(data) })
    guard gst_device_monitor_start(monitor) != 0 else {
      gst_bus_set_sync_handler(bus, nil, nil, nil)
      gst_object_unref(bus)
      gst_object_unref(monitor)
      return nil
    }
  }

  deinit {
    gst_device_monitor_stop(monitor)
    gst_bus_set_sync_handler(bus, nil, nil, nil)
    gst_object_unref(bus)
    gst_object_unref(monitor)
  }
}
