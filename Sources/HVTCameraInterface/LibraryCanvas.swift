import HVTCairo
import HVTCameraCore
import Foundation

/// Draws the library window's picture as RGBx pixels: the grid (``LibraryGrid``) — a dark background,
/// each shown item's picture centred in its tile, the selected tile framed in amber — or the trim screen
/// (``LibraryTrim``). The caption is drawn on it afterwards, by `textoverlay`.
package enum LibraryCanvas {
  /// A tile's picture, RGBx, rows of `width * 4` bytes.
  package struct Picture: Sendable {
    package let width: Int
    package let height: Int
    package let bytes: Data

    /// Each stored property, as a memberwise initializer takes them.
    package init(width: Int, height: Int, bytes: Data) {
      self.width = width
      self.height = height
      self.bytes = bytes
    }
  }

  /// An RGB colour.
  struct Colour: Equatable {
    let red: UInt8, green: UInt8, blue: UInt8

    /// Each stored property, as a memberwise initializer takes them.
    init(red: UInt8, green: UInt8, blue: UInt8) {
      (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// `colour` (cairo's, with its opacity) drawn over `background`.
    init(_ colour: HVTCairo.Colour, over background: Colour) {
      let blend = { (top: Double, bottom: UInt8) in
        UInt8((Double(bottom) + (top * 255 - Double(bottom)) * colour.alpha).rounded())
      }
      self.init(
        red: blend(colour.red, background.red), green: blend(colour.green, background.green),
        blue: blend(colour.blue, background.blue))
    }
  }

  static let background = Colour(red: 24, green: 24, blue: 24)
  static let tile = Colour(red: 48, green: 48, blue: 48)
  static let selection = Colour(red: 255, green: 176, blue: 0)
  /// The trim screen's timeline in the movie review's colours (``ControlsPicture``) over the background:
  /// the bar inside the trim and outside it, the handles, the playhead.
  static let kept = Colour(HVTCairo.Colour.white.opacity(ControlsPicture.keptOpacity), over: background)
  static let cut = Colour(HVTCairo.Colour.white.opacity(ControlsPicture.cutOpacity), over: background)
  static let handle = Colour(ControlsPicture.handleColour, over: background)
  static let playhead = Colour(ControlsPicture.playheadColour, over: background)
  /// The selection frame's width, in pixels (inside the grid's margin).
  static let frameWidth = 6

  /// The canvas for `grid`, with `pictures` by item index (an item without one shows its bare tile).
  package static func render(_ grid: LibraryGrid, pictures: [Int: Picture]) -> Data {
    let size = LibraryGrid.canvas
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
    fill(&pixels, x: 0, y: 0, width: size.width, height: size.height, with: background)
    let tileSize = LibraryGrid.tile
    for index in grid.visible {
      let (x, y) = grid.tileOrigin(of: index)
      if index == grid.selected {
        fill(&pixels, x: x + 2, y: y + 2, width: tileSize.width - 4, height: tileSize.height - 4, with: selection)
      }
      let inset = LibraryGrid.margin - 2
      fill(
        &pixels, x: x + inset, y: y + inset, width: tileSize.width - 2 * inset, height: tileSize.height - 2 * inset,
        with: tile)
      guard let picture = pictures[index] else { continue }
      copy(
        picture, into: &pixels, centredIn: LibraryGrid.pictureBox, at: x + LibraryGrid.margin, y + LibraryGrid.margin)
    }
    return Data(pixels)
  }

  /// The canvas for the trim screen `trim`: the movie's frame at the playhead (`picture`, once decoded)
  /// centred above the timeline, drawn as the movie review draws it (``ControlsPicture``): the bar light
  /// inside the trim and dim outside it, the handles yellow, the playhead red.
  package static func render(_ trim: LibraryTrim, picture: Picture?) -> Data {
    let size = LibraryGrid.canvas
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
    fill(&pixels, x: 0, y: 0, width: size.width, height: size.height, with: background)
    if let picture { copy(picture, into: &pixels, centredIn: LibraryTrim.pictureBox, at: 0, 0) }
    let parts = CameraControls.timelineParts(trim.timeline, size: size)
    let drawn: [(HVTRect, Colour)] =
      parts.inside.map { ($0, kept) } + parts.outside.map { ($0, cut) } + parts.handles.map { ($0, handle) }
      + (parts.playhead.map { [($0, playhead)] } ?? [])
    for (rect, colour) in drawn {
      fill(&pixels, x: rect.x, y: rect.y, width: rect.width, height: rect.height, with: colour)
    }
    return Data(pixels)
  }

  /// Paints a rectangle of the canvas.
  private static func fill(
    _ pixels: inout [UInt8], x: Int, y: Int, width: Int, height: Int, with colour: Colour
  ) {
    let stride = LibraryGrid.canvas.width * 4
    for row in max(0, y)..<min(LibraryGrid.canvas.height, y + height) {
      var offset = row * stride + max(0, x) * 4
      for _ in max(0, x)..<min(LibraryGrid.canvas.width, x + width) {
        pixels[offset] = colour.red
        pixels[offset + 1] = colour.green
        pixels[offset + 2] = colour.blue
        pixels[offset + 3] = 255
        offset += 4
      }
    }
  }

  /// Copies a picture centred in a `box` whose top-left corner is at (`x`, `y`) of the canvas, at most
  /// the box of it.
  private static func copy(
    _ picture: Picture, into pixels: inout [UInt8], centredIn box: HVTFrameSize, at x: Int, _ y: Int
  ) {
    copy(
      picture, into: &pixels, x: x + (box.width - min(picture.width, box.width)) / 2,
      y: y + (box.height - min(picture.height, box.height)) / 2, clip: box)
  }

  /// Copies a picture's rows to (`x`, `y`) of the canvas, at most `clip` of it.
  private static func copy(_ picture: Picture, into pixels: inout [UInt8], x: Int, y: Int, clip: HVTFrameSize) {
    let stride = LibraryGrid.canvas.width * 4
    let width = min(picture.width, clip.width)
    picture.bytes.withUnsafeBytes { source in
      for row in 0..<min(picture.height, clip.height) {
        let from = row * picture.width * 4
        let to = (y + row) * stride + x * 4
        guard from + width * 4 <= source.count, to + width * 4 <= pixels.count else { return }
        for byte in 0..<(width * 4) { pixels[to + byte] = source[from + byte] }
      }
    }
  }
}
