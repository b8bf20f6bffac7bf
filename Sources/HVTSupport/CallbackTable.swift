/// A C library's table of callbacks (a Wayland listener, say), filled once and kept at an address of its
/// own for the life of the process, as the library requires of the pointer it is given.
package enum CallbackTable {
  /// `empty` filled by `fill`, at an address that lives as long as the process.
  package static func make<Table>(_ empty: Table, _ fill: (inout Table) -> Void) -> UnsafeMutablePointer<Table> {
    let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    var filled = empty
    fill(&filled)
    table.initialize(to: filled)
    return table
  }
}
