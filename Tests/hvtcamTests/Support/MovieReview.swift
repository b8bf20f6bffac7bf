import Foundation
import MediaInspection
import Testing

/// The default controls' movie review, used as a person uses it in any ``CameraWindow``: the same
/// scenarios run on Xvfb (``InteractiveCameraTests``) and on Wayland (``WaylandWindowTests``).
enum MovieReview {
  /// With `--mode video` (no editing): space records, space stops into the review, whose screen shows the
  /// movie's first frame and its timeline (the playhead at the start, no trim handles) but no shutter;
  /// space there records nothing; Retake (r) leaves no file, and Cancel delivers nothing.
  static func retake(on camera: some CameraWindow) async throws {
    let mark = camera.mark
    try await camera.key("space")
    try await camera.line("the recording", after: mark) { $0 == "recording" }
    let name = try await camera.stopRecordingForReview()
    let review = try await camera.screenshot { $0.timeline().playhead != nil }
    let timeline = review.timeline()
    #expect(timeline.playhead.map { abs($0 - 32) <= 3 } == true, "the playhead at the start: \(timeline)")
    #expect(timeline.handles.isEmpty, "no trim handles without editing")
    let (shutter, useVideo, bars) = (
      review.shutterLabelPixels, review.count(in: 500..<630, 435..<470, dark: false), review.barNames()
    )
    #expect(shutter < 20, "the review screen has no shutter")
    #expect(useVideo > 50, "Use Video is drawn")
    #expect(bars == RGBImage.smpteBars, "the movie's first frame is shown")
    // The shutter is not on the review screen: space records nothing.
    try await camera.key("space")
    try await camera.retakeVideo()
    #expect(try camera.directory.contents().isEmpty, "a retaken movie leaves no file: \(name)")
    let result = try await camera.cancel()
    #expect(result.succeeded && result.outputLines.isEmpty, "nothing kept: \(result)")
  }

  /// With `--mode video --allows-editing --max-duration 3`: the front camera's movie (a moving ball) stops
  /// itself at the limit into the review, its first frame shown and the trim handles at both ends; Right
  /// and period (a frame) move the playhead, whose frame is shown; bracketleft starts the trim there, and
  /// Right, period and bracketright end it a second and a frame later; `whenTrimmed` runs once the
  /// handles show it. Use Video (Return) delivers only the cut movie, whose frames and duration are the
  /// span chosen and whose first and last frames are the chosen ones; the uncut movie is removed.
  static func trimWithKeys(on camera: some CameraWindow, whenTrimmed: () async throws -> Void = {}) async throws {
    // The front camera's moving ball tells frames apart.
    var mark = camera.mark
    try await camera.key("c")
    try await camera.line("the front camera ready", after: mark) { $0 == "ready" }
    mark = camera.mark
    try await camera.key("space")
    let name = try await camera.line("the review, at the limit", after: mark) { $0.hasPrefix("reviewing MOV_") }
      .dropFirst("reviewing ".count)
    let original = try TemporaryDirectory()
    defer { original.remove() }
    let copy = original.path("original.mp4")
    try FileManager.default.copyItem(atPath: camera.directory.path(String(name)), toPath: copy)
    let video = try #require(try await MediaInspector.streams(copy).first { $0.type == "video" })
    let times = video.times.map { $0 - video.times[0] }
    let frame = times.last! / Double(times.count - 1)
    #expect(video.duration <= 3 + frame + 0.001, "--max-duration stops it: \(video)")

    // Where the movie's frame `index` has the ball, as the front camera's mirrored preview shows it,
    // when it is above the controls.
    let ball = { (index: Int) async throws -> (x: Double, y: Double)? in
      try await RGBImage.decode(copy, frame: index, width: 640, height: 480).ballCentre(mirrored: true)
    }
    // The first frame, held still, with the handles at both ends of the timeline.
    let movieFirst = try await ball(0)
    let first = try await camera.screenshot { image in
      let shown = image.ballCentre()
      let ballShown = movieFirst.map { expected in shown.map { near($0, expected) } ?? false } ?? (shown == nil)
      return ballShown && image.timeline().handles.count == 2
    }
    let (firstTimeline, firstBall) = (first.timeline(), first.ballCentre())
    #expect(firstTimeline.handles.count == 2 && abs(firstTimeline.handles[0] - 32) <= 4, "\(firstTimeline)")
    #expect(abs(firstTimeline.handles[1] - 608) <= 4, "the end handle at the movie's end: \(firstTimeline)")
    #expect(
      movieFirst.map { expected in firstBall.map { near($0, expected) } ?? false } ?? (firstBall == nil),
      "the first frame: shown \(String(describing: firstBall)), movie \(String(describing: movieFirst))")

    // Right, and . (a frame) until the ball is above the controls: the frame shown is the movie's at the
    // playhead; [ starts the trim there. Right and . again, ] ends the trim after the frame then shown.
    var steps = 0
    while try await ball(nearest(1 + Double(steps) * frame, in: times)) == nil, steps < 15 { steps += 1 }
    let chosen = (
      first: nearest(1 + Double(steps) * frame, in: times), last: nearest(2 + Double(steps + 1) * frame, in: times)
    )
    let expected = try #require(try await ball(chosen.first), "no frame after 1 s with the ball in view")
    try await camera.key(["Right"] + Array(repeating: "period", count: steps))
    let atStart = try await camera.screenshot { image in image.ballCentre().map { near($0, expected) } ?? false }
    let shownBall = atStart.ballCentre()
    #expect(
      shownBall.map { near($0, expected) } == true,
      "the still frame is the movie's frame \(chosen.first): shown \(String(describing: shownBall)), movie \(expected)")
    try await camera.key("bracketleft", "Right", "period", "bracketright")
    let place = { (time: Double) in 32 + 576 * time / video.duration }
    let trimmed = try await camera.screenshot { image in
      let handles = image.timeline().handles
      return handles.count == 2 && abs(handles[0] - place(times[chosen.first])) <= 4
        && abs(handles[1] - place(times[chosen.last] + frame)) <= 4
    }
    try await whenTrimmed()
    let trimmedTimeline = trimmed.timeline()
    #expect(
      trimmedTimeline.handles.count == 2 && abs(trimmedTimeline.handles[0] - place(times[chosen.first])) <= 4
        && abs(trimmedTimeline.handles[1] - place(times[chosen.last] + frame)) <= 4,
      "the handles at frames \(chosen.first) and \(chosen.last): \(trimmedTimeline)")

    try await camera.useVideo()
    let result = try await camera.cancel()
    #expect(result.succeeded, "\(result)")
    let movie = try #require(result.outputLines.first, "\(result)")
    #expect(movie.hasSuffix(".trimmed.mp4") && result.outputLines.count == 1, "\(result)")
    #expect(
      try camera.directory.contents() == [URL(fileURLWithPath: movie).lastPathComponent], "the uncut movie is removed")
    let cut = try #require(try await MediaInspector.streams(movie).first { $0.type == "video" })
    let count = chosen.last - chosen.first + 1
    let span = times[chosen.last] + frame - times[chosen.first]
    #expect(cut.packets == count && abs(cut.duration - span) <= frame, "\(count) frames over \(span) s: \(cut)")
    // Each end is its chosen frame (encoded again, or copied): a frame off shows the ball elsewhere.
    for (end, source) in [(0, chosen.first), (count - 1, chosen.last)] {
      var psnr: [Double] = []
      for candidate in source - 1...source + 1 {
        psnr += try await MediaInspector.psnr(of: movie, skipping: end, against: copy, from: candidate, count: 1)
      }
      #expect(psnr.count == 3 && psnr[1] >= 30 && psnr[1] > max(psnr[0], psnr[2]) + 3, "frame \(end): \(psnr)")
    }
  }

  /// The index of the time in `times` nearest to `time`.
  static func nearest(_ time: Double, in times: [Double]) -> Int {
    times.indices.min { abs(times[$0] - time) < abs(times[$1] - time) } ?? 0
  }

  /// Whether two places are within 3 pixels of each other.
  static func near(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
    abs(a.x - b.x) < 3 && abs(a.y - b.y) < 3
  }
}

extension RGBImage {
  /// The movie's timeline on a screenshot: the centres of the red playhead (on `playheadRow`, in the bar)
  /// and of the yellow trim handles (on `handleRow`, above the bar, where they reach and the playhead does
  /// not), left to right. The rows default to the review's on a 640 × 480 screenshot, whose bar runs
  /// from x 32 to 608 at y 388…400.
  func timeline(playheadRow: Int = 394, handleRow: Int = 379) -> (playhead: Double?, handles: [Double]) {
    let red = runs(atRow: playheadRow) { $0.r > 170 && $0.g < 90 && $0.b < 90 }
    let yellow = runs(atRow: handleRow) { $0.r > 190 && $0.g > 150 && $0.b < 100 }
    return (red.first, yellow)
  }

  /// The centre of the white pixels (the front camera's ball) but in the timeline's rows and the bottom
  /// bar (on the review screen, the controls are drawn there); `mirrored`, where it is in the picture
  /// mirrored left to right.
  func ballCentre(mirrored: Bool = false) -> (x: Double, y: Double)? {
    var (x, y, count) = (0, 0, 0)
    for py in stride(from: 0, to: 430, by: 2) where !(370..<416).contains(py) {
      for px in stride(from: 0, to: width, by: 2) {
        let pixel = self.pixel(px, py)
        guard min(pixel.r, pixel.g, pixel.b) > 160 else { continue }
        (x, y, count) = (x + px, y + py, count + 1)
      }
    }
    guard count >= 10 else { return nil }
    let centre = Double(x) / Double(count)
    return (mirrored ? Double(width - 1) - centre : centre, Double(y) / Double(count))
  }
}
