import Foundation
import HVTGStreamer

extension HVTCameraDeviceInfo {
  /// Every camera, as `hvtcam devices` lists them: the simulated camera's rear and front devices when
  /// `includingSimulated` is true or `HVT_CAMERA_SOURCE=simulated`, then every `Video/Source` device
  /// `GstDeviceMonitor` finds (V4L2, libcamera and PipeWire providers), those with a V4L2 node first in
  /// node order.
  ///
  /// Positions are those the controller uses within each source: the simulated camera has its own rear and
  /// front; of the real devices, the first two V4L2 nodes are `.rear` and `.front` (or, with
  /// `HVT_CAMERA_SOURCE=/dev/videoN`, that node alone is `.rear`); the others have no
  /// ``assignedPosition``. Each V4L2 node is opened briefly to ask for its flash control.
  public static func allCameras(includingSimulated: Bool = false) -> [HVTCameraDeviceInfo] {
    CameraDiscovery.listing(
      monitored: CameraDiscovery.monitoredDevices(), environment: ProcessInfo.processInfo.environment,
      includingSimulated: includingSimulated)
  }
}

/// What `GstDeviceMonitor` said about one device, copied into a value.
struct MonitoredDevice: Sendable, Hashable {
  /// The GObject type of the device (`GstV4l2Device`, `GstPipeWireDevice`, `GstLibcameraDevice`…).
  var typeName: String
  /// The display name.
  var displayName: String
  /// The caps, in caps syntax, if the provider gave any.
  var caps: String?
  /// The provider's properties, as text.
  var properties: [String: String]
  /// The factory of the element the provider makes for it (`v4l2src`, `pipewiresrc`, `libcamerasrc`…).
  var elementFactory: String?

  /// The V4L2 device node behind it: `api.v4l2.path` (PipeWire) or `device.path` (the V4L2 provider),
  /// when it is a `/dev/video*` node.
  var nodePath: String? {
    guard let path = properties["api.v4l2.path"] ?? properties["device.path"], path.hasPrefix("/dev/video")
    else { return nil }
    return path
  }
}

extension MonitoredDevice {
  /// The values of a device the monitor gave.
  init(_ device: Device) {
    self.init(
      typeName: device.typeName, displayName: device.displayName, caps: device.caps?.description,
      properties: device.properties, elementFactory: device.elementFactoryName)
  }
}

extension CameraDiscovery {
  /// The `Video/Source` devices `GstDeviceMonitor` finds (``DeviceMonitor/devices(ofClass:)``), as values,
  /// and the V4L2 capture nodes it missed, found by ``V4L2Discovery`` (every node, on a system without udev).
  static func monitoredDevices() -> [MonitoredDevice] {
    V4L2Discovery.adding(to: DeviceMonitor.devices(ofClass: "Video/Source").map(MonitoredDevice.init))
  }

  /// The API a device was found through, from the provider that made it: its GObject type names the
  /// provider (`GstV4l2Device` → `v4l2`, `GstLibcameraDevice` → `libcamera`, `GstPipeWireDevice` →
  /// `pipewire`). Otherwise the `device.api` property, which the V4L2 provider sets (PipeWire's devices
  /// carry their node's `device.api` too — the API behind PipeWire, not PipeWire itself — and libcamera's
  /// carry no properties at all, which is why the type comes first); else the element factory without
  /// its `src` suffix; else `unknown`.
  static func api(deviceType: String, properties: [String: String], elementFactory: String? = nil) -> String {
    let type = deviceType.lowercased()
    if type.contains("pipewire") { return "pipewire" }
    if type.contains("libcamera") { return "libcamera" }
    if type.contains("v4l2") { return "v4l2" }
    if let api = properties["device.api"], !api.isEmpty { return api }
    if let factory = elementFactory, factory.hasSuffix("src"), factory.count > 3 { return String(factory.dropLast(3)) }
    return "unknown"
  }

  /// The source element for a device: `v4l2src device=NODE` when it has a V4L2 node (how the controller
  /// opens every real camera, PipeWire's included); otherwise the provider's own element — `pipewiresrc
  /// target-object=SERIAL` (or `path=ID`), `libcamerasrc camera-name=NAME`, or the bare factory.
  static func sourceElement(for device: MonitoredDevice, api: String) -> HVTElementDescription {
    let name = HVTPipelineModel.sourceName
    if let node = device.nodePath { return HVTElementDescription("v4l2src", name: name, ["device": node]) }
    switch api {
    case "pipewire":
      if let serial = device.properties["object.serial"] {
        return HVTElementDescription("pipewiresrc", name: name, ["target-object": serial])
      }
      return HVTElementDescription("pipewiresrc", name: name, ["path": device.properties["object.id"] ?? ""])
    case "libcamera":
      return HVTElementDescription("libcamerasrc", name: name, ["camera-name": device.displayName])
    default:
      return HVTElementDescription(device.elementFactory ?? "\(api)src", name: name)
    }
  }

  /// A stable ID for a device: `v4l2:` and the node's bus info (the same port gives the same ID across
  /// replugs and reboots, whatever node number the kernel hands out); `pipewire:` and the node's
  /// `object.path` or name; else the API and the display name.
  static func uniqueID(of device: MonitoredDevice, api: String) -> String {
    if let bus = device.properties[V4L2Discovery.busInfoProperty], !bus.isEmpty { return "v4l2:\(bus)" }
    if api == "pipewire", let path = device.properties["object.path"] ?? device.properties["node.name"] {
      return "pipewire:\(path)"
    }
    return "\(api):\(device.displayName)"
  }

  /// Describes monitored devices: those with a V4L2 node first, ordered by node number, the first two
  /// positioned `.rear` and `.front`; then the others (no node, no position) by name. `hasFlash` is asked
  /// of each node (``V4L2Controls/hasFlash(path:)`` by default).
  static func describe(
    _ devices: [MonitoredDevice], hasFlash: (String) -> Bool = V4L2Controls.hasFlash(path:)
  ) -> [HVTCameraDeviceInfo] {
    let withNode = devices.filter { $0.nodePath != nil }.sorted {
      (nodeNumber($0.nodePath!), $0.nodePath!) < (nodeNumber($1.nodePath!), $1.nodePath!)
    }
    let withoutNode = devices.filter { $0.nodePath == nil }.sorted { $0.displayName < $1.displayName }
    return (withNode + withoutNode).enumerated().map { index, device in
      let api = api(deviceType: device.typeName, properties: device.properties, elementFactory: device.elementFactory)
      let position: HVTCameraController.CameraDevice? =
        device.nodePath == nil ? nil : [HVTCameraController.CameraDevice.rear, .front].dropFirst(index).first
      return HVTCameraDeviceInfo(
        assignedPosition: position, name: device.displayName, path: device.nodePath, api: api,
        hasFlash: device.nodePath.map(hasFlash) ?? false, caps: device.caps ?? "video/x-raw",
        sourceElement: sourceElement(for: device, api: api), uniqueID: uniqueID(of: device, api: api))
    }
  }

  /// Every camera for `hvtcam devices`: the simulated ones when asked for (or configured with
  /// `HVT_CAMERA_SOURCE=simulated`), then the monitored devices. With `HVT_CAMERA_SOURCE=/dev/videoN`,
  /// that node is `.rear` and no other real device has a position.
  static func listing(
    monitored: [MonitoredDevice], environment: [String: String], includingSimulated: Bool,
    hasFlash: (String) -> Bool = V4L2Controls.hasFlash(path:)
  ) -> [HVTCameraDeviceInfo] {
    let configured = HVTCameraSource.fromEnvironment(environment["HVT_CAMERA_SOURCE"])
    var real = describe(monitored, hasFlash: hasFlash)
    if case .device(let path)? = configured?.kind {
      for index in real.indices { real[index].assignedPosition = real[index].path == path ? .rear : nil }
    }
    let simulated: Bool
    if case .simulated? = configured?.kind { simulated = true } else { simulated = includingSimulated }
    return (simulated ? simulatedDevices() : []) + real
  }
}
