import CGStreamer

/// A D-Bus value, as a Swift value: the basic types the desktop portals use, variants, `a{sv}`
/// dictionaries and tuples. Converted to and from `GVariant` without GLib's variadic constructors
/// (`g_variant_new`, `g_variant_get`), which Swift cannot call.
public indirect enum DBusValue: Sendable, Hashable {
  /// `s`.
  case string(String)
  /// `o`: an object path, e.g. `/org/freedesktop/portal/desktop`.
  case objectPath(String)
  /// `b`.
  case boolean(Bool)
  /// `u`.
  case uint32(UInt32)
  /// `i`.
  case int32(Int32)
  /// `h`: an index into the Unix file descriptors that travel with the message.
  case handle(Int32)
  /// `v`: a value of any type.
  case variant(DBusValue)
  /// `a{sv}`: the options and results dictionary of the portals; the values as they are inside their
  /// variants.
  case vardict([String: DBusValue])
  /// `(…)`: a tuple, as the arguments and replies of methods and signals are.
  case tuple([DBusValue])
  /// A value of any other type, read but never written: its type string and its text
  /// (`g_variant_print`).
  case other(type: String, text: String)

  /// The value of a `GVariant` (not consumed). Wraps `g_variant_get_type_string` and the
  /// `g_variant_get_*` reader of its type.
  init(_ variant: OpaquePointer) {
    let type = String(cString: g_variant_get_type_string(variant))
    switch type {
    case "s": self = .string(String(cString: g_variant_get_string(variant, nil)))
    case "o": self = .objectPath(String(cString: g_variant_get_string(variant, nil)))
    case "b": self = .boolean(g_variant_get_boolean(variant) != 0)
    case "u": self = .uint32(g_variant_get_uint32(variant))
    case "i": self = .int32(g_variant_get_int32(variant))
    case "h": self = .handle(g_variant_get_handle(variant))
    case "v":
      let inner = g_variant_get_variant(variant)!
      defer { g_variant_unref(inner) }
      self = .variant(DBusValue(inner))
    case "a{sv}":
      var entries: [String: DBusValue] = [:]
      for entry in Self.children(of: variant) {
        guard case .tuple(let pair) = entry, pair.count == 2, case .string(let key) = pair[0],
          case .variant(let value) = pair[1]
        else { continue }
        entries[key] = value
      }
      self = .vardict(entries)
    case _ where type.hasPrefix("(") || type.hasPrefix("{"):
      self = .tuple(Self.children(of: variant))
    default:
      self = .other(type: type, text: String(ownedCString: g_variant_print(variant, 1)))
    }
  }

  /// The values of a container's children. Wraps `g_variant_n_children` and `g_variant_get_child_value`.
  private static func children(of variant: OpaquePointer) -> [DBusValue] {
    (0..<g_variant_n_children(variant)).map { index in
      let child = g_variant_get_child_value(variant, index)!
      defer { g_variant_unref(child) }
      return DBusValue(child)
    }
  }

  /// A new floating `GVariant` of this value (a call that takes it consumes it). Throws for ``other(type:text:)``
  /// and for an object path that is not one. Wraps `g_variant_new_string`, `g_variant_new_object_path`,
  /// `g_variant_new_boolean`, `g_variant_new_uint32`, `g_variant_new_int32`, `g_variant_new_handle`,
  /// `g_variant_new_variant`, `g_variant_new_dict_entry`, `g_variant_new_array` and `g_variant_new_tuple`.
  func makeVariant() throws(DBusError) -> OpaquePointer? {
    switch self {
    case .string(let text):
      return g_variant_new_string(text)
    case .objectPath(let path):
      guard g_variant_is_object_path(path) != 0 else {
        throw DBusError(invalidValue: "'\(path)' is not an object path")
      }
      return g_variant_new_object_path(path)
    case .boolean(let value):
      return g_variant_new_boolean(value ? 1 : 0)
    case .uint32(let value):
      return g_variant_new_uint32(value)
    case .int32(let value):
      return g_variant_new_int32(value)
    case .handle(let value):
      return g_variant_new_handle(value)
    case .variant(let value):
      return g_variant_new_variant(try value.makeVariant())
    case .vardict(let entries):
      let children = try entries.sorted { $0.key < $1.key }.map { key, value throws(DBusError) in
        g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(try value.makeVariant()))
      }
      let type = g_variant_type_new("{sv}")
      defer { g_variant_type_free(type) }
      return children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    case .tuple(let items):
      let children = try items.map { item throws(DBusError) in try item.makeVariant() }
      return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    case .other(let type, _):
      throw DBusError(invalidValue: "a value of type '\(type)' cannot be sent")
    }
  }

  /// The items of a tuple (a method's reply, a signal's arguments); any other value alone.
  public var items: [DBusValue] {
    if case .tuple(let items) = self { return items }
    return [self]
  }

  /// The value inside a variant; any other value as it is.
  public var unwrapped: DBusValue {
    if case .variant(let inner) = self { return inner.unwrapped }
    return self
  }
}
