import CGStreamer
import Foundation
import HVTGLib
import HVTSupport

/// A capture device found by `GstDeviceMonitor`: its name, class, caps and properties.
///
/// `@unchecked Sendable`: a counted reference to a `GstDevice`, whose functions are thread-safe.
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

  /// The devices of a list whose elements each carry a full reference (as `gst_device_monitor_get_devices`
  /// and `gst_device_provider_get_devices` give): the references are taken over and the list is freed.
  static func adoptingAll(_ list: UnsafeMutablePointer<GList>?) -> [Device] {
    var devices: [Device] = []
    var node = list
    while let current = node {
      if let data = current.pointee.data {
        devices.append(Device(adopting: data.assumingMemoryBound(to: GstDevice.self)))
      }
      node = current.pointee.next
    }
    g_list_free(list)
    return devices
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
  public var elementFactoryName: String? { makeElement()?.factoryName }

  /// The source element the provider makes for this device, not started (a floating reference, sunk).
  /// Wraps `gst_device_create_element`.
  public func makeElement() -> Element? {
    gst_device_create_element(pointer, nil).map(Element.init(sinking:))
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
  /// The devices whose class matches `deviceClass` (e.g. `"Video/Source"`) that the providers know now:
  /// the first call starts the class's monitor, which probes them (``SharedDeviceMonitor``); later calls
  /// get the running providers' lists, which follow the devices coming and going. Wraps
  /// `gst_device_monitor_get_devices`.
  public static func devices(ofClass deviceClass: String) -> [Device] {
    SharedDeviceMonitor.monitor(for: deviceClass)?.devices() ?? []
  }
}

/// A device appearing or disappearing, as `GstDeviceMonitor` reports it.
public enum DeviceChange: Sendable {
  /// `GST_MESSAGE_DEVICE_ADDED`.
  case added(Device)
  /// `GST_MESSAGE_DEVICE_REMOVED`.
  case removed(Device)
}

/// Watches for devices of a class coming and going while it lives (hot-plug): a subscription to the
/// class's running monitor (``SharedDeviceMonitor``), whose bus has a sync handler, so no main loop is
/// needed.
public final class DeviceWatcher: Sendable {
  private let monitor: SharedDeviceMonitor
  private let subscription: Int

  /// Starts watching `deviceClass` (e.g. `"Video/Source"`); `handler` runs on a provider's thread for
  /// each change from now on (it may run once more while the watcher is being released). Returns `nil`
  /// when the class's monitor cannot start.
  public init?(deviceClass: String, handler: @escaping @Sendable (DeviceChange) -> Void) {
    guard let monitor = SharedDeviceMonitor.monitor(for: deviceClass) else { return nil }
    self.monitor = monitor
    subscription = monitor.subscribe(handler)
  }

  deinit {
    monitor.unsubscribe(subscription)
  }
}

/// One `GstDeviceMonitor` per device class for the whole process: made, filtered and started the first
/// time the class is listed or watched, and stopped and released only as the process ends
/// (``releaseAll()``). Listings read its providers' lists; watchers subscribe to its bus's sync handler,
/// which hands each change to every subscriber.
///
/// Why not a monitor per listing or watcher, stopped and released after: GStreamer 1.22's monitor
/// connects to each provider (a singleton that outlives it) a `sync-message` handler and
/// `provider-hidden`/`provider-unhidden` handlers with itself as their data, without a reference; its
/// dispose disconnects only the first, and not from a provider's thread that is running it. A provider
/// still running (PipeWire's: ``PipeWireDeviceProvider``) can then call into a freed monitor: `hvtcam
/// record` crashed once in `gst_bus_post` on PipeWire's thread as the camera it recorded went away and
/// its controller released its watcher (its own monitor then). A monitor released only at the end, with
/// those handlers removed first, is never called freed.
///
/// `@unchecked Sendable`: the monitor pointer is only passed to GStreamer's thread-safe functions; the rest is `Locked`.
final class SharedDeviceMonitor: @unchecked Sendable {
  private let monitor: UnsafeMutablePointer<GstDeviceMonitor>
  /// Whether the monitor started; its lock is held while the monitor starts. Not the subscribers' box:
  /// the providers announce the devices they find from their own threads while the start waits for them
  /// (V4L2's with udev), and those announcements read the subscribers, so one lock for both would
  /// deadlock the first listing.
  private let started = Locked(false)
  /// The subscribers, by the number that removes them, and the last number given.
  private let subscribers = Locked((handlers: [Int: @Sendable (DeviceChange) -> Void](), last: 0))

  /// The monitors made so far, by device class.
  private static let registry = Locked<[String: SharedDeviceMonitor]>([:])

  /// The running monitor of `deviceClass`, made and started the first time; `nil` while it cannot start
  /// (no provider of the class starts: tried again at the next call). Wraps `gst_device_monitor_new`,
  /// `gst_device_monitor_add_filter`, `gst_bus_set_sync_handler` and `gst_device_monitor_start`.
  static func monitor(for deviceClass: String) -> SharedDeviceMonitor? {
    GStreamer.initialize()
    PipeWireDeviceProvider.keepRunning()
    let shared: SharedDeviceMonitor? = registry.withLock { registry in
      if let existing = registry[deviceClass] { return existing }
      guard let made = SharedDeviceMonitor(deviceClass: deviceClass) else { return nil }
      registry[deviceClass] = made
      return made
    }
    guard let shared, shared.start() else { return nil }
    return shared
  }

  private init?(deviceClass: String) {
    guard let monitor = gst_device_monitor_new() else { return nil }
    gst_device_monitor_add_filter(monitor, deviceClass, nil)
    // Not released when it fails either: its filter connected it to the providers (see above).
    guard let bus = gst_device_monitor_get_bus(monitor) else { return nil }
    defer { gst_object_unref(bus) }
    self.monitor = monitor
    // The handler's data is this monitor, released when the handler is removed (``releaseAll()``).
    gst_bus_set_sync_handler(
      bus,
      { _, message, data in
        guard let message else { return GST_BUS_DROP }
        if let data { Unmanaged<SharedDeviceMonitor>.fromOpaque(data).takeUnretainedValue().deliver(message) }
        gst_message_unref(message)
        return GST_BUS_DROP
      },
      Unmanaged.passRetained(self).toOpaque(),
      { data in if let data { Unmanaged<SharedDeviceMonitor>.fromOpaque(data).release() } })
  }

  /// Stops and releases every class's monitor, at the end of the process (``GStreamer/deinitialize()``,
  /// before `gst_deinit`), so that the leaks tracer finds none alive; no device can be listed or watched
  /// afterwards. First the handlers GStreamer 1.22's monitor would leave on its providers are removed
  /// (those whose data is the monitor; the monitor's dispose removes its bus's own), so that no provider
  /// still running (PipeWire's, see ``PipeWireDeviceProvider``) calls into it once released. Wraps
  /// `gst_device_monitor_get_providers`, `g_signal_handlers_disconnect_matched`,
  /// `gst_device_monitor_stop` and `gst_object_unref`.
  static func releaseAll() {
    let monitors = registry.withLock { registry in
      defer { registry = [:] }
      return Array(registry.values)
    }
    for shared in monitors { shared.release() }
  }

  /// See ``releaseAll()``.
  private func release() {
    if let names = gst_device_monitor_get_providers(monitor) {
      var index = 0
      while let name = names[index] {
        if let provider = gst_device_provider_factory_get_by_name(name) {
          g_signal_handlers_disconnect_matched(provider, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, monitor)
          gst_object_unref(provider)
        }
        index += 1
      }
      g_strfreev(names)
    }
    started.withLock { started in
      if started { gst_device_monitor_stop(monitor) }
      started = false
    }
    if let bus = gst_device_monitor_get_bus(monitor) {
      gst_bus_set_sync_handler(bus, nil, nil, nil)
      gst_object_unref(bus)
    }
    gst_object_unref(monitor)
  }

  /// Starts the monitor unless it runs; whether it runs. The first start blocks while the providers
  /// probe; the lock of `started` keeps a second caller waiting for that probe instead of reading half a
  /// list.
  private func start() -> Bool {
    started.withLock { started in
      if !started { started = gst_device_monitor_start(monitor) != 0 }
      return started
    }
  }

  /// The devices the providers know now. Wraps `gst_device_monitor_get_devices`.
  func devices() -> [Device] {
    Device.adoptingAll(gst_device_monitor_get_devices(monitor))
  }

  /// Adds `handler` to those each change is handed to; the number to remove it with.
  func subscribe(_ handler: @escaping @Sendable (DeviceChange) -> Void) -> Int {
    subscribers.withLock { subscribers in
      subscribers.last += 1
      subscribers.handlers[subscribers.last] = handler
      return subscribers.last
    }
  }

  /// Removes the handler `subscription` names.
  func unsubscribe(_ subscription: Int) {
    _ = subscribers.withLock { $0.handlers.removeValue(forKey: subscription) }
  }

  /// Hands a device message to every subscriber (on the provider's thread that posted it).
  private func deliver(_ message: UnsafeMutablePointer<GstMessage>) {
    let type = hvt_gst_message_type(message)
    guard type == GST_MESSAGE_DEVICE_ADDED || type == GST_MESSAGE_DEVICE_REMOVED else { return }
    let handlers = subscribers.withLock { Array($0.handlers.values) }
    for handler in handlers {
      // A reference of each change's own (transfer full), so that each subscriber's device is its own.
      var device: UnsafeMutablePointer<GstDevice>?
      if type == GST_MESSAGE_DEVICE_ADDED {
        gst_message_parse_device_added(message, &device)
      } else {
        gst_message_parse_device_removed(message, &device)
      }
      guard let device else { continue }
      let owned = Device(adopting: device)
      handler(type == GST_MESSAGE_DEVICE_ADDED ? .added(owned) : .removed(owned))
    }
  }
}

/// GStreamer's PipeWire device provider, started once for the process and never stopped, so that
/// monitors (``SharedDeviceMonitor``'s, never stopped either, and any other of the process) only count its
/// users up and down and its own `stop` never runs.
///
/// Its `stop` is broken in PipeWire 0.3.65 (Debian 12's `gstreamer1.0-pipewire`): it destroys its
/// registry proxy without holding the PipeWire thread loop's lock, while the loop's thread handles the
/// server's answer to that destruction, so both threads drop the proxy's last reference and free it —
/// glibc then aborts the process as the loop's thread ends ("tcache_thread_shutdown(): unaligned tcache
/// chunk detected"; "double free or corruption (fasttop)" inside `gst_device_provider_stop` with
/// `GLIBC_TUNABLES=glibc.malloc.tcache_count=0`). `gst-device-monitor-1.0 Video/Source` crashes the same
/// way; PipeWire fixed it in 0.3.73 (commit b0a7e4a2, "gst: lock/unlock around proxy destroy"). The same
/// `stop` also leaves its node proxies and its core listener on the PipeWire connection, which every
/// `pipewiresrc` of the process shares: a node going later removes a device already freed, and a second
/// `start` adds the listener to the list it is still in (fixed upstream in 1.5.85 and after it). A
/// provider that runs until the process exits never gets there; its devices come and go with PipeWire's
/// nodes meanwhile (``DeviceWatcher`` hears them).
///
/// A PipeWire that starts after the first listing of the process is not seen by it (0.3.65's provider
/// connects once, when it starts, and reports success when it cannot connect).
enum PipeWireDeviceProvider {
  /// Whether the provider was found and started. The provider is a singleton its factory keeps, so the
  /// reference taken here is dropped: the start count, not a reference, keeps it running. Wraps
  /// `gst_device_provider_factory_get_by_name` and `gst_device_provider_start`.
  static let isRunning: Bool = {
    GStreamer.initialize()
    guard let provider = gst_device_provider_factory_get_by_name("pipewiredeviceprovider") else { return false }
    defer { gst_object_unref(provider) }
    return gst_device_provider_start(provider) != 0
  }()

  /// Starts the provider the first time it is called, at once afterwards.
  static func keepRunning() { _ = isRunning }

  /// Whether the installed provider's `stop` is sound: PipeWire 0.3.73 and later (see above; the
  /// plugin's version is PipeWire's).
  static var stopIsSound: Bool {
    (GStreamer.pluginVersion("pipewire") ?? [0]).lexicographicallyPrecedes([0, 3, 73]) == false
  }
}
