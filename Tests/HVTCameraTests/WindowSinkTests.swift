import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

/// How a window or embedded preview's sink is chosen, and how HVT_PREVIEW_SINK forces one.
@Suite("Window sink choice")
struct WindowSinkTests {
  @Test("X11: the scaling sinks first when embedded; Wayland first when there is one; none without a display")
  func candidates() {
    let x11 = ["DISPLAY": ":1"]
    #expect(WindowSink.candidates(environment: x11) == ["xvimagesink", "ximagesink", "glimagesink"])
    #expect(WindowSink.candidates(environment: x11, overlayOnly: true) == ["xvimagesink", "glimagesink", "ximagesink"])
    #expect(
      WindowSink.candidates(environment: x11.merging(["WAYLAND_DISPLAY": "wayland-1"]) { $1 })
        == ["waylandsink", "glimagesink", "xvimagesink", "ximagesink"])
    #expect(WindowSink.candidates(environment: [:]).isEmpty)
  }

  @Test("HVT_PREVIEW_SINK names the one sink to try, in a window and embedded; empty, it is ignored")
  func forced() {
    let forced = ["DISPLAY": ":1", WindowSink.override: "glimagesink"]
    #expect(WindowSink.candidates(environment: forced) == ["glimagesink"])
    #expect(WindowSink.candidates(environment: forced, overlayOnly: true) == ["glimagesink"])
    #expect(WindowSink.candidates(environment: ["DISPLAY": ":1", WindowSink.override: ""]).count == 3)
  }

  @Test("a forced sink that is not installed fails, naming it and the variable")
  func forcedMissing() {
    #expect {
      try WindowSink.choose(environment: ["DISPLAY": ":1", WindowSink.override: "nosuchsink"])
    } throws: { error in
      guard case .noDisplay(let reason) = error as? HVTCameraError else { return false }
      return reason.hasPrefix("none of nosuchsink (HVT_PREVIEW_SINK) is installed")
    }
  }
}

/// Where a sink shows the picture in a window HVTCamera opens itself (Wayland), for mapping clicks back to
/// the picture's pixels: as `gst_video_center_rect` places it.
@Suite("The picture's place in a window")
struct PictureFitTests {
  @Test(
    "centred at the largest size that keeps its shape",
    arguments: [
      ((640, 480), (1280, 720), (160, 0, 960, 720)), ((640, 480), (640, 480), (0, 0, 640, 480)),
      ((1280, 720), (640, 480), (0, 60, 640, 360)), ((640, 480), (0, 480), (0, 0, 0, 0)),
    ])
  func fit(frame: (Int, Int), window: (Int, Int), expected: (Int, Int, Int, Int)) {
    let placed = PictureFit.rectangle(of: HVTFrameSize(width: frame.0, height: frame.1), in: window)
    #expect(placed == expected, "\(frame) in \(window)")
  }
}
