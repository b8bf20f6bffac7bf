import Foundation
import HVTGLib
import HVTGStreamer

/// The Camera portal of xdg-desktop-portal, through which an app in a Flatpak sandbox reaches the
/// cameras: `org.freedesktop.portal.Camera` of `org.freedesktop.portal.Desktop` at
/// `/org/freedesktop/portal/desktop`, on the session bus. ``openPipeWireRemote()`` reads
/// `IsCameraPresent`, asks `AccessCamera` (the user may be shown a dialog; the answer is the `Response`
/// signal of an `org.freedesktop.portal.Request`), then `OpenPipeWireRemote` for a PipeWire connection
/// that offers the cameras only.
///
/// Every call blocks the calling thread — never the controller's queue: discovery runs on the caller of
/// `present()` or on the controller's worker — for at most ``callTimeout`` seconds, and the user's answer
/// for at most ``accessTimeout``.
struct CameraPortal: Sendable {
  /// The session bus to reach the portal on, as `DBUS_SESSION_BUS_ADDRESS` gives it; `nil` for the one
  /// GIO finds for this process.
  var busAddress: String?
  /// How long each D-Bus call may take, in seconds.
  var callTimeout = 10.0
  /// How long the user has to answer `AccessCamera`, in seconds.
  var accessTimeout = 120.0

  /// The portal's bus name.
  static let destination = "org.freedesktop.portal.Desktop"
  /// The portal's object.
  static let objectPath = "/org/freedesktop/portal/desktop"
  /// The camera interface.
  static let interface = "org.freedesktop.portal.Camera"
  /// The interface of the request object `AccessCamera` answers through.
  static let requestInterface = "org.freedesktop.portal.Request"
  /// The file whose presence says the process runs in a Flatpak sandbox.
  static let sandboxMarker = "/.flatpak-info"

  /// The portal, when cameras come from it: in a Flatpak sandbox (``sandboxMarker`` exists) unless
  /// `HVT_CAMERA_PORTAL=0`, and anywhere with `HVT_CAMERA_PORTAL=1`; `nil` otherwise. It is reached on
  /// the environment's `DBUS_SESSION_BUS_ADDRESS`.
  static func selected(by environment: [String: String], sandboxMarker: String = sandboxMarker) -> CameraPortal? {
    let wanted: Bool =
      switch environment["HVT_CAMERA_PORTAL"] {
      case "1": true
      case "0": false
      default: FileManager.default.fileExists(atPath: sandboxMarker)
      }
    return wanted ? CameraPortal(busAddress: environment["DBUS_SESSION_BUS_ADDRESS"]) : nil
  }

  /// A member of the camera interface.
  static func member(_ name: String) -> DBusMember {
    DBusMember(destination: destination, path: objectPath, interface: interface, name: name)
  }

  /// Asks the portal for the cameras: `IsCameraPresent` (``HVTCameraError/noCameraAvailable(reason:)``
  /// when false), `AccessCamera` and its `Response` (``HVTCameraError/cameraAccessDenied`` when the user
  /// says no), then `OpenPipeWireRemote`: the connection to PipeWire it returns, owned by the result.
  func openPipeWireRemote() throws(HVTCameraError) -> PipeWireRemote {
    let connection = try connect()
    guard case .boolean(true) = try call(connection, property: "IsCameraPresent") else {
      throw .noCameraAvailable(
        reason: "the camera portal (\(Self.interface) at \(Self.objectPath)) says no camera is present "
          + "(IsCameraPresent is false)")
    }
    try accessCamera(on: connection)
    let method = Self.member("OpenPipeWireRemote")
    let reply = try call(connection, method, [.vardict([:])])
    guard case .handle(let index)? = reply.values.first, reply.fileDescriptors.indices.contains(Int(index)) else {
      throw .portalRequestFailed(
        method: method.description, reason: "it returned no file descriptor (reply: \(reply.values))")
    }
    return PipeWireRemote(descriptor: reply.fileDescriptors[Int(index)])
  }

  /// A connection of its own to the session bus.
  private func connect() throws(HVTCameraError) -> DBusConnection {
    do {
      return try DBusConnection(address: busAddress ?? DBusConnection.sessionBusAddress())
    } catch {
      throw .portalUnavailable(reason: "cannot connect to the session bus: \(error)")
    }
  }

  /// `AccessCamera`, waiting for the `Response` of its request. The signal is subscribed to before the
  /// call, and the request's path is known before it returns (it is made of this connection's name and
  /// the `handle_token` option), so the answer cannot come too early to be seen; a portal that names
  /// another path is heard on that one.
  private func accessCamera(on connection: DBusConnection) throws(HVTCameraError) {
    let method = Self.member("AccessCamera")
    let token = "hvtcamera\(UInt32.random(in: .min ... .max))"
    let expected = Self.requestPath(sender: connection.uniqueName, token: token)
    let arguments = try connection.withSignals(
      from: Self.destination, interface: Self.requestInterface, member: "Response"
    ) { inbox throws(HVTCameraError) -> [DBusValue] in
      let reply = try call(connection, method, [.vardict(["handle_token": .string(token)])])
      let handle: String
      if case .objectPath(let path)? = reply.values.first { handle = path } else { handle = expected }
      guard
        let arguments = inbox.next(within: accessTimeout, matching: { path, _ in [expected, handle].contains(path) })
      else {
        // Takes the dialog away: nobody waits for its answer any more.
        let close = DBusMember(
          destination: Self.destination, path: handle, interface: Self.requestInterface, name: "Close")
        _ = try? connection.call(close, [], timeout: callTimeout)
        throw .portalTimedOut(method: method.description, seconds: accessTimeout)
      }
      return arguments
    }
    switch arguments.first {
    case .uint32(0)?: return
    case .uint32(1)?: throw .cameraAccessDenied
    case .uint32(let code)?:
      throw .portalRequestFailed(
        method: method.description, reason: "the request ended without access (response \(code))")
    default:
      throw .portalRequestFailed(method: method.description, reason: "its Response signal carried \(arguments)")
    }
  }

  /// The object path of the request a call with `handle_token` `token` makes: the caller's unique name
  /// without its colon, dots as underscores (`:1.42` → `1_42`), under the portal's `request` folder.
  static func requestPath(sender: String, token: String) -> String {
    let name = sender.drop { $0 == ":" }.replacingOccurrences(of: ".", with: "_")
    return "\(objectPath)/request/\(name)/\(token)"
  }

  /// Calls a portal method, its failure in HVTCamera's terms.
  private func call(_ connection: DBusConnection, _ method: DBusMember, _ arguments: [DBusValue])
    throws(HVTCameraError) -> DBusReply
  {
    do {
      return try connection.call(method, arguments, timeout: callTimeout)
    } catch {
      throw failure(of: method, error)
    }
  }

  /// Reads a property of the camera interface, its failure in HVTCamera's terms.
  private func call(_ connection: DBusConnection, property name: String) throws(HVTCameraError) -> DBusValue {
    let property = Self.member(name)
    do {
      return try connection.property(property, timeout: callTimeout)
    } catch {
      throw failure(of: property, error)
    }
  }

  /// A failed call: timed out, the portal or its camera interface missing (no owner of the name, no such
  /// object, interface, method or property), or the portal's own error.
  func failure(of member: DBusMember, _ error: DBusError) -> HVTCameraError {
    if error.timedOut { return .portalTimedOut(method: member.description, seconds: callTimeout) }
    let missing = [
      "ServiceUnknown", "NameHasNoOwner", "UnknownObject", "UnknownInterface", "UnknownMethod",
      "UnknownProperty", "InvalidArgs",
    ].map { "org.freedesktop.DBus.Error.\($0)" }
    if let name = error.remoteName, missing.contains(name) {
      return .portalUnavailable(
        reason: "\(member) of \(member.destination) at \(member.path) on the session bus cannot be used: \(error)")
    }
    return .portalRequestFailed(method: member.description, reason: error.description)
  }
}
