import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The simulated camera's controls: brightness, contrast and saturation (`videobalance`) and zoom
/// (`videocrop` and `videoscale`), set while it runs and kept for its next start, as a V4L2 camera's are
/// (those are tested on vivid, in the real-camera tier).
@Suite("Simulated camera controls", .timeLimit(.minutes(2)))
struct SimulatedCameraControlsTests {
  /// A photo of a frame that passed the tee after the call: the frame in the camera's elements when a
  /// value changed may still have had the old one, so two more frames are let through the preview first.
  private func photoAfterNow(_ camera: TestCamera, _ frames: FrameCollector) async throws -> HVTCapture {
    await frames.next(2)
    return try await camera.controller.capturePhoto()
  }

  private func store(in camera: TestCamera) -> HVTCameraSettingsStore {
    HVTCameraSettingsStore(url: camera.directory.appendingPathComponent("controls.json"))
  }

  @Test("four controls with their ranges; brightness and zoom set while the camera runs are in the next photos")
  func setWhileRunning() async throws {
    let camera = try TestCamera(present: false)
    camera.controller.cameraSettingsStore = store(in: camera)
    let frames = FrameCollector(keeping: 1)
    camera.controller.previewOutput = frames.output(.i420)
    try await camera.controller.presentAndWait()
    let controls = try camera.controller.cameraControls()
    #expect(controls.path == nil && controls.cameraID == "simulated:rear")
    #expect(
      try controls.all().map(\.description) == [
        "brightness = 128 (0…255, default 128)", "contrast = 128 (0…255, default 128)",
        "saturation = 128 (0…255, default 128)", "zoom_absolute = 100 (100…400, default 100)",
      ])
    let plain = try await photoAfterNow(camera, frames)
    try controls.set("brightness", to: 180)
    let bright = try await photoAfterNow(camera, frames)
    let (plainLuma, brightLuma) = (
      try await MediaInspector.meanLuma(ofJPEG: plain.url.path),
      try await MediaInspector.meanLuma(ofJPEG: bright.url.path)
    )
    #expect(brightLuma > plainLuma + 0.1, "brightness 180: \(brightLuma), 128: \(plainLuma)")

    try controls.set("brightness", to: 128)
    try controls.set("zoom_absolute", to: 200)
    let zoomed = try await photoAfterNow(camera, frames)
    // Twice the zoom shows x 160…480 of the bars, scaled to 640: yellow at the left edge, green in the
    // middle, red at the right edge; the whole frame has white and blue there.
    let image = try await RGBImage.decode(zoomed.url.path, width: 640, height: 480)
    #expect(
      [image.colourName(20, 160), image.colourName(320, 160), image.colourName(620, 160)] == ["yellow", "green", "red"])
    #expect(zoomed.image?.width == 640 && zoomed.image?.height == 480)
    let whole = try await RGBImage.decode(plain.url.path, width: 640, height: 480)
    #expect([whole.colourName(20, 160), whole.colourName(620, 160)] == ["white", "blue"])
    #expect(try controls.control(named: "zoom_absolute").value == 200)
    await camera.controller.dismissAndWait()
  }

  @Test("values kept for the simulated camera are applied before its first frame when it starts again")
  func keptValuesApplyAtStart() async throws {
    let first = try TestCamera(present: false)
    let store = store(in: first)
    first.controller.cameraSettingsStore = store
    try await first.controller.presentAndWait()
    let plain = try await first.controller.capturePhoto()
    try first.controller.cameraControls().set("brightness", to: 200)
    await first.controller.dismissAndWait()
    #expect(store.values(for: "simulated:rear") == ["brightness": 200])

    let second = try TestCamera(present: false)
    second.controller.cameraSettingsStore = store
    try await second.controller.presentAndWait()
    let (applied, failed) = try await second.delegate.nextEvent { event in
      if case .cameraControlsApplied(let applied, let failed) = event { (applied, failed) } else { nil }
    }
    #expect(applied == ["brightness": 200] && failed.isEmpty)
    let firstPhoto = try await second.controller.capturePhoto()
    let (plainLuma, keptLuma) = (
      try await MediaInspector.meanLuma(ofJPEG: plain.url.path),
      try await MediaInspector.meanLuma(ofJPEG: firstPhoto.url.path)
    )
    #expect(keptLuma > plainLuma + 0.1, "kept brightness 200: \(keptLuma), 128: \(plainLuma)")
    #expect(try second.controller.cameraControls().control(named: "brightness").value == 200)
    await second.controller.dismissAndWait()
  }

  @Test("a value out of range and a control the camera lacks are refused, saying why; nothing is kept")
  func refusals() async throws {
    let camera = try TestCamera(present: false)
    let store = store(in: camera)
    camera.controller.cameraSettingsStore = store
    try await camera.controller.presentAndWait()
    let controls = try camera.controller.cameraControls()
    #expect(
      throws: HVTCameraError.controlRejected(
        name: "zoom_absolute", value: 50, camera: "simulated:rear", reason: "it takes 100…400")
    ) {
      try controls.set("zoom_absolute", to: 50)
    }
    let unknown = #expect(throws: HVTCameraError.self) { try controls.set("exposure_time_absolute", to: 10) }
    #expect("\(unknown.map { "\($0)" } ?? "")".contains("brightness, contrast, saturation, zoom_absolute"))
    #expect(store.values(for: "simulated:rear").isEmpty)
    await camera.controller.dismissAndWait()
  }
}
