import Foundation
import Glibc
import HVTSupport
import Testing

@testable import HVTCamera

@Suite("Camera listing")
struct CameraListingTests {
  /// A V4L2 provider's device, as GStreamer 1.22's `v4l2deviceprovider` describes one.
  static func v4l2(_ path: String, _ model: WebcamCaps.Model) -> MonitoredDevice {
    MonitoredDevice(
      typeName: "GstV4l2Device", displayName: model.displayName, caps: model.caps,
      properties: ["device.api": "v4l2", "device.path": path, "v4l2.device.driver": "uvcvideo"],
      elementFactory: "v4l2src")
  }

  /// A PipeWire node backed by a V4L2 device (its properties are the node's: `device.api` is `v4l2`).
  static let pipewireNode = MonitoredDevice(
    typeName: "GstPipeWireDevice", displayName: "Razer Kiyo (V4L2)", caps: WebcamCaps.razerKiyo.caps,
    properties: [
      "device.api": "v4l2", "api.v4l2.path": "/dev/video4", "object.id": "57", "object.serial": "1093",
      "media.class": "Video/Source",
    ], elementFactory: "pipewiresrc")

  /// A libcamera camera: the provider sets no properties at all, and the camera has no V4L2 node.
  static let libcamera = MonitoredDevice(
    typeName: "GstLibcameraDevice", displayName: "/base/soc/i2c0mux/i2c@1/imx219@10",
    caps: "video/x-raw, format=(string)NV12, width=(int)[ 64, 3280 ], height=(int)[ 64, 2464 ]", properties: [:],
    elementFactory: "libcamerasrc")

  /// A PipeWire-only camera (a virtual one, published with `pipewiresink mode=provide`): no V4L2 node.
  static func virtualCamera(_ name: String, serial: String) -> MonitoredDevice {
    MonitoredDevice(
      typeName: "GstPipeWireDevice", displayName: name,
      caps: "video/x-raw, format=(string)I420, width=(int)640, height=(int)480, framerate=(fraction)30/1",
      properties: ["media.class": "Video/Source", "object.id": "36", "object.serial": serial],
      elementFactory: "pipewiresrc")
  }

  /// The same camera as the V4L2 provider sees it, beside PipeWire's node for it.
  static let pipewireServed = v4l2("/dev/video4", WebcamCaps.razerKiyo)

  static let monitored = [
    v4l2("/dev/video10", WebcamCaps.logitechBRIO), libcamera, v4l2("/dev/video2", WebcamCaps.logitechC270),
    pipewireNode, pipewireServed, v4l2("/dev/video0", WebcamCaps.logitechC920),
  ]

  @Test("V4L2 nodes in node order, the first two .rear and .front, then devices without a node")
  func orderAndPositions() {
    let cameras = CameraDiscovery.describe(Self.monitored) { _ in false }
    #expect(cameras.map(\.path) == ["/dev/video0", "/dev/video2", "/dev/video4", "/dev/video10", nil])
    #expect(cameras.map(\.assignedPosition) == [.rear, .front, nil, nil, nil])
    #expect(cameras.map(\.api) == ["v4l2", "v4l2", "pipewire", "v4l2", "libcamera"])
    #expect(cameras[0].name == "HD Pro Webcam C920")
    #expect(cameras[0].modes.count == 53)
  }

  @Test("a camera PipeWire serves is listed once, as PipeWire's, opened with pipewiresrc")
  func pipewireServedOnce() {
    let cameras = CameraDiscovery.describe([Self.pipewireServed, Self.pipewireNode]) { _ in false }
    #expect(cameras.map(\.api) == ["pipewire"])
    #expect(cameras[0].path == "/dev/video4" && cameras[0].assignedPosition == .rear)
    #expect(cameras[0].sourceLaunchText == "pipewiresrc target-object=1093")
    // Without PipeWire's node (no daemon serves it), the V4L2 node is opened directly.
    let direct = CameraDiscovery.describe([Self.pipewireServed]) { _ in false }
    #expect(direct.map(\.sourceLaunchText) == ["v4l2src device=/dev/video4"])
  }

  @Test("PipeWire-only cameras are positioned after the V4L2 nodes, by name, whatever the monitor's order")
  func pipewireOnlyPositions() {
    let zulu = Self.virtualCamera("Zulu virtual camera", serial: "40")
    let alpha = Self.virtualCamera("Alpha virtual camera", serial: "77")
    for devices in [[zulu, alpha, Self.libcamera], [Self.libcamera, alpha, zulu]] {
      let cameras = CameraDiscovery.describe(devices) { _ in false }
      #expect(cameras.map(\.name) == ["Alpha virtual camera", "Zulu virtual camera", Self.libcamera.displayName])
      #expect(cameras.map(\.assignedPosition) == [.rear, .front, nil])
      #expect(
        cameras.map(\.sourceLaunchText).prefix(2) == ["pipewiresrc target-object=77", "pipewiresrc target-object=40"])
    }
    let withNode = CameraDiscovery.describe([zulu, Self.v4l2("/dev/video0", WebcamCaps.logitechC920)]) { _ in false }
    #expect(withNode.map(\.api) == ["v4l2", "pipewire"])
    #expect(withNode.map(\.assignedPosition) == [.rear, .front])
  }

  @Test("each device's source element: PipeWire's through pipewiresrc, V4L2's with v4l2src, else the provider's own")
  func sourceElements() {
    let cameras = CameraDiscovery.describe(Self.monitored) { _ in false }
    #expect(cameras[0].sourceLaunchText == "v4l2src device=/dev/video0")
    #expect(cameras[2].sourceLaunchText == "pipewiresrc target-object=1093")  // shared through PipeWire
    #expect(cameras[4].sourceLaunchText == "libcamerasrc camera-name=/base/soc/i2c0mux/i2c@1/imx219@10")
    var nodeless = Self.pipewireNode
    nodeless.properties["api.v4l2.path"] = nil
    #expect(CameraDiscovery.describe([nodeless]) { _ in false }[0].sourceLaunchText == "pipewiresrc target-object=1093")
    nodeless.properties["object.serial"] = nil
    #expect(CameraDiscovery.describe([nodeless]) { _ in false }[0].sourceLaunchText == "pipewiresrc path=57")
  }

  @Test("the API: the provider's device type first, then device.api, then the element factory")
  func api() {
    #expect(CameraDiscovery.api(deviceType: "GstV4l2Device", properties: ["device.api": "v4l2"]) == "v4l2")
    #expect(CameraDiscovery.api(deviceType: "GstPipeWireDevice", properties: ["device.api": "libcamera"]) == "pipewire")
    #expect(CameraDiscovery.api(deviceType: "GstLibcameraDevice", properties: [:]) == "libcamera")
    #expect(CameraDiscovery.api(deviceType: "GstOtherDevice", properties: ["device.api": "decklink"]) == "decklink")
    #expect(CameraDiscovery.api(deviceType: "GstOtherDevice", properties: [:], elementFactory: "ximagesrc") == "ximage")
    #expect(CameraDiscovery.api(deviceType: "GstOtherDevice", properties: [:]) == "unknown")
  }

  @Test("flash is asked of each V4L2 node, never of a device without one")
  func flash() {
    let asked = Locked<[String]>([])
    let cameras = CameraDiscovery.describe(Self.monitored) { path in
      asked.withLock { $0.append(path) }
      return path == "/dev/video2"
    }
    #expect(cameras.map(\.hasFlash) == [false, true, false, false, false])
    #expect(asked.withLock { $0.sorted() } == ["/dev/video0", "/dev/video10", "/dev/video2", "/dev/video4"])
  }

  @Test("the listing: simulated cameras when asked or configured, then the real ones")
  func listing() {
    func list(_ environment: [String: String], simulated: Bool) -> [String] {
      CameraDiscovery.listing(
        monitored: Self.monitored, environment: environment, includingSimulated: simulated, hasFlash: { _ in false }
      ).map { "\($0.assignedPosition?.rawValue ?? "-") \($0.path ?? $0.api)" }
    }
    #expect(
      list([:], simulated: false) == [
        "rear /dev/video0", "front /dev/video2", "- /dev/video4", "- /dev/video10", "- libcamera",
      ])
    let withSimulated = ["rear simulated", "front simulated", "rear /dev/video0", "front /dev/video2"]
    #expect(list([:], simulated: true).prefix(4) == withSimulated[...])
    #expect(list(["HVT_CAMERA_SOURCE": "simulated"], simulated: false).prefix(4) == withSimulated[...])
    #expect(
      list(["HVT_CAMERA_SOURCE": "/dev/video10"], simulated: false)
        == ["- /dev/video0", "- /dev/video2", "- /dev/video4", "rear /dev/video10", "- libcamera"])
  }

  @Test("the simulated cameras as listed: positions, patterns, flash on the rear, modes from their caps")
  func simulated() {
    let cameras = CameraDiscovery.simulatedDevices()
    #expect(cameras.map(\.assignedPosition) == [.rear, .front])
    #expect(
      cameras.map(\.sourceLaunchText) == [
        "videotestsrc is-live=true pattern=smpte", "videotestsrc is-live=true pattern=ball",
      ])
    #expect(cameras.map(\.hasFlash) == [true, false])
    #expect(cameras[0].modes.first?.description == "I420 16x16 to 3840x2160 @ 1 to 30 fps")
    #expect(cameras.allSatisfy { $0.unavailableReason == nil })
  }

  @Test("a device without an assigned position is .rear when the controller opens it by path")
  func positionFallback() {
    var camera = CameraDiscovery.describe(Self.monitored) { _ in false }[3]
    #expect(camera.assignedPosition == nil && camera.position == .rear)
    camera.position = .front
    #expect(camera.assignedPosition == .front)
  }
}

@Suite("V4L2 controls")
struct V4L2ControlsTests {
  @Test("the flash control is V4L2_CID_FLASH_LED_MODE: the flash class base (0x009c0900) + 1")
  func flashControlID() {
    #expect(V4L2Controls.flashLEDMode == 0x009c_0901)
  }

  @Test("a node that does not exist cannot be asked (ENOENT)")
  func missingNode() {
    #expect(
      V4L2Controls.query(V4L2Controls.flashLEDMode, path: "/dev/video-does-not-exist") == .unavailable(errno: ENOENT))
    #expect(!V4L2Controls.hasFlash(path: "/dev/video-does-not-exist"))
  }

  @Test("a node that is not a V4L2 device cannot be asked (ENOTTY)")
  func notV4L2() {
    #expect(V4L2Controls.query(V4L2Controls.flashLEDMode, path: "/dev/null") == .unavailable(errno: ENOTTY))
    #expect(!V4L2Controls.hasFlash(path: "/dev/null"))
  }

  @Test(
    "a real V4L2 capture node answers: the flash control is present or absent, never unavailable",
    .enabled(if: FileManager.default.fileExists(atPath: "/dev/video0")))
  func realNode() {
    #expect(V4L2Controls.query(V4L2Controls.flashLEDMode, path: "/dev/video0") != .unavailable(errno: ENOTTY))
  }
}
