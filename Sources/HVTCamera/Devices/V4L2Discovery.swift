import Foundation

/// Finds V4L2 cameras without udev, by asking the kernel directly: where `GstDeviceMonitor` lists nothing
/// (a container or minimal system without udev, whose database the V4L2 device provider reads), every
/// `/dev/video*` node is opened and asked `VIDIOC_QUERYCAP`.
enum V4L2Discovery {
  /// The ``MonitoredDevice/typeName`` of a node found here rather than by the monitor.
  static let typeName = "V4L2 node"

  /// The folder device nodes appear in.
  static let deviceFolder = "/dev"

  /// Whether `name` in `/dev` is a V4L2 video node's name: `video` and a number.
  static func isVideoNodeName(_ name: String) -> Bool {
    name.hasPrefix("video") && name.count > 5 && name.dropFirst(5).allSatisfy(\.isNumber)
  }

  /// The `/dev/video*` nodes, in node order.
  static func videoNodes(in folder: String = deviceFolder) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter(isVideoNodeName).map { "\(folder)/\($0)" }.sorted {
      (CameraDiscovery.nodeNumber($0), $0) < (CameraDiscovery.nodeNumber($1), $1)
    }
  }

  /// The capture node at `path` as a device the monitor would have given: named by its card, with its bus
  /// info, and the caps `v4l2src` offers for it in READY (``CameraDiscovery/probeCaps(of:)``). `nil` for
  /// a node that does not open, is not a V4L2 device, or does not capture video (a UVC metadata node).
  static func device(at path: String) -> MonitoredDevice? {
    guard let identity = captureIdentity(at: path) else { return nil }
    let source = HVTElementDescription("v4l2src", name: HVTPipelineModel.sourceName, ["device": path])
    return MonitoredDevice(
      typeName: typeName, displayName: identity.card, caps: try? CameraDiscovery.probeCaps(of: source),
      properties: [
        "device.path": path, "device.api": "v4l2", busInfoProperty: identity.busInfo,
        "v4l2.device.driver": identity.driver,
      ],
      elementFactory: "v4l2src")
  }

  /// What `VIDIOC_QUERYCAP` says of the node at `path`, when it opens and captures video; else `nil`.
  static func captureIdentity(at path: String) -> V4L2Identity? {
    guard let identity = try? V4L2Node(path: path).identity(), identity.capturesVideo else { return nil }
    return identity
  }

  /// The property GStreamer's V4L2 device provider gives a node's bus info in (set here the same way).
  static let busInfoProperty = "v4l2.device.bus_info"

  /// `monitored`, followed by the capture nodes in `/dev` that none of them stands for: all of them when
  /// the monitor found nothing (no udev), none on a desktop where it found every camera.
  static func adding(to monitored: [MonitoredDevice], nodes: [String] = videoNodes()) -> [MonitoredDevice] {
    let known = Set(monitored.compactMap(\.nodePath))
    return monitored + nodes.filter { !known.contains($0) }.compactMap(device(at:))
  }
}
