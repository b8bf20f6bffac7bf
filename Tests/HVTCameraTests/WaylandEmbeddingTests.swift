import Foundation
import MediaInspection
import Testing
import WaylandHarness

@testable import HVTCamera

/// ``HVTPreviewOutput/waylandSurface(display:surface:rectangle:)``: the preview drawn into a surface of a
/// small real Wayland client (``WaylandClientWindow``, a grey window) on a headless sway, through the
/// client's own connection, read back by `grim`.
@Suite(
  "Embedding in a Wayland app's surface", .serialized, .timeLimit(.minutes(2)),
  .enabled(if: PrivateCompositor.unavailableReason == nil, "\(PrivateCompositor.unavailableReason ?? "")"))
struct WaylandEmbeddingTests {
  /// Whether the picture shows the simulated camera's bars within `area`.
  static func showsBars(_ image: RGBImage, in area: HVTRect) -> Bool {
    image.barNames(in: (area.x, area.y, area.width, area.height)) == RGBImage.smpteBars
  }

  /// Whether the pixel at (`x`, `y`) is the app's own grey.
  static func isGrey(_ image: RGBImage, _ x: Int, _ y: Int) -> Bool {
    let (r, g, b) = image.pixel(x, y)
    let grey = WaylandClientWindow.grey
    return [(r, grey.r), (g, grey.g), (b, grey.b)].allSatisfy { abs(Int($0) - Int($1)) <= 2 }
  }

  @Test("drawn in the app's surface within its rectangle, the app's grey around it; setPreviewRectangle moves it")
  func embedded() async throws {
    let compositor = try await PrivateCompositor.start(width: 1280, height: 720)
    defer { compositor.stop() }
    let app = try WaylandClientWindow(on: compositor, title: "embedding app")
    let camera = try TestCamera(mode: .photo, present: false)
    let first = HVTRect(x: 100, y: 80, width: 640, height: 480)
    camera.controller.previewOutput = .waylandSurface(
      display: app.displayHandle, surface: app.surfaceHandle, rectangle: first)
    try await camera.controller.presentAndWait()
    app.commit()
    let shown = try await compositor.screenshot { Self.showsBars($0, in: first) }
    #expect(Self.showsBars(shown, in: first), "the camera in the rectangle: \(shown.barNames(in: (100, 80, 640, 480)))")
    #expect(Self.isGrey(shown, 50, 40) && Self.isGrey(shown, 1000, 650), "the app's window around it")
    let windows = try await compositor.windows()
    #expect(windows.map(\.title) == ["embedding app"], "no window of the sink's own: \(windows)")

    let second = HVTRect(x: 560, y: 200, width: 640, height: 480)
    camera.controller.setPreviewRectangle(second)
    // The sink moves its subsurface at once; the move shows at the app's next commit (the test's stands for
    // a toolkit's redraw: the screenshots repeat until it is seen).
    let moved = try await compositor.screenshot {
      app.commit()
      return Self.showsBars($0, in: second) && Self.isGrey($0, 120, 100)
    }
    #expect(Self.showsBars(moved, in: second), "moved: \(moved.barNames(in: (560, 200, 640, 480)))")
    #expect(Self.isGrey(moved, 120, 100), "the first place shows the app's grey again")
    await camera.controller.dismissAndWait()
  }
}
