import CGStreamer

/// A method (or property holder) on the bus: who owns it, which object, which interface, which member.
public struct DBusMember: Sendable, Hashable, CustomStringConvertible {
  /// The bus name of the peer, e.g. `org.freedesktop.portal.Desktop`.
  public var destination: String
  /// The object path, e.g. `/org/freedesktop/portal/desktop`.
  public var path: String
  /// The interface, e.g. `org.freedesktop.portal.Camera`.
  public var interface: String
  /// The method, property or signal name, e.g. `AccessCamera`.
  public var name: String

  /// Names a member.
  public init(destination: String, path: String, interface: String, name: String) {
    self.destination = destination
    self.path = path
    self.interface = interface
    self.name = name
  }

  /// `interface.name`, e.g. `org.freedesktop.portal.Camera.AccessCamera`.
  public var description: String { "\(interface).\(name)" }
}

/// What a method call returned: its values and the Unix file descriptors that came with them, each
/// owned by this reply (closed when the last reference to it goes).
public struct DBusReply: Sendable {
  /// The reply's values, in order.
  public var values: [DBusValue]
  /// The file descriptors; a `h` value is an index into them.
  public var fileDescriptors: [OwnedFileDescriptor]
}

/// A connection of its own to a message bus (not GIO's shared singleton, so that each address can be a
/// different bus): synchronous calls with a timeout, properties, and signals waited for on the calling
/// thread. Wraps `GDBusConnection`.
///
/// `@unchecked Sendable`: a counted reference to a `GDBusConnection`, which GIO makes thread-safe.
public final class DBusConnection: @unchecked Sendable {
  private let pointer: OpaquePointer

  /// The address of this process's session bus (`DBUS_SESSION_BUS_ADDRESS`, else what GIO finds). Wraps
  /// `g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION)`.
  public static func sessionBusAddress() throws(DBusError) -> String {
    String(ownedCString: try DBusError.check { g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, $0) })
  }

  /// Connects to the message bus at `address` and says hello. Wraps `g_dbus_connection_new_for_address_sync`
  /// with `G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION`.
  public init(address: String) throws(DBusError) {
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    pointer = try DBusError.check { g_dbus_connection_new_for_address_sync(address, flags, nil, nil, $0) }
  }

  /// Closes the connection. Wraps `g_dbus_connection_close_sync` and `g_object_unref`.
  deinit {
    g_dbus_connection_close_sync(pointer, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(pointer))
  }

  /// The unique name the bus gave this connection, e.g. `:1.42`. Wraps `g_dbus_connection_get_unique_name`.
  public var uniqueName: String { String(cString: g_dbus_connection_get_unique_name(pointer)) }

  /// Calls a method and waits at most `timeout` seconds for its reply. Wraps
  /// `g_dbus_connection_call_with_unix_fd_list_sync` and `g_unix_fd_list_steal_fds`.
  public func call(_ method: DBusMember, _ arguments: [DBusValue], timeout: Double) throws(DBusError) -> DBusReply {
    let parameters = try DBusValue.tuple(arguments).makeVariant()
    var descriptors: UnsafeMutablePointer<GUnixFDList>?
    let reply = try DBusError.check { error in
      g_dbus_connection_call_with_unix_fd_list_sync(
        pointer, method.destination, method.path, method.interface, method.name, parameters, nil,
        G_DBUS_CALL_FLAGS_NONE, gint(min(timeout * 1000, Double(gint.max))), nil, &descriptors, nil, error)
    }
    defer { g_variant_unref(reply) }
    var received: [OwnedFileDescriptor] = []
    if let descriptors {
      var count: gint = 0
      if let stolen = g_unix_fd_list_steal_fds(descriptors, &count) {
        received = (0..<Int(count)).map { OwnedFileDescriptor(adopting: stolen[$0]) }
        g_free(stolen)
      }
      g_object_unref(descriptors)
    }
    return DBusReply(values: DBusValue(reply).items, fileDescriptors: received)
  }

  /// Reads a property, at most `timeout` seconds: `org.freedesktop.DBus.Properties.Get(interface, name)`,
  /// the value inside its variant.
  public func property(_ property: DBusMember, timeout: Double) throws(DBusError) -> DBusValue {
    let get = DBusMember(
      destination: property.destination, path: property.path, interface: "org.freedesktop.DBus.Properties",
      name: "Get")
    let reply = try call(get, [.string(property.interface), .string(property.name)], timeout: timeout)
    guard let value = reply.values.first else { throw DBusError(invalidValue: "\(get) returned no value") }
    return value.unwrapped
  }

  /// Subscribes to the signal `interface.member` from `sender` (on any object), then runs `body` with an
  /// inbox of the signals that arrive: whatever `body` calls to make the peer send one, the signal cannot
  /// be missed. Runs on the calling thread, which `body` blocks; the signals are read from a main context
  /// of its own, so no main loop needs to run anywhere. Wraps `g_main_context_push_thread_default`,
  /// `g_dbus_connection_signal_subscribe` and `g_dbus_connection_signal_unsubscribe`.
  public func withSignals<Result, Failure: Error>(
    from sender: String, interface: String, member: String, _ body: (DBusSignalInbox) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let inbox = DBusSignalInbox()
    g_main_context_push_thread_default(inbox.context)
    defer { g_main_context_pop_thread_default(inbox.context) }
    let subscription = g_dbus_connection_signal_subscribe(
      pointer, sender, interface, member, nil, nil, G_DBUS_SIGNAL_FLAGS_NONE,
      { _, _, path, _, _, parameters, data in
        guard let data, let path, let parameters else { return }
        let inbox = Unmanaged<DBusSignalInbox>.fromOpaque(data).takeUnretainedValue()
        inbox.received.append((String(cString: path), DBusValue(parameters).items))
      }, Unmanaged.passRetained(inbox).toOpaque(), { Unmanaged<DBusSignalInbox>.fromOpaque($0!).release() })
    defer {
      g_dbus_connection_signal_unsubscribe(pointer, subscription)
      // The subscription lets go of the inbox from the inbox's context: run what is pending there.
      inbox.drain()
    }
    return try body(inbox)
  }
}

/// The signals a ``DBusConnection/withSignals(from:interface:member:_:)`` subscription received, read on
/// the subscribing thread.
public final class DBusSignalInbox {
  fileprivate let context: OpaquePointer
  fileprivate var received: [(path: String, arguments: [DBusValue])] = []
  private var timedOut = false

  fileprivate init() { context = g_main_context_new() }

  deinit { g_main_context_unref(context) }

  /// Waits at most `seconds` for a signal `matches` accepts (one received already counts) and returns its
  /// arguments, or `nil` when none came in time. Wraps `g_timeout_source_new` and
  /// `g_main_context_iteration`.
  public func next(within seconds: Double, matching matches: (_ path: String, _ arguments: [DBusValue]) -> Bool)
    -> [DBusValue]?
  {
    timedOut = false
    let timer = g_timeout_source_new(guint(min(max(seconds, 0) * 1000, Double(guint.max))))!
    defer {
      g_source_destroy(timer)
      g_source_unref(timer)
    }
    g_source_set_callback(
      timer,
      { data in
        Unmanaged<DBusSignalInbox>.fromOpaque(data!).takeUnretainedValue().timedOut = true
        return 0  // G_SOURCE_REMOVE
      }, Unmanaged.passUnretained(self).toOpaque(), nil)
    g_source_attach(timer, context)
    while true {
      if let index = received.firstIndex(where: { matches($0.path, $0.arguments) }) {
        return received.remove(at: index).arguments
      }
      if timedOut { return nil }
      g_main_context_iteration(context, 1)
    }
  }

  /// Runs what is pending in the inbox's context, without waiting.
  fileprivate func drain() {
    while g_main_context_iteration(context, 0) != 0 {}
  }
}
