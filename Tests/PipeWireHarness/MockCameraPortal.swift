import Foundation
import MediaInspection

/// How the mock Camera portal answers `AccessCamera` (its `Response` signal's code).
public enum MockPortalAnswer: String, Sendable, CaseIterable {
  /// Response 0: access granted.
  case grant
  /// Response 1: the user said no.
  case deny
  /// Response 2: the request ended otherwise.
  case other
  /// No `Response` at all (a user who never answers the dialog).
  case never
}

extension PrivatePipeWire {
  /// Why the mock Camera portal cannot run here (python3-dbusmock is missing), or `nil`. `./dev test`
  /// installs it.
  public static let portalUnavailableReason: String? = {
    if let reason = unavailableReason { return reason }
    let module = "/usr/lib/python3/dist-packages/dbusmock"
    return FileManager.default.fileExists(atPath: module) ? nil : "python3-dbusmock is not installed (\(module))"
  }()

  /// Starts a mock of xdg-desktop-portal's Camera portal on the private bus (python-dbusmock with the
  /// template `MockPortal/camera_portal.py`): `IsCameraPresent` is `present`, `AccessCamera` answers
  /// `answer`, `OpenPipeWireRemote` returns a socket connected to this PipeWire. Returns once the portal's
  /// name is on the bus (`gdbus wait`); stopped with the rest.
  @discardableResult
  public func startCameraPortal(answer: MockPortalAnswer = .grant, present: Bool = true) async throws -> Daemon {
    guard let template = Bundle.module.url(forResource: "camera_portal", withExtension: "py") else {
      throw TestFailure("the mock portal's template camera_portal.py is not in the harness's resources")
    }
    let parameters = #"{"answer": "\#(answer.rawValue)", "present": \#(present)}"#
    // Debian's python3 (the one with python3-dbusmock), not another one first on PATH.
    let portal = try start("/usr/bin/python3", ["-m", "dbusmock", "-t", template.path, "-p", parameters])
    let wait = try start("gdbus", ["wait", "--session", "--timeout", "15", "org.freedesktop.portal.Desktop"])
    guard try await wait.exitStatus() == 0 else {
      throw TestFailure("the mock portal did not come up:\n\(portal.output)\n\(wait.output)")
    }
    return portal
  }

  /// Runs `body` with a private PipeWire serving a virtual camera named `PortalCamera` (320x240) and a
  /// mock Camera portal on its bus (``startCameraPortal(answer:present:)``); stops it all afterwards.
  public static func withPortalCamera<T>(
    answer: MockPortalAnswer = .grant, present: Bool = true, _ body: (PrivatePipeWire) async throws -> T
  ) async throws -> T {
    let pipewire = try await start()
    defer { pipewire.stop() }
    try await pipewire.publishCamera(named: "PortalCamera", width: 320, height: 240)
    try await pipewire.startCameraPortal(answer: answer, present: present)
    return try await body(pipewire)
  }
}
