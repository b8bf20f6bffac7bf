import Foundation
import MediaInspection
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

/// The default controls' layout and keys, the square crop, and editing without the review screen. The
/// controls in a real window, clicked and typed at, are tested under Xvfb (hvtcamTests).
@Suite("Camera controls and editing", .timeLimit(.minutes(2)))
struct CameraControlsTests {
  private let size = HVTFrameSize(width: 640, height: 480)
  private let live = CameraControls.Look(
    mode: .photo, flash: .auto, canSwitchMode: true, editing: true, recording: nil, review: nil)

  @Test(
    "clicks by zone: top bar flash and camera, bottom bar Cancel (Pause while recording), shutter and mode; the review's two buttons"
  )
  func zones() {
    let click = { (x: Double, y: Double, look: CameraControls.Look) in
      CameraControls.action(clickAt: x, y, size: size, look: look)
    }
    #expect(click(50, 20, live) == .flash && click(600, 20, live) == .switchCamera)
    #expect(
      click(50, 460, live) == .cancel && click(320, 460, live) == .shutter && click(600, 460, live) == .switchMode)
    #expect(click(320, 240, live) == nil, "the picture itself is no button")
    var review = live
    review.review = CameraControls.Review(crop: nil)
    #expect(click(50, 460, review) == .retake && click(600, 460, review) == .use)
    #expect(click(320, 460, review) == nil && click(50, 20, review) == nil, "no shutter or flash on the review")
    var single = live
    single.canSwitchMode = false
    #expect(click(600, 460, single) == nil, "no mode switch with one media type")
    var recording = live
    (recording.mode, recording.recording) = (.video, (3, 600))
    #expect(click(50, 460, recording) == .pauseOrResume, "Cancel becomes Pause while recording")
  }

  @Test("keys: space, Escape, f, c, m live, p while recording; Enter, r, Escape, arrows and +/- on the review")
  func keys() {
    let key = { (name: String, look: CameraControls.Look) in CameraControls.action(key: name, look: look, size: size) }
    #expect(key("space", live) == .shutter && key("Escape", live) == .cancel && key("f", live) == .flash)
    #expect(key("c", live) == .switchCamera && key("m", live) == .switchMode && key("Left", live) == nil)
    var recording = live
    (recording.mode, recording.recording) = (.video, (3, 600))
    #expect(key("p", live) == nil && key("p", recording) == .pauseOrResume && key("Escape", recording) == .cancel)
    var review = live
    review.review = CameraControls.Review(crop: HVTRect(x: 80, y: 0, width: 480, height: 480))
    #expect(key("Return", review) == .use && key("r", review) == .retake && key("Escape", review) == .cancel)
    #expect(key("Right", review) == .moveCrop(dx: 24, dy: 0) && key("Up", review) == .moveCrop(dx: 0, dy: -24))
    #expect(key("plus", review) == .scaleCrop(1.1) && key("space", review) == nil)
  }

  @Test("labels follow the state: flash mode, the record button's clock, Pause and Resume, the review's buttons")
  func labels() {
    let text = { (button: CameraControls.Button, look: CameraControls.Look) in CameraControls.label(button, look) }
    var recording = live
    (recording.mode, recording.flash, recording.recording) = (.video, .on, (65.4, 600))
    #expect(text(.flash, recording) == "Flash: On" && text(.shutter, recording) == "( Stop )  01:05 / 10:00")
    #expect(text(.left, live) == "Cancel" && text(.left, recording) == "Pause")
    recording.paused = true
    #expect(text(.left, recording) == "Resume")
    var review = live
    review.review = CameraControls.Review(crop: nil)
    #expect(text(.left, review) == "Retake" && text(.right, review) == "Use Photo" && text(.shutter, review) == nil)
  }

  @Test("one composition: a shaded box per shown button, each inside its click zone; the crop box on the review")
  func composition() throws {
    let boxes = { (look: CameraControls.Look) in
      try #require(ControlsPicture(look: look, size: size).render()).rectangles.map(\.placement)
    }
    let actions = try boxes(live).map { box in
      CameraControls.action(
        clickAt: Double(box.x) + Double(box.width) / 2, Double(box.y) + Double(box.height) / 2, size: size, look: live)
    }
    #expect(
      actions == [.flash, .switchCamera, .cancel, .shutter, .switchMode], "in the order of CameraControls.Button")
    #expect(try boxes(live).allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.width <= 640 && $0.y + $0.height <= 480 })
    var review = live
    review.review = CameraControls.Review(crop: HVTRect(x: 80, y: 0, width: 480, height: 480))
    let reviewed = try boxes(review)
    // Two shades (no room above or below the full-height box), four edges, Retake and Use Photo.
    #expect(reviewed.count == 8, "\(reviewed)")
    #expect(reviewed.prefix(2).map { [$0.x, $0.y, $0.width, $0.height] } == [[0, 0, 80, 480], [560, 0, 80, 480]])
    review.editing = false
    #expect(try boxes(review).count == 2, "no crop box without editing")
    var single = live
    single.canSwitchMode = false
    #expect(try boxes(single).count == 4, "no mode button with one media type")
  }

  @Test(
    "a movie's review: Use Video; Left/Right a second, comma/period a frame, Home/End; [ and ] only when editing"
  )
  func movieReviewKeys() {
    let key = { (name: String, look: CameraControls.Look) in CameraControls.action(key: name, look: look, size: size) }
    var movie = live
    movie.review = CameraControls.Review(
      crop: nil, timeline: CameraControls.Timeline(duration: 5, frameInterval: 0.04, limit: 600, editing: true))
    #expect(CameraControls.label(.right, movie) == "Use Video" && CameraControls.label(.left, movie) == "Retake")
    #expect(key("Return", movie) == .use && key("r", movie) == .retake && key("Escape", movie) == .cancel)
    #expect(key("Left", movie) == .movePlayhead(seconds: -1) && key("Right", movie) == .movePlayhead(seconds: 1))
    #expect(key("comma", movie) == .stepFrames(-1) && key("period", movie) == .stepFrames(1))
    #expect(
      key("Home", movie) == .movePlayhead(seconds: -.infinity) && key("End", movie) == .movePlayhead(seconds: .infinity)
    )
    #expect(key("bracketleft", movie) == .trimAtPlayhead(.start) && key("bracketright", movie) == .trimAtPlayhead(.end))
    #expect(key("plus", movie) == nil && key("space", movie) == nil, "no crop, no shutter")
    movie.review?.timeline?.trim = nil
    #expect(key("bracketleft", movie) == nil && key("bracketright", movie) == nil, "no handles without editing")
  }

  @Test("a movie's timeline: the bar above the bottom bar, handles and playhead at their times; presses grab or seek")
  func timeline() throws {
    var timeline = CameraControls.Timeline(duration: 4, frameInterval: 0.04, limit: 600, editing: true)
    timeline.trim = 1...3
    timeline.playhead = 2
    var look = live
    look.review = CameraControls.Review(crop: nil, timeline: timeline)
    #expect(CameraControls.timelineBar(size: size) == HVTRect(x: 32, y: 388, width: 576, height: 12))
    let parts = CameraControls.timelineParts(look, size: size)
    #expect(parts.inside == [HVTRect(x: 176, y: 388, width: 288, height: 12)])
    #expect(parts.outside.map(\.width) == [144, 144] && parts.handles.map(\.x) == [174, 462])
    #expect(parts.playhead == HVTRect(x: 319, y: 382, width: 2, height: 24))
    let target = { (x: Double, y: Double) in CameraControls.timelineTarget(at: x, y, size: size, look: look) }
    #expect(target(180, 394) == .handle(.start) && target(458, 380) == .handle(.end))
    #expect(target(32 + 576 / 8, 394) == .time(0.5) && target(320, 300) == nil && target(320, 460) == nil)
    // The picture draws them: the controls' two buttons, the bar's three parts, two handles, the playhead.
    let rectangles = try #require(ControlsPicture(look: look, size: size).render()).rectangles
    #expect(rectangles.count == 8, "\(rectangles.map(\.placement))")
  }

  @Test("the trim handles are clamped: within the limit of each other, at least a frame, on the movie")
  func handles() {
    var timeline = CameraControls.Timeline(duration: 10, frameInterval: 0.04, limit: 3, editing: true)
    #expect(timeline.trim == 0...3 && timeline.cutsMovie, "the 10 s movie is cut to the limit at first")
    timeline.moveHandle(.end, to: 8)
    #expect(timeline.trim == 0...3, "the end stops at the limit")
    timeline.moveHandle(.start, to: 5)
    #expect(timeline.trim == 2.96...3, "the start stops a frame before the end")
    timeline.moveHandle(.end, to: 20)
    #expect(timeline.trim == 2.96...5.96, "the end stops at the limit from the start")
    timeline.moveHandle(.start, to: -1)
    #expect(timeline.trim == 2.96...5.96, "the start stops at the limit from the end")
    timeline.moveHandle(.end, to: 2)
    #expect(timeline.trim.map { abs($0.upperBound - 3) < 1e-9 } == true, "the end stops a frame after the start")
    timeline.movePlayhead(to: 11)
    #expect(timeline.playhead == 9.96, "the playhead stops at the last frame")
    let whole = CameraControls.Timeline(duration: 2, frameInterval: 0.04, limit: 3, editing: true)
    #expect(whole.trim == 0...2 && !whole.cutsMovie, "a movie shorter than the limit is whole at first")
    #expect(CameraControls.Timeline(duration: 2, frameInterval: 0.04, limit: 3, editing: false).trim == nil)
  }

  @Test("the crop is square and inside the photo; without a request, the largest centred square")
  func square() {
    #expect(EditedPhoto.square(nil, width: 640, height: 480) == HVTRect(x: 80, y: 0, width: 480, height: 480))
    #expect(
      EditedPhoto.square(HVTRect(x: 500, y: -10, width: 300, height: 200), width: 640, height: 480)
        == HVTRect(x: 440, y: 0, width: 200, height: 200))
    #expect(EditedPhoto.square(HVTRect(x: 0, y: 0, width: 2000, height: 2000), width: 640, height: 480).width == 480)
  }

  @Test("allowsEditing without the review screen: editingCropRect's square as .editedImage, of those pixels")
  func headlessEditing() async throws {
    let camera = try TestCamera(present: false)
    camera.controller.allowsEditing = true
    camera.controller.editingCropRect = HVTRect(x: 100, y: 60, width: 300, height: 200)
    try await camera.controller.presentAndWait()
    let photo = try await camera.controller.capturePhoto()
    let edit = try #require(photo.edit, "an edited photo")
    #expect(edit.cropRect == HVTRect(x: 100, y: 60, width: 200, height: 200))
    #expect(edit.image.width == 200 && edit.image.height == 200)
    #expect(photo.info[.cropRect] as? HVTRect == edit.cropRect && photo.info[.editedImage] is HVTImage)
    let edited = camera.directory.appendingPathComponent("edited.jpg")
    try edit.image.jpegData.write(to: edited)
    let discovered = try await MediaInspector.discover(edited.path)
    #expect(discovered.isJPEG && discovered.size == "200x200", "\(discovered)")
    let original = try await RGBImage.decode(photo.url.path, width: 640, height: 480)
    let cropped = try await RGBImage.decode(edited.path, width: 200, height: 200)
    var differences = 0
    for y in stride(from: 5, to: 200, by: 15) {
      for x in stride(from: 5, to: 200, by: 15) where cropped.colourName(x, y) != original.colourName(100 + x, 60 + y) {
        differences += 1
      }
    }
    #expect(differences <= 3, "\(differences) of 196 sampled pixels differ")
    await camera.controller.dismissAndWait()
  }

  @Test("an edited photo of a 1080p camera's whole height is scaled to editedImageMaximumDimension (1024), a JPEG")
  func editedPhotoLimit() async throws {
    let camera = try TestCamera(quality: .type1920x1080, present: false)
    camera.controller.allowsEditing = true
    try await camera.controller.presentAndWait()
    let photo = try await camera.controller.capturePhoto()
    let edit = try #require(photo.edit, "an edited photo")
    #expect(edit.cropRect == HVTRect(x: 420, y: 0, width: 1080, height: 1080), "the centred square")
    let limit = HVTCameraController.editedImageMaximumDimension
    #expect(limit == 1024 && edit.image.width == limit && edit.image.height == limit)
    let edited = camera.directory.appendingPathComponent("edited-limit.jpg")
    try edit.image.jpegData.write(to: edited)
    let discovered = try await MediaInspector.discover(edited.path)
    #expect(discovered.isJPEG && discovered.size == "1024x1024", "\(discovered)")
    await camera.controller.dismissAndWait()
  }
}
