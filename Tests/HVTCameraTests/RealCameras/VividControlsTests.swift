import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// A real camera's controls (vivid's user controls): listed with their ranges and defaults, set while the
/// camera runs with a visible effect on its frames, refused with a reason when out of range.
@Suite("RealCamera: vivid's controls", .serialized, .enabled(if: VividCameras.tier != nil), .timeLimit(.minutes(3)))
struct VividControlsTests {
  @Test("brightness, contrast, saturation, hue and gain are listed with their ranges, defaults and flags")
  func listing() throws {
    let rear = try #require(HVTCameraDeviceInfo.allCameras().first { $0.path == VividCameras.rear })
    let controls = try HVTCameraControls(camera: rear, store: .init(url: URL(fileURLWithPath: "/nonexistent")))
    let all = try controls.all()
    let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let brightness = try #require(byName["brightness"], "\(all.map(\.name))")
    #expect(brightness.kind == .integer(minimum: 0, maximum: 255, step: 1) && brightness.defaultValue == 128)
    #expect(byName["hue"]?.kind == .integer(minimum: -128, maximum: 128, step: 1))
    #expect(byName["contrast"] != nil && byName["saturation"] != nil)
    #expect(byName["gain_automatic"]?.kind == .boolean && byName["gain_automatic"]?.value == 1)
    #expect(byName["gain"]?.isInactive == true, "gain is inactive while gain_automatic is on")
    #expect(byName["read_only_integer_32_bits"]?.isReadOnly == true)
    #expect(byName["button"]?.kind == .button && byName["button"]?.value == nil)
    if case .menu(let items)? = byName["menu"]?.kind {
      #expect(items.map(\.value) == [1, 3, 4], "vivid's menu leaves out item 2")
    } else {
      Issue.record("no menu control: \(all.map(\.name))")
    }
    // vivid's own test controls (arrays, strings) are not for users: left out.
    #expect(byName["string"] == nil && byName["u8_pixel_array"] == nil)
  }

  @Test("brightness set while the camera runs brightens the photos; a value out of range is refused")
  func brightnessWhileRunning() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let camera = try TestCamera(source: .automatic, quality: .type640x480, present: false)
    camera.controller.cameraSettingsStore = HVTCameraSettingsStore(url: directory.appendingPathComponent("c.json"))
    try await camera.controller.presentAndWait()
    let controls = try camera.controller.cameraControls()
    try controls.set("brightness", to: 128)
    camera.controller.takePicture()
    let before = try await MediaInspector.meanLuma(ofJPEG: try camera.delegate.nextCapture(.image).imageURL.path)
    let set = try controls.set("brightness", to: 230)
    #expect(set.value == 230)
    #expect(try await VividCameras.control("brightness", on: VividCameras.rear) == 230)
    // The frames already on their way were made before the change: photos until one shows it, at most ten.
    var after = before
    for _ in 0..<10 where after < before + 0.1 {
      camera.controller.takePicture()
      after = try await MediaInspector.meanLuma(ofJPEG: try camera.delegate.nextCapture(.image).imageURL.path)
    }
    #expect(after >= before + 0.1, "mean luma (0 to 1) \(before) → \(after)")
    #expect(throws: HVTCameraError.self) { try controls.set("brightness", to: 300) }
    #expect(throws: HVTCameraError.self) { try controls.set("no_such_control", to: 1) }
    try controls.set("brightness", to: 128)
    await camera.controller.dismissAndWait()
  }
}

extension VividControlsTests {
  @Test("a node without a flash LED refuses the flash controls with the kernel's reason")
  func noFlash() throws {
    #expect(!V4L2Controls.hasFlash(path: VividCameras.rear))
    let flash = V4L2Flash(device: try V4L2Node(path: VividCameras.rear))
    #expect {
      try flash.fire()
    } throws: { error in
      (error as? V4L2Failure)?.request == "VIDIOC_S_EXT_CTRLS" && (error as? V4L2Failure)?.errno == EINVAL
    }
  }
}
