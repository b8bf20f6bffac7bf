import Foundation
import HVTGStreamer

extension HVTCameraDeviceInfo {
  /// Every camera, as `hvtcam devices` lists them: the simulated camera's rear and front devices when
  /// `includingSimulated` is true or `HVT_CAMERA_SOURCE=simulated`, then every `Video/Source` device
  /// `GstDeviceMonitor` finds (V4L2, libcamera and PipeWire providers), each camera once (a V4L2 node that
  /// PipeWire serves is listed as PipeWire's camera), those the controller opens first. In a Flatpak
  /// sandbox, or with `HVT_CAMERA_PORTAL=1`, the real cameras are those of the Camera portal instead (see
  /// ``availableCameras(includingSimulated:)``); when the portal refuses, there are none.
  ///
  /// Positions are those the controller uses within each source: the simulated camera has its own rear and
  /// front; of the real devices, the first two the controller opens (V4L2 nodes in node order, then
  /// PipeWire-only cameras by name) are `.rear` and `.front` (or, with `HVT_CAMERA_SOURCE=/dev/videoN`,
  /// that node alone is `.rear`); the others have no ``assignedPosition``. Each V4L2 node is opened
  /// briefly to ask for its flash control.
  public static func allCameras(includingSimulated: Bool = false) -> [HVTCameraDeviceInfo] {
    let environment = ProcessInfo.processInfo.environment
    return (try? CameraDiscovery.everyCamera(environment: environment, includingSimulated: includingSimulated))
      ?? CameraDiscovery.listing(monitored: [], environment: environment, includingSimulated: includingSimulated)
  }

  /// Every camera, as ``allCameras(includingSimulated:)`` lists them, or why the Camera portal gives none.
  ///
  /// In a Flatpak sandbox (`/.flatpak-info` exists), or with `HVT_CAMERA_PORTAL=1`, the real cameras come
  /// from the Camera portal (`org.freedesktop.portal.Camera` on the session bus): `AccessCamera` (the user
  /// may be asked), then `OpenPipeWireRemote`, whose PipeWire connection GStreamer's
  /// `pipewiredeviceprovider` lists; each is opened with `pipewiresrc fd=N target-object=SERIAL`, `N` that
  /// connection, which the listed cameras keep open. Throws ``HVTCameraError/cameraAccessDenied``,
  /// ``HVTCameraError/noCameraAvailable(reason:)`` (`IsCameraPresent` is false),
  /// ``HVTCameraError/portalUnavailable(reason:)``, ``HVTCameraError/portalRequestFailed(method:reason:)``
  /// or ``HVTCameraError/portalTimedOut(method:seconds:)``. Blocks while the portal asks the user.
  public static func availableCameras(includingSimulated: Bool = false) throws -> [HVTCameraDeviceInfo] {
    try CameraDiscovery.everyCamera(
      environment: ProcessInfo.processInfo.environment, includingSimulated: includingSimulated)
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

  /// A PipeWire device's `object.serial` (what `pipewiresrc target-object` names), `nil` for other APIs'.
  var pipewireSerial: String? {
    CameraDiscovery.api(of: self) == "pipewire" ? properties["object.serial"] : nil
  }

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
  /// The `Video/Source` devices `GstDeviceMonitor` finds (``DeviceMonitor/devices(ofClass:)``), as values
  /// (``MonitoredDeviceList``), and the V4L2 capture nodes it missed, found by ``V4L2Discovery`` (every
  /// node, on a system without udev).
  static func monitoredDevices() -> [MonitoredDevice] {
    V4L2Discovery.adding(to: MonitoredDeviceList.shared.devices())
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

  /// The source element for a device: a PipeWire device is opened through PipeWire, `pipewiresrc
  /// target-object=SERIAL` (its `object.serial`; else `path=ID`, its `object.id`), also when a V4L2 node is
  /// behind it, so that other apps can share the camera; a device of the V4L2 provider with `v4l2src
  /// device=NODE`; otherwise the provider's own element — `libcamerasrc camera-name=NAME`, or the bare
  /// factory.
  static func sourceElement(for device: MonitoredDevice, api: String) -> HVTElementDescription {
    let name = HVTPipelineModel.sourceName
    switch api {
    case "pipewire":
      if let serial = device.properties["object.serial"] {
        return HVTElementDescription("pipewiresrc", name: name, ["target-object": serial])
      }
      return HVTElementDescription("pipewiresrc", name: name, ["path": device.properties["object.id"] ?? ""])
    case _ where device.nodePath != nil:
      return HVTElementDescription("v4l2src", name: name, ["device": device.nodePath ?? ""])
    case "libcamera":
      return HVTElementDescription("libcamerasrc", name: name, ["camera-name": device.displayName])
    default:
      return HVTElementDescription(device.elementFactory ?? "\(api)src", name: name)
    }
  }

  /// Who made a device (``HVTCameraDeviceInfo/manufacturer``): udev's vendor name, else the V4L2 driver.
  static func manufacturer(of device: MonitoredDevice) -> String? {
    [device.properties["device.vendor.name"], device.properties["v4l2.device.driver"]]
      .compactMap { $0 }.first { !$0.isEmpty }
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

  /// The devices to list: each camera once. A V4L2 node that a PipeWire device also offers (its
  /// `api.v4l2.path`) is listed as that PipeWire device: a PipeWire daemon serves it, and through PipeWire
  /// several apps can use it at once, where `v4l2src` would hold the node alone.
  static func deduplicated(_ devices: [MonitoredDevice]) -> [MonitoredDevice] {
    let served = Set(
      devices.filter { api(of: $0) == "pipewire" }.compactMap(\.nodePath))
    return devices.filter { api(of: $0) == "pipewire" || $0.nodePath.map { !served.contains($0) } ?? true }
  }

  /// ``api(deviceType:properties:elementFactory:)`` of a monitored device.
  static func api(of device: MonitoredDevice) -> String {
    api(deviceType: device.typeName, properties: device.properties, elementFactory: device.elementFactory)
  }

  /// Where a device stands among the cameras the controller can open (those with a V4L2 node, and
  /// PipeWire's): those with a node by node number, then the others by name and `object.serial`, a
  /// stable order for PipeWire-only cameras (a virtual camera, a portal's), whatever order the monitor
  /// found them in. `nil` for a device the controller does not open (a libcamera camera).
  static func openingOrder(_ device: MonitoredDevice) -> (Int, String, Int)? {
    let serial = Int(device.properties["object.serial"] ?? "") ?? .max
    if let node = device.nodePath { return (nodeNumber(node), node, serial) }
    guard api(of: device) == "pipewire" else { return nil }
    return (.max, device.displayName, serial)
  }

  /// Describes monitored devices, each camera once (``deduplicated(_:)``): first those the controller
  /// opens — V4L2 nodes and PipeWire cameras, in ``openingOrder(_:)`` — the first two positioned `.rear`
  /// and `.front`; then the others (no position) by name. `hasFlash` is asked of each V4L2 node
  /// (``V4L2Controls/hasFlash(path:)`` by default). Devices listed through a portal's PipeWire `remote`
  /// are opened through it and keep it open; they have no path and no flash: a node a portal camera names
  /// is the host's, which the sandbox does not reach.
  static func describe(
    _ devices: [MonitoredDevice], through remote: PipeWireRemote? = nil,
    hasFlash: (String) -> Bool = V4L2Controls.hasFlash(path:)
  ) -> [HVTCameraDeviceInfo] {
    let listed = deduplicated(devices)
    let opened = listed.compactMap { device in openingOrder(device).map { (device, $0) } }
      .sorted { $0.1 < $1.1 }.map(\.0)
    let others = listed.filter { openingOrder($0) == nil }.sorted { $0.displayName < $1.displayName }
    let positions: [HVTCameraController.CameraDevice] = [.rear, .front]
    return (opened + others).enumerated().map { index, device in
      let api = api(of: device)
      let source = sourceElement(for: device, api: api)
      let node = remote == nil ? device.nodePath : nil
      return HVTCameraDeviceInfo(
        assignedPosition: index < opened.count ? positions.dropFirst(index).first : nil, name: device.displayName,
        path: node, api: api, hasFlash: node.map(hasFlash) ?? false,
        caps: device.caps ?? "video/x-raw", sourceElement: remote.map { source.reaching(through: $0) } ?? source,
        uniqueID: uniqueID(of: device, api: api), pipeWireRemote: remote, manufacturer: manufacturer(of: device))
    }
  }

  /// Every camera for `hvtcam devices`: the simulated ones when asked for (or configured with
  /// `HVT_CAMERA_SOURCE=simulated`), then the monitored devices. With `HVT_CAMERA_SOURCE=/dev/videoN`,
  /// that node is `.rear` and no other real device has a position.
  static func listing(
    monitored: [MonitoredDevice], through remote: PipeWireRemote? = nil, environment: [String: String],
    includingSimulated: Bool, hasFlash: (String) -> Bool = V4L2Controls.hasFlash(path:)
  ) -> [HVTCameraDeviceInfo] {
    let configured = HVTCameraSource.fromEnvironment(environment["HVT_CAMERA_SOURCE"])
    var real = describe(monitored, through: remote, hasFlash: hasFlash)
    if case .device(let path)? = configured?.kind {
      for index in real.indices { real[index].assignedPosition = real[index].path == path ? .rear : nil }
    }
    let simulated: Bool
    if case .simulated? = configured?.kind { simulated = true } else { simulated = includingSimulated }
    return (simulated ? simulatedDevices() : []) + real
  }
}

extension CameraDiscovery {
  /// ``listing(monitored:through:environment:includingSimulated:hasFlash:)`` of the devices
  /// `GstDeviceMonitor` finds, or, when the environment selects the Camera portal
  /// (``CameraPortal/selected(by:sandboxMarker:)``), of those its PipeWire remote offers.
  static func everyCamera(environment: [String: String], includingSimulated: Bool) throws(HVTCameraError)
    -> [HVTCameraDeviceInfo]
  {
    guard let portal = CameraPortal.selected(by: environment) else {
      return listing(monitored: monitoredDevices(), environment: environment, includingSimulated: includingSimulated)
    }
    let remote = try portal.openPipeWireRemote()
    return listing(
      monitored: try remote.devices(), through: remote, environment: environment,
      includingSimulated: includingSimulated)
  }

  /// The cameras the portal's PipeWire remote offers that the controller opens, `.rear` then `.front`;
  /// throws ``HVTCameraError/noCameraAvailable(reason:)`` when it offers none.
  static func portalDevices(_ portal: CameraPortal) throws(HVTCameraError) -> [HVTCameraDeviceInfo] {
    let remote = try portal.openPipeWireRemote()
    let cameras = describe(try remote.devices(), through: remote).prefix { opens($0) }.prefix(2)
    guard !cameras.isEmpty else {
      throw .noCameraAvailable(
        reason: "the camera portal granted access, but its PipeWire remote (OpenPipeWireRemote) offers no camera")
    }
    return Array(cameras)
  }
}

extension HVTElementDescription {
  /// The same PipeWire source, connecting through a portal's remote: `pipewiresrc fd=N …`.
  func reaching(through remote: PipeWireRemote) -> HVTElementDescription {
    setting("fd", to: String(remote.fd))
  }
}
