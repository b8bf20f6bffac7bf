import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Finding real cameras with and without udev: `GstDeviceMonitor` where udev runs, `VIDIOC_QUERYCAP` on
/// every `/dev/video*` node where it does not (a container).
@Suite("RealCamera: finding vivid", .serialized, .enabled(if: VividCameras.tier != nil), .timeLimit(.minutes(3)))
struct VividDiscoveryTests {
  @Test("both cameras are listed, rear then front, by card name and bus info, with their real modes")
  func listing() throws {
    let cameras = HVTCameraDeviceInfo.allCameras()
    #expect(cameras.map(\.path) == [VividCameras.rear, VividCameras.front])
    #expect(cameras.map(\.assignedPosition) == [.rear, .front])
    #expect(cameras.map(\.uniqueID) == ["v4l2:platform:vivid-000", "v4l2:platform:vivid-001"])
    #expect(cameras.allSatisfy { $0.name == "vivid" && $0.api == "v4l2" && $0.unavailableReason == nil })
    let modes = try #require(cameras.first).modes.map(\.description)
    #expect(modes.contains("YUY2 640x480 @ 25, 15, 12.5, 10, 5, 4, 2, 1 fps"), "\(modes)")
    #expect(modes.contains("YUY2 1280x720 @ 12.5, 10, 5, 4, 2, 1 fps"), "\(modes)")
  }
}

/// Where there is no udev (a container), `GstDeviceMonitor` sees no V4L2 camera at all.
@Suite("RealCamera: finding vivid without udev", .enabled(if: VividCameras.withoutUdev), .timeLimit(.minutes(1)))
struct VividWithoutUdevTests {
  @Test("without udev the monitor lists nothing, and the cameras are found on /dev all the same")
  func withoutUdev() throws {
    #expect(CameraDiscovery.monitoredDevices().allSatisfy { $0.typeName == V4L2Discovery.typeName })
    #expect(!DeviceNodeWatcher.udevIsRunning())
    #expect(V4L2Discovery.videoNodes() == [VividCameras.rear, VividCameras.front])
  }
}

/// Hot-plug through the device monitor where udev runs and through inotify on `/dev` where it does not.
/// The cameras come and go for real: the vivid module is unloaded and loaded again (the last of the
/// tier's suites, by name, since it resets the cameras).
@Suite("RealCamera: replugging vivid", .enabled(if: VividCameras.tier != nil), .timeLimit(.minutes(2)))
struct VividReplugTests {
  @Test("cameras unplugged and plugged back in are reported: by the device monitor with udev, by inotify without")
  func hotPlug() async throws {
    let (changes, continuation) = AsyncStream.makeStream(of: HVTCameraController.DeviceChange.self)
    let watcher = try #require(HVTCameraController.deviceWatcher { continuation.yield($0) })
    #expect((watcher is DeviceNodeWatcher) == VividCameras.withoutUdev)
    var received = changes.makeAsyncIterator()
    func next(_ count: Int) async -> Set<HVTCameraController.DeviceChange> {
      var found: Set<HVTCameraController.DeviceChange> = []
      while found.count < count, let change = await received.next() { found.insert(change) }
      return found
    }
    try await VividCameras.unplugAll()
    let gone = await next(2)
    #expect(
      gone == [
        .disconnected(name: "vivid", path: VividCameras.rear), .disconnected(name: "vivid", path: VividCameras.front),
      ], "\(gone)")
    try await VividCameras.plugIn()
    let back = await next(2)
    #expect(
      back == [
        .connected(name: "vivid", path: VividCameras.rear), .connected(name: "vivid", path: VividCameras.front),
      ], "\(back)")
    withExtendedLifetime(watcher) {}
  }
}

extension VividReplugTests {
  @Test("a control value set on a camera is applied again when the camera is opened after a replug")
  func keptControlsAfterReplug() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = HVTCameraSettingsStore(url: directory.appendingPathComponent("controls.json"))
    let rear = try #require(HVTCameraDeviceInfo.allCameras().first { $0.path == VividCameras.rear })
    try HVTCameraControls(camera: rear, store: store).set("brightness", to: 200)
    #expect(store.values(for: rear.uniqueID) == ["brightness": 200])
    // Replugged, the driver starts again from its defaults.
    try await VividCameras.unplugAll()
    try await VividCameras.plugIn()
    #expect(try await VividCameras.control("brightness", on: VividCameras.rear) == 128)
    let camera = try TestCamera(source: .automatic, quality: .type640x480, present: false)
    camera.controller.cameraSettingsStore = store
    try await camera.controller.presentAndWait()
    let (applied, failed) = try await camera.delegate.nextEvent { event in
      if case .cameraControlsApplied(let applied, let failed) = event { (applied, failed) } else { nil }
    }
    #expect(applied == ["brightness": 200] && failed.isEmpty)
    #expect(try await VividCameras.control("brightness", on: VividCameras.rear) == 200)
    await camera.controller.dismissAndWait()
  }
}
