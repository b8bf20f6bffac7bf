import HVTCameraCore
/// The library window's layout (``HVTLibraryWindow``): a page of tiles in columns and rows on a fixed
/// canvas, a caption bar at the bottom, which item is selected, and what a key or a click does. Pure:
/// the window draws and acts on what it says.
package struct LibraryGrid: Sendable, Equatable {
  /// The canvas the window shows, in pixels (small enough for a 640x480 screen; the window sinks scale
  /// it to a larger window).
  package static let canvas = HVTFrameSize(width: 640, height: 440)
  static let columns = 4
  static let rows = 3
  /// The caption bar's height, under the tiles.
  static let captionHeight = 40
  /// The space between a tile's edge and its picture; the selection's frame is drawn in it.
  static let margin = 10
  /// Items on a page.
  static var perPage: Int { columns * rows }
  /// A tile's size.
  static var tile: HVTFrameSize {
    HVTFrameSize(width: canvas.width / columns, height: (canvas.height - captionHeight) / rows)
  }
  /// The largest picture a tile shows (its aspect ratio kept inside it).
  package static var pictureBox: HVTFrameSize {
    HVTFrameSize(width: tile.width - 2 * margin, height: tile.height - 2 * margin)
  }

  /// How many items the library has.
  package let count: Int
  /// The selected item's index (0 when there is none).
  package var selected = 0

  /// What a key or click asks for.
  package enum Action: Equatable {
    /// Select another item (the page follows it).
    case select(Int)
    /// Pick the item: the window delivers it and closes.
    case pick(Int)
    /// Close the window without a pick.
    case cancel
  }

  /// The page the selected item is on.
  package var page: Int { selected / Self.perPage }
  /// The indices of the items on the page shown.
  package var visible: Range<Int> { (page * Self.perPage)..<min(count, (page + 1) * Self.perPage) }
  /// How many pages there are (at least one).
  package var pages: Int { max(1, (count + Self.perPage - 1) / Self.perPage) }

  /// Where item `index`'s tile is on the canvas (its page must be shown).
  func tileOrigin(of index: Int) -> (x: Int, y: Int) {
    let slot = index % Self.perPage
    return ((slot % Self.columns) * Self.tile.width, (slot / Self.columns) * Self.tile.height)
  }

  /// The item whose tile is at (`x`, `y`) of the canvas, if one is there.
  func item(atX x: Double, y: Double) -> Int? {
    guard x >= 0, y >= 0, x < Double(Self.canvas.width), y < Double(Self.tile.height * Self.rows) else { return nil }
    let slot = Int(y) / Self.tile.height * Self.columns + Int(x) / Self.tile.width
    let index = page * Self.perPage + slot
    return visible.contains(index) ? index : nil
  }

  /// What the key named `key` (an X keysym name) does: arrows, Home and End, Page Up and Page Down move
  /// the selection; Return, the keypad's Enter and space pick it; Escape cancels.
  package func action(key: String) -> Action? {
    guard count > 0 else { return key == "Escape" ? .cancel : nil }
    let moved: Int
    switch key {
    case "Escape": return .cancel
    case "Return", "KP_Enter", "space": return .pick(selected)
    case "Left": moved = selected - 1
    case "Right": moved = selected + 1
    case "Up": moved = selected - Self.columns
    case "Down": moved = selected + Self.columns
    case "Page_Up", "Prior": moved = selected - Self.perPage
    case "Page_Down", "Next": moved = selected + Self.perPage
    case "Home": moved = 0
    case "End": moved = count - 1
    default: return nil
    }
    let clamped = min(max(moved, 0), count - 1)
    return clamped == selected ? nil : .select(clamped)
  }

  /// What a left click at (`x`, `y`) of the canvas does: picks the item clicked on.
  package func action(clickAtX x: Double, y: Double) -> Action? {
    item(atX: x, y: y).map { .pick($0) }
  }

  /// Each stored property, as a memberwise initializer takes them.
  package init(count: Int) {
    self.count = count
  }
}
