import Foundation
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

/// The library window's layout and keys (``LibraryGrid``), without a window.
@Suite("The library window's grid")
struct LibraryGridTests {
  @Test("arrows, Home/End and Page Up/Down move the selection within the items; the page follows it")
  func keys() {
    var grid = LibraryGrid(count: 14)
    #expect(grid.action(key: "Left") == nil && grid.action(key: "Up") == nil, "nothing before the first")
    #expect(grid.action(key: "Right") == .select(1) && grid.action(key: "Down") == .select(4))
    #expect(grid.action(key: "End") == .select(13) && grid.action(key: "Page_Down") == .select(12))
    grid.selected = 12
    #expect(grid.page == 1 && grid.visible == 12..<14 && grid.pages == 2)
    #expect(grid.action(key: "Down") == .select(13) && grid.action(key: "Page_Up") == .select(0))
    #expect(grid.action(key: "Home") == .select(0) && grid.action(key: "Return") == .pick(12))
    #expect(grid.action(key: "space") == .pick(12) && grid.action(key: "Escape") == .cancel)
    #expect(grid.action(key: "q") == nil)
    #expect(
      LibraryGrid(count: 0).action(key: "Return") == nil && LibraryGrid(count: 0).action(key: "Escape") == .cancel)
  }

  @Test("a click picks the item under it on the page shown; clicks on the caption or an empty tile do nothing")
  func clicks() {
    var grid = LibraryGrid(count: 14)
    let tile = LibraryGrid.tile
    #expect(grid.action(clickAtX: 10, y: 10) == .pick(0))
    #expect(grid.action(clickAtX: Double(tile.width * 3 + 5), y: Double(tile.height * 2 + 5)) == .pick(11))
    #expect(grid.action(clickAtX: 10, y: Double(LibraryGrid.canvas.height - 5)) == nil, "the caption bar")
    grid.selected = 13
    #expect(grid.action(clickAtX: Double(tile.width + 5), y: 5) == .pick(13))
    #expect(grid.action(clickAtX: Double(tile.width * 2 + 5), y: 5) == nil, "no fifteenth item")
    #expect(grid.tileOrigin(of: 13).x == tile.width && grid.tileOrigin(of: 13).y == 0)
  }

  @Test("the canvas frames the selected tile and centres each picture in its tile")
  func canvas() {
    let grid = LibraryGrid(count: 2)
    let red = LibraryCanvasFixture.picture(width: 40, height: 20, red: 255)
    let pixels = [UInt8](LibraryCanvas.render(grid, pictures: [1: red]))
    let stride = LibraryGrid.canvas.width * 4
    func colour(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * stride + x * 4)..<(y * stride + x * 4 + 3)]) }
    let tile = LibraryGrid.tile
    #expect(colour(4, tile.height / 2) == [255, 176, 0], "the first tile's frame")
    #expect(colour(tile.width + 4, tile.height / 2) == [24, 24, 24], "no frame around the second")
    #expect(colour(tile.width + tile.width / 2, tile.height / 2) == [255, 0, 0], "the picture, centred")
    #expect(colour(tile.width / 2, tile.height / 2) == [48, 48, 48], "a tile without a picture")
  }
}

/// Pictures for the canvas test.
enum LibraryCanvasFixture {
  static func picture(width: Int, height: Int, red: UInt8) -> LibraryCanvas.Picture {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for pixel in 0..<(width * height) {
      bytes[pixel * 4] = red
      bytes[pixel * 4 + 3] = 255
    }
    return LibraryCanvas.Picture(width: width, height: height, bytes: Data(bytes))
  }
}
