import Foundation
import HVTGStreamer
import HVTSupport
import MediaInspection
import Testing
import WaylandHarness

@testable import HVTCamera

/// ``HVTPreviewOutput/gtk4Paintable(handler:)``: where `gtk4paintablesink` is missing (Debian 12),
/// presenting fails naming the package to install; where it is installed (the Debian 13 tier), the
/// paintable is handed to a small GTK 4 program (``Gtk4PictureWindow``: a `GtkPicture` in a grey window on
/// a headless sway) on GTK's thread, and the camera's bars are read back by `grim`.
@Suite("GTK 4 paintable", .serialized, .timeLimit(.minutes(2)))
struct GTK4PaintableTests {
  static let sinkInstalled = HVTElementDescription.isInstalled(HVTPipelineModel.gtk4PaintableSink)

  /// Why the GTK 4 program cannot show the paintable here, or `nil`.
  static let unshowableReason: String? =
    sinkInstalled
    ? Gtk4PictureWindow.unavailableReason
    : "gtk4paintablesink is not installed (Debian 13 and later: gstreamer1.0-gtk4; the Debian 13 tier runs this)"

  @Test(
    "without gtk4paintablesink, presenting fails with an error naming its Debian package",
    .enabled(if: !sinkInstalled, "gtk4paintablesink is installed here"))
  func missingSink() async throws {
    let camera = try TestCamera(mode: .photo, present: false)
    camera.controller.previewOutput = .gtk4Paintable { _ in Issue.record("a paintable without the sink") }
    let error = await #expect(throws: HVTCameraError.self) { try await camera.controller.presentAndWait() }
    guard case .noInstalledCandidate(_, let candidates, let hint)? = error else {
      Issue.record("expected noInstalledCandidate, got \(String(describing: error))")
      return
    }
    #expect(candidates == ["gtk4paintablesink"])
    #expect(hint?.contains("gstreamer1.0-gtk4") == true, "\(hint ?? "no hint")")
    #expect(
      error?.description.contains("gtk4paintablesink is installed (Debian 13 and later: gstreamer1.0-gtk4") == true,
      "\(error?.description ?? "")")
    #expect(!camera.controller.isPresented)
  }

  @Test(
    "no main loop: presenting fails; in a GTK 4 GtkPicture: handed on GTK's thread, bars shown, handed anew, sinks finalized",
    .enabled(if: unshowableReason == nil, "\(unshowableReason ?? "")"))
  func shownInPicture() async throws {
    // Before GTK runs: the sink would make its paintable on the controller's thread, where GTK cannot use it.
    do {
      let camera = try TestCamera(mode: .photo, present: false)
      camera.controller.previewOutput = .gtk4Paintable { _ in Issue.record("a paintable without GTK's loop") }
      let error = await #expect(throws: HVTCameraError.self) { try await camera.controller.presentAndWait() }
      guard case .noDisplay(let reason)? = error else {
        Issue.record("expected noDisplay, got \(String(describing: error))")
        return
      }
      #expect(reason.contains("GTK's main loop"), "\(reason)")
    }
    let compositor = try await PrivateCompositor.start(width: 1280, height: 720)
    defer { compositor.stop() }
    let app = try await Gtk4PictureWindow.open(on: compositor, title: "GTK 4 app")
    var failure: (any Error)?
    do {
      try await Self.show(in: app, on: compositor)
    } catch {
      failure = error
    }
    try await app.close()
    if let failure { throw failure }
  }

  @Test("a replaced frames preview's sink is finalized, the camera's first one too")
  func replacedFinalized() async throws {
    let camera = try TestCamera(mode: .photo, present: false)
    camera.controller.previewOutput = .frames(format: .rgba) { _ in }
    try await camera.controller.presentAndWait()
    let replaced = try Self.whenFinalized(#require(camera.controller.currentSession).preview.sink)
    camera.controller.previewOutput = .frames(format: .rgba) { _ in }
    #expect(await Self.arrives(replaced, within: 10), "the replaced sink was finalized")
    await camera.controller.dismissAndWait()
  }

  /// Whether the pixel at (`x`, `y`) is the app's own grey.
  static func isGrey(_ image: RGBImage, _ x: Int, _ y: Int) -> Bool {
    let (r, g, b) = image.pixel(x, y)
    let grey = Gtk4PictureWindow.grey
    return [(r, grey.r), (g, grey.g), (b, grey.b)].allSatisfy { abs(Int($0) - Int($1)) <= 2 }
  }

  static func show(in app: Gtk4PictureWindow, on compositor: PrivateCompositor) async throws {
    // The 640x480 picture, contained in the 1280x720 window: 960x720, centred.
    let picture = (x: 160, y: 0, width: 960, height: 720)
    let handed = Locked<[Bool]>([])
    let output = HVTPreviewOutput.gtk4Paintable { paintable in
      handed.withLock { $0.append(app.isOnGtkThread) }
      app.show(paintable.pointer)
    }
    let showsBars = { (image: RGBImage) in image.barNames(in: picture) == RGBImage.smpteBars }
    let camera = try TestCamera(mode: .photo, present: false)
    camera.controller.previewOutput = output
    try await camera.controller.presentAndWait()
    let shown = try await compositor.screenshot { showsBars($0) }
    #expect(showsBars(shown), "the camera in the picture: \(shown.barNames(in: picture))")
    #expect(isGrey(shown, 80, 360) && isGrey(shown, 1200, 360), "the window's grey beside it")
    #expect(handed.withLock { $0 } == [true], "handed once, on GTK's thread")
    let windows = try await compositor.windows()
    #expect(windows.map(\.title) == ["GTK 4 app"], "no window of the sink's own: \(windows)")

    // A new preview has a new sink and paintable, handed again.
    let first = try whenFinalized(#require(camera.controller.currentSession).preview.sink)
    camera.controller.previewOutput = output
    let again = try await compositor.screenshot { handed.withLock { $0.count } == 2 && showsBars($0) }
    #expect(handed.withLock { $0 } == [true, true], "handed again, on GTK's thread")
    #expect(showsBars(again), "the new paintable: \(again.barNames(in: picture))")

    // A replaced sink is finalized, though the picture held its paintable: the camera's first (which
    // messages waiting on the bus held until the camera stopped, before its handler dropped them) and the
    // one attached to the running camera.
    #expect(await arrives(first, within: 10), "the first sink, replaced, was finalized")
    let second = try whenFinalized(#require(camera.controller.currentSession).preview.sink)
    camera.controller.previewOutput = .none
    #expect(await arrives(second, within: 10), "the second sink, replaced, was finalized")
    await camera.controller.dismissAndWait()
  }

  /// A stream that ends once `sink` is finalized.
  static func whenFinalized(_ sink: Element) -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    sink.onFinalize { continuation.finish() }
    return stream
  }

  /// Whether `stream` ends within `seconds`.
  static func arrives(_ stream: AsyncStream<Void>, within seconds: Double) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await _ in stream {}
        return !Task.isCancelled
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(seconds))
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }
}
