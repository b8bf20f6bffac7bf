import Foundation
import MediaInspection
import Testing

/// `hvtcam run` used as a person uses it, on a private Xvfb: real keys and clicks (`xdotool`) in its
/// window, screenshots of it (`ximagesrc`), the files it keeps read by FFmpeg and the discoverer.
@Suite("hvtcam run: the camera interface on Xvfb", .serialized, .timeLimit(.minutes(2)))
struct InteractiveCameraTests {
  /// The "Flash: Auto" button over the white bar: its shaded background makes dark pixels there.
  private static func flashButtonPixels(_ image: RGBImage) -> Int { image.count(in: 12..<85, 10..<38, dark: true) }

  @Test(
    "controls shown; space opens the review; Retake keeps nothing, Use Photo delivers; Escape cancels, exit 0; no leak"
  )
  func reviewAndCancel() async throws {
    let camera = try await InteractiveCamera(tracingLeaks: true)
    let live = try await camera.screenshot()
    #expect(Self.flashButtonPixels(live) > 200, "the flash button is drawn")
    #expect(live.shutterLabelPixels > 100, "the shutter's label is drawn")
    #expect(live.barNames() == RGBImage.smpteBars, "the camera is shown")
    try await camera.keepScreenshot("interface-controls")

    var mark = camera.mark
    try await camera.key("space")
    let first = try await camera.line("the review", after: mark) { $0.hasPrefix("reviewing ") }
    let review = try await camera.screenshot { $0.shutterLabelPixels < 20 }
    #expect(review.shutterLabelPixels < 20, "the review screen has no shutter")
    #expect(review.count(in: 500..<630, 435..<470, dark: false) > 50, "Use Photo is drawn")
    try await camera.keepScreenshot("interface-review")
    mark = camera.mark
    try await camera.click(100, 450)  // Retake
    try await camera.line("the photo discarded", after: mark) { $0 == "photo discarded" }
    #expect(try camera.directory.contents().isEmpty, "a retaken photo leaves no file: \(first)")

    mark = camera.mark
    try await camera.key("space")
    try await camera.line("the second review", after: mark) { $0.hasPrefix("reviewing ") }
    mark = camera.mark
    try await camera.click(560, 450)  // Use Photo
    try await camera.line("the photo used", after: mark) { $0 == "photo used" }
    let result = try await camera.cancel()
    defer { camera.directory.remove() }
    #expect(result.succeeded, "Escape cancels and hvtcam exits 0: \(result)")
    #expect(result.outputLines.count == 1, "only the used photo is delivered: \(result)")
    let photo = try #require(result.outputLines.first)
    let discovered = try await MediaInspector.discover(photo)
    #expect(discovered.isJPEG && discovered.size == "640x480", "\(discovered)")
    let image = try await RGBImage.decode(photo, width: 640, height: 480)
    #expect(Self.flashButtonPixels(image) == 0 && image.shutterLabelPixels == 0, "no controls in the photo")
    #expect(try camera.directory.contents() == [URL(fileURLWithPath: photo).lastPathComponent])
    // Every label change rendered the controls anew; none of the compositions is left.
    LeakTests.expectNoLeaks(result)
  }

  @Test("c switches to the front camera: its picture (a moving ball on black) replaces the bars; Escape still cancels")
  func switchCamera() async throws {
    let camera = try await InteractiveCamera()
    let mark = camera.mark
    try await camera.key("c")
    try await camera.line("the front camera ready", after: mark) { $0 == "ready" }
    let front = try await camera.screenshot { $0.colourName(320, 160) == "black" }
    #expect(front.barNames() != RGBImage.smpteBars && front.colourName(320, 160) == "black", "the ball pattern")
    let result = try await camera.cancel()
    camera.directory.remove()
    #expect(result.succeeded, "\(result)")
  }

  @Test("--no-controls: nothing drawn on the camera; keys reach the app, whose space takes a photo at once")
  func noControls() async throws {
    let camera = try await InteractiveCamera(["--no-controls"])
    let shown = try await camera.screenshot()
    #expect(Self.flashButtonPixels(shown) == 0 && shown.shutterLabelPixels == 0, "no controls")
    #expect(shown.barNames() == RGBImage.smpteBars)
    let mark = camera.mark
    try await camera.key("space")
    try await camera.line("the key, as the app saw it", after: mark) { $0 == "key space" }
    try await camera.line("the photo kept", after: mark) { $0.hasPrefix("kept IMG_") }
    let result = try await camera.cancel()
    defer { camera.directory.remove() }
    #expect(result.succeeded, "\(result)")
    #expect(result.outputLines.count == 1 && !result.standardError.contains("reviewing"), "\(result)")
  }

  @Test("--zoom 2 shows the centre of the frame; the photo taken is the whole frame")
  func zoom() async throws {
    let camera = try await InteractiveCamera(["--zoom", "2"])
    let shown = try await camera.screenshot()
    // Source x 160…480 fills the window: yellow, cyan, green, magenta, red.
    #expect(
      [20, 137, 320, 502, 625].map { shown.colourName($0, 160) } == ["yellow", "cyan", "green", "magenta", "red"])
    let review = try await camera.openReview()
    let reviewed = try await camera.screenshot { $0.barNames() == RGBImage.smpteBars }
    #expect(reviewed.barNames() == RGBImage.smpteBars, "the review shows the photo itself: \(review)")
    try await camera.usePhoto()
    let result = try await camera.cancel()
    defer { camera.directory.remove() }
    let photo = try #require(result.outputLines.first, "\(result)")
    #expect(try await RGBImage.decode(photo, width: 640, height: 480).barNames() == RGBImage.smpteBars)
  }

  @Test("--overlay: the image is on the preview, not in the photo")
  func overlay() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let square = directory.path("green.png")
    try await RGBImage.writeGreenSquarePNG(to: square)
    let camera = try await InteractiveCamera(["--overlay", square])
    // At 2 % of the width and 16 % of the height: x 13…77, y 77…141, over the white bar.
    let shown = try await camera.screenshot()
    #expect(shown.colourName(45, 110) == "green" && shown.colourName(45, 200) == "white")
    try await camera.openReview()
    try await camera.usePhoto()
    let result = try await camera.cancel()
    defer { camera.directory.remove() }
    let photo = try #require(result.outputLines.first, "\(result)")
    #expect(try await RGBImage.decode(photo, width: 640, height: 480).colourName(45, 110) == "white")
  }

  @Test(
    "--allows-editing: keys move and scale the crop box; .cropRect matches, the edited JPEG holds its pixels; no leak"
  )
  func editing() async throws {
    let camera = try await InteractiveCamera(["--allows-editing"], tracingLeaks: true)
    try await camera.openReview()
    // From the centred 480 × 480 square at x 80: three steps of 24 px right, then 1/1.1 of the size.
    try await camera.key("Right", "Right", "Right", "minus")
    let boxed = try await camera.screenshot { $0.count(in: 60..<150, 100..<300, dark: true) > 1000 }
    #expect(boxed.count(in: 60..<150, 100..<300, dark: true) > 1000, "the picture outside the box is shaded")
    try await camera.keepScreenshot("interface-crop")
    let crop = try await camera.useEditedPhoto()
    let result = try await camera.cancel()
    defer { camera.directory.remove() }
    #expect(crop.hasPrefix("crop 174,22 436x436 of "), "\(crop)")
    #expect(result.outputLines.count == 2, "the photo and its edited image: \(result)")
    let (original, edited) = (result.outputLines[0], result.outputLines[1])
    let discovered = try await MediaInspector.discover(edited)
    #expect(discovered.isJPEG && discovered.size == "436x436", "\(discovered)")
    let photo = try await RGBImage.decode(original, width: 640, height: 480)
    let cropped = try await RGBImage.decode(edited, width: 436, height: 436)
    // Above the noise in the bars' lower right: every sampled pixel of the edit is the photo's, 174 px
    // right and 22 px down.
    var differences: [String] = []
    for y in stride(from: 10, to: 290, by: 20) {
      for x in stride(from: 5, to: 430, by: 15) where cropped.colourName(x, y) != photo.colourName(174 + x, 22 + y) {
        differences.append("(\(x),\(y))")
      }
    }
    #expect(differences.count <= 4, "edge pixels at most: \(differences)")
    // Each move of the crop box rendered the controls anew; none of the compositions is left.
    LeakTests.expectNoLeaks(result)
  }

  @Test("--allows-editing: the mouse drags the crop box and the wheel scales it")
  func editingWithTheMouse() async throws {
    let camera = try await InteractiveCamera(["--allows-editing"])
    try await camera.openReview()
    // From the centred 480 × 480 square at x 80: 50 px right, then one wheel step down scales it by 1/1.1
    // about its centre.
    try await camera.drag(from: 320, 240, to: 370, 240)
    try await camera.wheelDown(at: 370, 240)
    let crop = try await camera.useEditedPhoto()
    let result = try await camera.cancel()
    defer { camera.directory.remove() }
    #expect(crop.hasPrefix("crop 152,22 436x436 of "), "\(crop)")
    #expect(result.succeeded && result.outputLines.count == 2, "\(result)")
  }

  @Test("--mode video: space starts and stops a recording, p pauses and resumes it; the record button shows the clock")
  func recordFromControls() async throws {
    let camera = try await InteractiveCamera(["--mode", "video"])
    defer { camera.directory.remove() }
    var mark = camera.mark
    try await camera.key("space")
    try await camera.line("the recording", after: mark) { $0 == "recording" }
    // "( Stop )  00:00 / 10:00" is wider than "( Record )".
    let recording = try await camera.screenshot { $0.count(in: 395..<450, 430..<472, dark: false) > 30 }
    #expect(recording.count(in: 395..<450, 430..<472, dark: false) > 30, "the record button shows the clock")
    // p pauses and resumes it.
    mark = camera.mark
    try await camera.key("p")
    try await camera.line("the pause", after: mark) { $0.hasPrefix("paused at ") }
    mark = camera.mark
    try await camera.key("p")
    try await camera.line("the resume", after: mark) { $0.hasPrefix("resumed at ") }
    let movie = try await stopRecordingAndCancel(camera)
    let discovered = try await MediaInspector.discover(movie)
    #expect(discovered.isH264 && discovered.size == "640x480", "\(discovered)")
  }

  @Test("--mode video --pre-roll 2: the movie recorded from the window begins 2 s before space was pressed")
  func recordWithPreRoll() async throws {
    let camera = try await InteractiveCamera(["--mode", "video", "--pre-roll", "2"])
    defer { camera.directory.remove() }
    try await camera.line("the pre-roll", after: 0) { $0.hasPrefix("pre-roll holds 2.") }
    let mark = camera.mark
    try await camera.key("space")
    try await camera.line("the recording", after: mark) { $0 == "recording" }
    let movie = try await stopRecordingAndCancel(camera)
    let streams = try await MediaInspector.streams(movie)
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    // The two seconds before the key press, and what came after it (a fraction of a second: the stop is
    // pressed as soon as the recording says it started).
    #expect(video.end >= 2 && video.largestGap < 1.0 / 30 && streams.count == 2, "\(streams)")
  }

  @Test(
    "--mode video: a stopped recording is reviewed, its timeline drawn; space starts nothing; Retake leaves no file"
  )
  func movieReviewAndRetake() async throws {
    let camera = try await InteractiveCamera(["--mode", "video"])
    defer { camera.directory.remove() }
    try await camera.stoppingOnFailure { try await MovieReview.retake(on: camera) }
  }

  @Test(
    """
    --allows-editing --max-duration 3: the ball's movie stops itself into the review; the keys move the playhead, \
    which shows its frame, and set the trim; Use Video delivers the cut movie, first and last frames the chosen ones
    """,
    .timeLimit(.minutes(2)))
  func trimMovieWithKeys() async throws {
    let camera = try await InteractiveCamera(["--mode", "video", "--allows-editing", "--max-duration", "3"])
    defer { camera.directory.remove() }
    try await camera.stoppingOnFailure {
      try await MovieReview.trimWithKeys(on: camera) { try await camera.keepScreenshot("interface-trim") }
    }
  }

  @Test("--allows-editing: a click on the timeline moves the playhead there; a drag moves a trim handle")
  func trimWithTheMouse() async throws {
    let camera = try await InteractiveCamera(["--mode", "video", "--allows-editing", "--max-duration", "1"])
    defer { camera.directory.remove() }
    try await camera.stoppingOnFailure {
      let mark = camera.mark
      try await camera.key("space")
      try await camera.line("the review, at the limit", after: mark) { $0.hasPrefix("reviewing MOV_") }
      // The bar runs from x 32 to 608 at y 388…400: a click at its middle puts the playhead there.
      try await camera.click(320, 394)
      let clicked = try await camera.screenshot { $0.timeline().playhead.map { abs($0 - 320) <= 3 } ?? false }
      let afterClick = clicked.timeline()
      #expect(afterClick.playhead.map { abs($0 - 320) <= 3 } == true, "\(afterClick)")
      #expect(afterClick.handles.count == 2 && abs(afterClick.handles[0] - 32) <= 4, "the handles stay: \(afterClick)")
      // The end handle, dragged to three quarters of the bar, takes the playhead with it (its last frame).
      try await camera.drag(from: 606, 394, to: 464, 394)
      let dragged = try await camera.screenshot { image in
        let handles = image.timeline().handles
        return handles.count == 2 && abs(handles[1] - 464) <= 4
      }
      let afterDrag = dragged.timeline()
      #expect(afterDrag.handles.count == 2 && abs(afterDrag.handles[1] - 464) <= 4, "\(afterDrag)")
      #expect(afterDrag.playhead.map { $0 < 464 && $0 > 400 } == true, "the playhead on the last frame kept")
      try await camera.useVideo()
      let result = try await camera.cancel()
      let movie = try #require(result.outputLines.first, "\(result)")
      #expect(movie.hasSuffix(".trimmed.mp4") && result.outputLines.count == 1, "\(result)")
    }
  }

  /// Stops the recording with space, waits for its review, uses it (Enter) and waits until the movie is
  /// kept, cancels (Escape) and returns the movie's path; it is in `camera.directory`, which the caller
  /// removes.
  private func stopRecordingAndCancel(_ camera: InteractiveCamera) async throws -> String {
    try await camera.stopRecordingForReview()
    try await camera.useVideo()
    let result = try await camera.cancel()
    #expect(result.succeeded, "\(result)")
    return try #require(result.outputLines.first, "\(result)")
  }
}
