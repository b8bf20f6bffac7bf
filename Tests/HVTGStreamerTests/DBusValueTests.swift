import CGStreamer
import Testing

@testable import HVTGLib

/// D-Bus values through `GVariant` and back, without a bus: what the portal calls send and read.
@Suite("D-Bus values")
struct DBusValueTests {
  /// `value` made into a `GVariant` (its floating reference sunk), printed by GLib, and read back.
  func roundTrip(_ value: DBusValue) throws -> (text: String, value: DBusValue) {
    let variant = try #require(try value.makeVariant())
    g_variant_ref_sink(variant)
    defer { g_variant_unref(variant) }
    return (String(ownedCString: g_variant_print(variant, 1)), DBusValue(variant))
  }

  @Test("the arguments of AccessCamera and the Response signal keep their types")
  func portalShapes() throws {
    let options = DBusValue.tuple([.vardict(["handle_token": .string("hvtcamera7"), "count": .uint32(3)])])
    let sent = try roundTrip(options)
    #expect(sent.text == "({'count': <uint32 3>, 'handle_token': <'hvtcamera7'>},)")
    #expect(sent.value == options)

    let response = DBusValue.tuple([.uint32(1), .vardict([:])])
    let answered = try roundTrip(response)
    #expect(answered.text == "(uint32 1, @a{sv} {})")
    #expect(answered.value.items == [.uint32(1), .vardict([:])])
  }

  @Test("paths, handles, booleans, signed integers and nested variants")
  func basicTypes() throws {
    let value = DBusValue.tuple([
      .objectPath("/org/freedesktop/portal/desktop"), .handle(0), .boolean(true), .int32(-5),
      .variant(.variant(.string("inner"))),
    ])
    let result = try roundTrip(value)
    #expect(result.text == "(objectpath '/org/freedesktop/portal/desktop', handle 0, true, -5, <<'inner'>>)")
    #expect(result.value == value)
    #expect(result.value.items[4].unwrapped == .string("inner"))
  }

  @Test("what cannot be sent throws instead of reaching GLib")
  func refused() {
    #expect(throws: DBusError.self) { try DBusValue.objectPath("not a path").makeVariant() }
    #expect(throws: DBusError.self) { try DBusValue.other(type: "ay", text: "[]").makeVariant() }
  }
}
