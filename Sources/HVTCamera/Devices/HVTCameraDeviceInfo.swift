import HVTGStreamer
/// A camera the controller can use: a V4L2 device found by `GstDeviceMonitor`, or the simulated camera.
///
/// How real devices map onto ``HVTCameraController/CameraDevice``: devices are ordered by their device
/// node number (`/dev/video0` before `/dev/video2` before `/dev/video10`); the first is `.rear` (the main
/// camera, and the only one on a machine with one webcam) and the second is `.front`. Further devices are
/// reachable with ``HVTCameraSource/device(_:)``.
public struct HVTCameraDeviceInfo: Sendable, Hashable {
  /// The position this device stands for.
  public var position: HVTCameraController.CameraDevice
  /// The human-readable name.
  public var name: String
  /// The device node (`/dev/video0`), or `nil` for the simulated camera.
  public var path: String?
  /// Which GStreamer provider found it: `"v4l2"`, or `"simulated"`.
  public var api: String
  /// Whether the device has a flash (the simulated rear camera has one).
  public var hasFlash: Bool
  /// The formats it offers, in GStreamer caps syntax.
  public var caps: String
  /// Why the device cannot be used, when opening it to read its formats failed.
  var failure: HVTCameraError?
  /// The source element and its properties, e.g. `v4l2src device=/dev/video0`.
  var sourceElement: HVTElementDescription
  /// The video test pattern shown by a simulated device.
  var isSimulated: Bool { api == "simulated" }
}

/// Finds cameras for a source: the simulated ones, or the V4L2 devices of `GstDeviceMonitor`.
enum CameraDiscovery {
  /// Every raw format and size up to 3840x2160, at up to 30 fps: what the simulated camera offers.
  static let simulatedCaps =
    "video/x-raw,format=(string){ I420, NV12, YUY2 },width=(int)[ 16, 3840 ],height=(int)[ 16, 2160 ],framerate=(fraction)[ 1/1, 30/1 ]"

  /// The simulated camera's two devices: the rear shows SMPTE bars and has a flash, the front a bouncing ball.
  static func simulatedDevices() -> [HVTCameraDeviceInfo] {
    HVTCameraController.CameraDevice.allCases.map { position in
      let pattern = position == .rear ? "smpte" : "ball"
      return HVTCameraDeviceInfo(
        position: position, name: "Simulated \(position.rawValue) camera (videotestsrc pattern=\(pattern))",
        path: nil, api: "simulated", hasFlash: position == .rear, caps: simulatedCaps,
        sourceElement: HVTElementDescription(
          "videotestsrc", name: HVTPipelineModel.sourceName, ["is-live": "true", "pattern": pattern]))
    }
  }

  /// The cameras of a source, positioned `.rear` then `.front`.
  static func devices(for source: HVTCameraSource, environment: [String: String]) -> [HVTCameraDeviceInfo] {
    switch source.kind {
    case .simulated:
      return simulatedDevices()
    case .device(let path):
      var device = v4l2Devices(limit: .max).first { $0.path == path } ?? unprobedDevice(path: path)
      device.position = .rear
      return [device]
    case .automatic:
      if let configured = HVTCameraSource.fromEnvironment(environment["HVT_CAMERA_SOURCE"]) {
        return devices(for: configured, environment: [:])
      }
      return v4l2Devices(limit: 2)
    }
  }

  /// A device node the monitor did not list: opened with `v4l2src` (in READY) to read the formats it
  /// offers; if that fails, the device carries GStreamer's reason.
  static func unprobedDevice(path: String) -> HVTCameraDeviceInfo {
    var device = HVTCameraDeviceInfo(
      position: .rear, name: path, path: path, api: "v4l2", hasFlash: false, caps: "",
      sourceElement: HVTElementDescription("v4l2src", name: HVTPipelineModel.sourceName, ["device": path]))
    do {
      device.caps = try probeCaps(of: device.sourceElement)
    } catch {
      device.failure = HVTCameraError(error)
    }
    return device
  }

  /// Opens a source element in a pipeline of its own and returns the caps its pad offers in READY.
  static func probeCaps(of source: HVTElementDescription) throws -> String {
    let pipeline = Pipeline(named: "hvtcamera-probe")
    let failure = Locked<MessageReport?>(nil)
    pipeline.bus.setSyncHandler { message in
      if case .error(let report) = message { failure.withLock { $0 = $0 ?? report } }
    }
    defer {
      pipeline.setState(.null)
      pipeline.bus.removeSyncHandler()
    }
    let element = try ElementChain.make(source)
    try pipeline.add(element)
    let result = pipeline.setState(.ready)
    if let report = failure.withLock({ $0 }) { throw GStreamerError.reported(report) }
    guard result != .failure, let pad = element.staticPad("src") else {
      throw GStreamerError.stateChangeFailed(element: element.name, target: .ready)
    }
    return pad.queryCaps().description
  }

  /// The first `limit` V4L2 capture devices from `GstDeviceMonitor` (class `Video/Source`), ordered by node
  /// number: the first is `.rear`, the others `.front`.
  static func v4l2Devices(limit: Int) -> [HVTCameraDeviceInfo] {
    let found = DeviceMonitor.devices(ofClass: "Video/Source").compactMap { device -> (String, Device)? in
      let properties = device.properties
      guard let path = properties["api.v4l2.path"] ?? properties["device.path"], path.hasPrefix("/dev/video")
      else { return nil }
      return (path, device)
    }
    let ordered = found.sorted { nodeNumber($0.0) < nodeNumber($1.0) }
    return ordered.prefix(limit).enumerated().map { index, entry in
      HVTCameraDeviceInfo(
        position: index == 0 ? .rear : .front, name: entry.1.displayName, path: entry.0, api: "v4l2",
        hasFlash: false, caps: entry.1.caps?.description ?? "video/x-raw",
        sourceElement: HVTElementDescription("v4l2src", name: HVTPipelineModel.sourceName, ["device": entry.0]))
    }
  }

  /// `/dev/video12` → 12, so that ordering is numeric.
  static func nodeNumber(_ path: String) -> Int {
    Int(path.drop { !$0.isNumber }) ?? .max
  }
}
