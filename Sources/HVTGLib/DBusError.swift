import CGStreamer

/// A D-Bus failure: the `GError` GDBus gave (its domain, code and message, and the D-Bus error name a
/// remote peer replied with, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`), or a value that cannot be
/// sent.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The `GError` domain, e.g. `"g-dbus-error-quark"` or `"g-io-error-quark"`.
  public var domain: String
  /// The `GError` code within its domain.
  public var code: Int
  /// The D-Bus error name the peer (or the bus) replied with, when the failure is a D-Bus error reply.
  public var remoteName: String?
  /// What went wrong, without the remote name GDBus prefixes it with.
  public var message: String
  /// Whether the call timed out (`G_IO_ERROR_TIMED_OUT`).
  public var timedOut: Bool

  /// The error of a `GError` (not freed). Wraps `g_dbus_error_get_remote_error`,
  /// `g_dbus_error_strip_remote_error` and `g_error_matches`.
  init(_ error: UnsafeMutablePointer<GError>) {
    domain = String(cString: g_quark_to_string(error.pointee.domain))
    code = Int(error.pointee.code)
    remoteName =
      g_dbus_error_is_remote_error(error) != 0 ? String(ownedCString: g_dbus_error_get_remote_error(error)) : nil
    let copy = g_error_copy(error)!
    defer { g_error_free(copy) }
    g_dbus_error_strip_remote_error(copy)
    message = copy.pointee.message.map { String(cString: $0) } ?? "unknown error"
    timedOut = g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_TIMED_OUT.rawValue)) != 0
  }

  /// A value that cannot be sent, saying why.
  init(invalidValue reason: String) {
    domain = "hvt-dbus-value"
    code = 0
    remoteName = nil
    message = reason
    timedOut = false
  }

  /// Runs a GDBus call that reports failure through a `GError**`, throwing its error (and freeing it).
  static func check<Result>(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result?) throws(DBusError)
    -> Result
  {
    var error: UnsafeMutablePointer<GError>?
    let result = call(&error)
    if let error {
      defer { g_error_free(error) }
      throw DBusError(error)
    }
    guard let result else { throw DBusError(invalidValue: "GDBus returned nothing and no error") }
    return result
  }

  /// The message, and the remote error name in parentheses when there is one.
  public var description: String {
    message + (remoteName.map { " (\($0))" } ?? "")
  }
}
