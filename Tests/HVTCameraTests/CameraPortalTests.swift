import CGStreamer
import Foundation
import HVTGLib
import HVTGStreamer
import PipeWireHarness
import Testing

@testable import HVTCamera

/// The Camera portal path against a mock portal (python-dbusmock) on the bus of a private PipeWire that
/// serves one virtual camera: the grant lists the camera through the portal's PipeWire remote, the
/// refusals are typed errors.
@Suite(
  "The Camera portal", .timeLimit(.minutes(2)),
  .enabled(if: PrivatePipeWire.portalUnavailableReason == nil, "\(PrivatePipeWire.portalUnavailableReason ?? "")"))
struct CameraPortalTests {
  /// Runs `body` with a private PipeWire serving a virtual camera named `PortalCamera` and a mock portal
  /// answering `answer`; stops it all afterwards.
  func withPortal(
    answer: MockPortalAnswer = .grant, present: Bool = true,
    _ body: (PrivatePipeWire, CameraPortal) async throws -> Void
  ) async throws {
    try await PrivatePipeWire.withPortalCamera(answer: answer, present: present) { pipewire in
      try await body(pipewire, CameraPortal(busAddress: pipewire.busAddress, callTimeout: 10, accessTimeout: 10))
    }
  }

  @Test("granted: the portal's PipeWire remote lists the virtual camera, opened with pipewiresrc fd= target-object=")
  func granted() async throws {
    try await withPortal { pipewire, _ in
      var environment = pipewire.environment
      environment["HVT_CAMERA_PORTAL"] = "1"
      // The process's own listing starts the factory's PipeWire provider (on the process's PipeWire, not
      // the portal's): the portal's listing must not take that running provider's devices for its own.
      _ = DeviceMonitor.devices(ofClass: "Video/Source")
      let cameras = try CameraDiscovery.devices(for: .automatic, environment: environment)
      let rear = try #require(cameras.first, "\(cameras)")
      #expect(cameras.count == 1 && rear.name == "PortalCamera" && rear.position == .rear, "\(cameras)")
      #expect(rear.api == "pipewire" && rear.path == nil)
      let remote = try #require(rear.pipeWireRemote)
      #expect(rear.sourceElement.factory == "pipewiresrc")
      #expect(rear.sourceElement.value(of: "fd") == String(remote.fd))
      #expect(rear.sourceElement.value(of: "target-object").flatMap { Int($0) } != nil, "\(rear.sourceLaunchText)")
      #expect(rear.modes.contains { $0.format == "I420" && $0.width.contains(320) }, "\(rear.caps)")
      // The descriptor is a live socket while the listing holds it.
      #expect(fcntl(remote.fd, F_GETFD) != -1)
      // The probe ran on a provider of its own: the factory's, shared with every device monitor, keeps its PipeWire.
      #expect(try pipeWireProviderFD() == -1)
    }
  }

  /// The `fd` property of the process's `pipewiredeviceprovider`.
  func pipeWireProviderFD() throws -> Int32 {
    let provider = try #require(gst_device_provider_factory_get_by_name("pipewiredeviceprovider"))
    defer { gst_object_unref(provider) }
    var value = GValue()
    g_value_init(&value, hvt_g_type_int())
    defer { g_value_unset(&value) }
    g_object_get_property(UnsafeMutableRawPointer(provider).assumingMemoryBound(to: GObject.self), "fd", &value)
    return g_value_get_int(&value)
  }

  @Test("a signal subscription lets go of its inbox when it ends, and a signal sent before the wait is kept")
  func signalSubscription() async throws {
    let pipewire = try await PrivatePipeWire.start()
    defer { pipewire.stop() }
    let connection = try DBusConnection(address: pipewire.busAddress)
    weak var seen: DBusSignalInbox?
    // NameOwnerChanged for the name this connection takes may well arrive before the wait begins.
    let arguments = try connection.withSignals(
      from: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"
    ) { inbox throws(DBusError) -> [DBusValue]? in
      seen = inbox
      let bus = DBusMember(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        name: "RequestName")
      _ = try connection.call(bus, [.string("org.hvtcamera.Test"), .uint32(0)], timeout: 5)
      return inbox.next(within: 5) { _, arguments in arguments.first == .string("org.hvtcamera.Test") }
    }
    #expect(arguments == [.string("org.hvtcamera.Test"), .string(""), .string(connection.uniqueName)])
    #expect(seen == nil)
  }

  @Test("denied by the user (response 1): cameraAccessDenied, for the controller's discovery too")
  func denied() async throws {
    try await withPortal(answer: .deny) { pipewire, portal in
      #expect(throws: HVTCameraError.cameraAccessDenied) { try portal.openPipeWireRemote() }
      var environment = pipewire.environment
      environment["HVT_CAMERA_PORTAL"] = "1"
      #expect(throws: HVTCameraError.cameraAccessDenied) {
        try CameraDiscovery.devices(for: .automatic, environment: environment)
      }
    }
  }

  @Test("ended otherwise (response 2): portalRequestFailed naming AccessCamera")
  func endedOtherwise() async throws {
    try await withPortal(answer: .other) { _, portal in
      let error = #expect(throws: HVTCameraError.self) { try portal.openPipeWireRemote() }
      guard case .portalRequestFailed(let method, let reason)? = error else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(method == "org.freedesktop.portal.Camera.AccessCamera" && reason.contains("response 2"), "\(reason)")
    }
  }

  @Test("no answer from the user: portalTimedOut after the access timeout, not a hang")
  func unanswered() async throws {
    try await withPortal(answer: .never) { _, portal in
      var impatient = portal
      impatient.accessTimeout = 0.5
      let started = ContinuousClock.now
      #expect(throws: HVTCameraError.portalTimedOut(method: "org.freedesktop.portal.Camera.AccessCamera", seconds: 0.5))
      {
        try impatient.openPipeWireRemote()
      }
      #expect(ContinuousClock.now - started < .seconds(5))
    }
  }

  @Test("IsCameraPresent false: noCameraAvailable saying so")
  func noCameraPresent() async throws {
    try await withPortal(present: false) { _, portal in
      let error = #expect(throws: HVTCameraError.self) { try portal.openPipeWireRemote() }
      guard case .noCameraAvailable(let reason)? = error else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(reason.contains("IsCameraPresent is false"), "\(reason)")
    }
  }

  @Test("no portal on the bus: portalUnavailable with the bus's ServiceUnknown")
  func noPortal() async throws {
    let pipewire = try await PrivatePipeWire.start()
    defer { pipewire.stop() }
    let error = #expect(throws: HVTCameraError.self) {
      try CameraPortal(busAddress: pipewire.busAddress).openPipeWireRemote()
    }
    guard case .portalUnavailable(let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(reason.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(reason)")
    #expect(reason.contains("org.freedesktop.portal.Camera.IsCameraPresent"), "\(reason)")
  }

  @Test("a portal camera is opened through the remote, with no path and no flash asked of the host's node")
  func describedThroughRemote() throws {
    let remote = PipeWireRemote(descriptor: OwnedFileDescriptor(adopting: open("/dev/null", O_RDONLY)))
    let device = MonitoredDevice(
      typeName: "GstPipeWireDevice", displayName: "Webcam", caps: "video/x-raw",
      properties: ["api.v4l2.path": "/dev/video0", "object.serial": "57"], elementFactory: "pipewiresrc")
    var asked: [String] = []
    let described = CameraDiscovery.describe([device], through: remote) { path in
      asked.append(path)
      return true
    }
    let camera = try #require(described.first)
    #expect(camera.sourceLaunchText == "pipewiresrc target-object=57 fd=\(remote.fd)")
    #expect(camera.path == nil && !camera.hasFlash && camera.position == .rear && camera.pipeWireRemote == remote)
    #expect(asked.isEmpty)
    let direct = try #require(CameraDiscovery.describe([device]) { _ in true }.first)
    #expect(
      direct.path == "/dev/video0" && direct.hasFlash && direct.sourceLaunchText == "pipewiresrc target-object=57")
  }

  @Test("the portal is selected in a sandbox (its marker file) or by HVT_CAMERA_PORTAL=1, never by =0")
  func selection() throws {
    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
    try Data().write(to: marker)
    defer { try? FileManager.default.removeItem(at: marker) }
    let missing = marker.path + "-missing"
    #expect(CameraPortal.selected(by: [:], sandboxMarker: missing) == nil)
    #expect(CameraPortal.selected(by: [:], sandboxMarker: marker.path) != nil)
    #expect(CameraPortal.selected(by: ["HVT_CAMERA_PORTAL": "0"], sandboxMarker: marker.path) == nil)
    let forced = CameraPortal.selected(
      by: ["HVT_CAMERA_PORTAL": "1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"], sandboxMarker: missing)
    #expect(forced?.busAddress == "unix:path=/x")
    #expect(CameraPortal.requestPath(sender: ":1.42", token: "t7") == "/org/freedesktop/portal/desktop/request/1_42/t7")
  }
}
