import HVTGStreamer
import HVTSupport

/// A camera: a device found by `GstDeviceMonitor` (through the V4L2, libcamera or PipeWire provider), or
/// the simulated camera.
///
/// How real devices map onto ``HVTCameraController/CameraDevice``: the cameras the controller opens — V4L2
/// nodes (`v4l2src`) and PipeWire's cameras (`pipewiresrc`) — are ordered by their node number
/// (`/dev/video0` before `/dev/video2` before `/dev/video10`), then PipeWire cameras without a node (a
/// virtual camera) by name; the first is `.rear` (the main camera, and the only one on a machine with one
/// webcam) and the second is `.front`. A camera that PipeWire serves is listed once, as PipeWire's, though
/// the V4L2 provider lists its node too. Further devices have no ``assignedPosition`` and are reachable
/// with ``HVTCameraSource/device(_:)``. Devices the controller does not open (a libcamera camera outside
/// PipeWire) are listed by ``allCameras(includingSimulated:)`` but have no position.
public struct HVTCameraDeviceInfo: Sendable, Hashable {
  /// The position this device stands for: `.rear` or `.front`, or `nil` for the third and later devices
  /// (and devices the controller does not open), which ``HVTCameraController/cameras(for:)`` does not return.
  public var assignedPosition: HVTCameraController.CameraDevice?
  /// The position the controller uses this device as: its ``assignedPosition``, or `.rear` for a device
  /// without one (the position it takes when opened by path with ``HVTCameraSource/device(_:)``).
  public var position: HVTCameraController.CameraDevice {
    get { assignedPosition ?? .rear }
    set { assignedPosition = newValue }
  }
  /// The human-readable name.
  public var name: String
  /// The V4L2 device node (`/dev/video0`, also of a PipeWire camera backed by one), or `nil` for the
  /// simulated camera and for devices without one (a libcamera camera, a PipeWire stream not backed by a
  /// V4L2 node, a camera of the Camera portal, whose node is the host's).
  public var path: String?
  /// How the device was found: `"v4l2"`, `"libcamera"` or `"pipewire"` (the `GstDeviceMonitor` provider;
  /// see `CameraDiscovery.api(deviceType:properties:elementFactory:)`), or `"simulated"`.
  public var api: String
  /// Whether the device has a flash: the simulated rear camera has one; a V4L2 device has one when its
  /// node has the flash LED mode control (`V4L2_CID_FLASH_LED_MODE`, asked with `VIDIOC_QUERYCTRL`).
  public var hasFlash: Bool
  /// The formats it offers, in GStreamer caps syntax.
  public var caps: String
  /// Why the device cannot be used, when opening it to read its formats failed.
  var failure: HVTCameraError?
  /// The source element and its properties, e.g. `v4l2src device=/dev/video0` or `pipewiresrc
  /// target-object=57`.
  var sourceElement: HVTElementDescription
  /// An ID that stays the same for the same camera when it is replugged or the machine restarts, whatever
  /// node the kernel gives it: `v4l2:` and the bus info `VIDIOC_QUERYCAP` reports (`v4l2:usb-0000:00:14.0-6`,
  /// `v4l2:platform:vivid-000`), `pipewire:` and the node's object path, or `simulated:rear`/`simulated:front`.
  /// Camera settings (``HVTCameraControls``) are kept per ID.
  public var uniqueID: String
  /// The Camera portal's PipeWire connection a portal camera is opened through (its source element's
  /// `fd`), kept open while this value lives; `nil` for other cameras.
  var pipeWireRemote: PipeWireRemote? = nil
  /// Who made the camera, written as a photo's EXIF `Make`: udev's vendor name (`device.vendor.name`) when
  /// the device monitor gives one, else the V4L2 driver (`uvcvideo`, `vivid`); `"HVTCamera"` for the
  /// simulated camera; `nil` when not known.
  public var manufacturer: String? = nil
  /// The video test pattern shown by a simulated device.
  var isSimulated: Bool { api == "simulated" }

  /// The capture modes the device offers, grouped per format and size (see
  /// ``HVTCaptureMode/modes(in:)``); empty when the caps do not parse.
  public var modes: [HVTCaptureMode] { (try? HVTCaptureMode.modes(in: caps)) ?? [] }

  /// The source element in `gst-launch-1.0` syntax, e.g. `v4l2src device=/dev/video0` or
  /// `videotestsrc is-live=true pattern=smpte`.
  public var sourceLaunchText: String {
    sourceElement.launchText
  }

  /// Why the device cannot be used (GStreamer's message), or `nil` when it can.
  public var unavailableReason: String? { failure?.description }
}

/// Finds cameras for a source: the simulated ones, or the devices of `GstDeviceMonitor`.
enum CameraDiscovery {
  /// Raw I420, NV12 and YUY2 and MJPEG, at every size up to 3840x2160 and up to 30 fps: what the
  /// simulated camera offers (it makes MJPEG with `jpegenc`).
  static let simulatedCaps = """
    video/x-raw,format=(string){ I420, NV12, YUY2 },width=(int)[ 16, 3840 ],height=(int)[ 16, 2160 ],\
    framerate=(fraction)[ 1/1, 30/1 ]; \
    image/jpeg,width=(int)[ 16, 3840 ],height=(int)[ 16, 2160 ],framerate=(fraction)[ 1/1, 30/1 ]
    """

  /// The simulated camera's two devices: the rear shows SMPTE bars and has a flash, the front a bouncing ball.
  static func simulatedDevices() -> [HVTCameraDeviceInfo] {
    HVTCameraController.CameraDevice.allCases.map { position in
      let pattern = position == .rear ? "smpte" : "ball"
      return HVTCameraDeviceInfo(
        assignedPosition: position, name: "Simulated \(position.rawValue) camera (videotestsrc pattern=\(pattern))",
        path: nil, api: "simulated", hasFlash: position == .rear, caps: simulatedCaps,
        sourceElement: HVTElementDescription(
          "videotestsrc", name: HVTPipelineModel.sourceName, ["is-live": "true", "pattern": pattern]),
        uniqueID: "simulated:\(position.rawValue)", manufacturer: "HVTCamera")
    }
  }

  /// The cameras of a source, positioned `.rear` then `.front`: for `.automatic`, those of the Camera
  /// portal when the environment selects it (``CameraPortal/selected(by:sandboxMarker:)``), throwing its
  /// refusal.
  static func devices(for source: HVTCameraSource, environment: [String: String]) throws(HVTCameraError)
    -> [HVTCameraDeviceInfo]
  {
    switch source.kind {
    case .simulated:
      return simulatedDevices()
    case .device(let path):
      var device = positionedDevices(limit: .max).first { $0.path == path } ?? unprobedDevice(path: path)
      device.position = .rear
      return [device]
    case .automatic:
      if let configured = HVTCameraSource.fromEnvironment(environment["HVT_CAMERA_SOURCE"]) {
        return try devices(for: configured, environment: [:])
      }
      if let portal = CameraPortal.selected(by: environment) { return try portalDevices(portal) }
      return positionedDevices(limit: 2)
    }
  }

  /// A device node the monitor did not list: opened with `v4l2src` (in READY) to read the formats it
  /// offers; if that fails, the device carries GStreamer's reason.
  static func unprobedDevice(path: String) -> HVTCameraDeviceInfo {
    let identity = try? V4L2Node(path: path).identity()
    var device = HVTCameraDeviceInfo(
      assignedPosition: .rear, name: path, path: path, api: "v4l2", hasFlash: V4L2Controls.hasFlash(path: path),
      caps: "", sourceElement: HVTElementDescription("v4l2src", name: HVTPipelineModel.sourceName, ["device": path]),
      uniqueID: "v4l2:\(identity?.busInfo ?? path)", manufacturer: identity?.driver)
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
      Teardown.stop(pipeline, what: "the probe of \(source.factory)")
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

  /// The first `limit` cameras the controller opens, from `GstDeviceMonitor` (class `Video/Source`), in
  /// the order of ``describe(_:hasFlash:)``: the first is `.rear`, the second `.front`.
  static func positionedDevices(limit: Int) -> [HVTCameraDeviceInfo] {
    Array(describe(monitoredDevices()).prefix { CameraDiscovery.opens($0) }.prefix(limit))
  }

  /// Whether the controller opens a listed camera: with `v4l2src` or `pipewiresrc`.
  static func opens(_ camera: HVTCameraDeviceInfo) -> Bool {
    ["v4l2src", "pipewiresrc"].contains(camera.sourceElement.factory)
  }

  /// `/dev/video12` → 12, so that ordering is numeric.
  static func nodeNumber(_ path: String) -> Int {
    Int(path.drop { !$0.isNumber }) ?? .max
  }
}
