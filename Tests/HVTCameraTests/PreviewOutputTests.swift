import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// `previewOutput = .frames(format:handler:)`: every preview frame to the app, in the format asked, and
/// switching outputs on a running camera. Windows and embedding are tested under Xvfb (hvtcamTests).
@Suite("Preview outputs", .timeLimit(.minutes(2)))
struct PreviewOutputTests {
  @Test("frames arrive in the asked format and size, at the camera's rate", arguments: HVTPreviewFrame.Format.allCases)
  func framesFormat(format: HVTPreviewFrame.Format) async throws {
    let camera = try TestCamera(present: false)
    let frames = FrameCollector()
    camera.controller.previewOutput = frames.output(format)
    try await camera.controller.presentAndWait()
    await frames.next(31)
    await camera.controller.dismissAndWait()
    let kept = frames.kept
    let frame = try #require(kept.last)
    #expect(frame.format == format && frame.width == 640 && frame.height == 480)
    switch format {
    case .rgba, .bgrx:
      #expect(frame.stride == 640 * 4 && frame.bytes.count == 640 * 480 * 4)
      // The simulated rear camera shows SMPTE bars: white, yellow, cyan, green, magenta, red, blue.
      let (red, blue) = format == .rgba ? (0, 2) : (2, 0)
      let bars = (0..<7).map { bar -> [UInt8] in
        let offset = 160 * frame.stride + (640 * (2 * bar + 1) / 14) * 4
        return [frame.bytes[offset + red], frame.bytes[offset + 1], frame.bytes[offset + blue]]
      }
      #expect(
        bars.map { $0.map { $0 > 127 } } == [
          [true, true, true], [true, true, false], [false, true, true], [false, true, false],
          [true, false, true], [true, false, false], [false, false, true],
        ], "\(bars)")
    case .i420:
      #expect(frame.stride == 640 && frame.bytes.count == 640 * 480 * 3 / 2)
      // Luma: the white bar is bright, the blue bar dark.
      #expect(frame.bytes[160 * 640 + 45] > 150 && frame.bytes[160 * 640 + 595] < 60)
    }
    // Every frame is a camera frame: intervals are whole frame intervals at 30 fps. A loaded machine may
    // make the preview lose some (its queue is leaky), but consecutive frames arrive too.
    let intervals = zip(kept.dropFirst(), kept).map { ($0.timestamp - $1.timestamp) * 30 }
    #expect(intervals.allSatisfy { $0.rounded() >= 1 && abs($0 - $0.rounded()) < 0.06 }, "\(intervals)")
    #expect(intervals.contains { $0.rounded() == 1 }, "\(intervals)")
  }

  @Test("a handler that does not return loses preview frames but never delays a recording: every frame is in the movie")
  func slowHandler() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    let frames = FrameCollector(holding: true)
    defer { frames.release() }
    camera.controller.previewOutput = frames.output(.rgba)
    try await camera.controller.presentAndWait()
    // The app's handler holds on to its first frame for the whole recording.
    await frames.untilHolding()
    let movie = try await camera.controller.recordMovie(maximumDuration: 2)
    let handled = frames.count
    frames.release()
    await camera.controller.dismissAndWait()
    let recorded = try #require(movie.metadata.frameCount)
    let inFile = try await MediaInspector.frameCount(movie.url)
    let duration = try #require(movie.metadata.duration)
    let stalls = camera.delegate.calls.filter {
      switch $0 {
      case .event(.cameraStalled), .event(.cameraRecovered), .failed: true
      default: false
      }
    }
    #expect(recorded == 60 && inFile == 60, "2 s at 30 fps: \(recorded) recorded, \(inFile) in the file; \(stalls)")
    #expect(abs(duration - 2) < 0.001, "\(duration) s")
    #expect(handled == 0, "no frame reached the held handler meanwhile; it handled \(handled)")
  }

  @Test("switching outputs while recording keeps the source running: one session, no frame lost")
  func switchWhileRecording() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.previewOutput = .none
    try await camera.controller.presentAndWait()
    let session = try #require(camera.controller.currentSession)
    try await camera.startRecording()
    let frames = FrameCollector()
    camera.controller.previewOutput = frames.output(.i420)
    _ = try await camera.delegate.nextEvent { if case .previewChanged(.frames) = $0 { true } else { nil } }
    await frames.next(10)
    camera.controller.previewOutput = .none
    _ = try await camera.delegate.nextEvent { if case .previewChanged(.none) = $0 { true } else { nil } }
    let stopped = frames.count
    try await camera.waitForRecorded(seconds: 1)
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(frames.count <= stopped + 1, "the frames branch was removed")
    #expect(camera.controller.currentSession === session, "the same pipeline ran throughout")
    let configured = camera.delegate.calls.filter { if case .event(.configured) = $0 { true } else { false } }
    #expect(configured.count == 1)
    let metadata = try movie.metadata
    let count = try #require(metadata.frameCount)
    // No gap: the movie lasts exactly its frames at 30 fps.
    #expect(abs(try #require(metadata.duration) - Double(count) / 30) < 0.001, "\(count) frames")
    #expect(try await MediaInspector.frameCount(try movie.movieURL) == count)
    #expect(camera.delegate.errors.isEmpty, "\(camera.delegate.errors)")
    await camera.controller.dismissAndWait()
  }

  @Test("the front camera's preview is mirrored, its photo is not; mirrorsFrontPreview = false switches it off")
  func frontMirror() async throws {
    let camera = try TestCamera(present: false)
    camera.controller.cameraDevice = .front
    let frames = FrameCollector()
    camera.controller.previewOutput = frames.output(.rgba)
    try await camera.controller.presentAndWait()
    await frames.next(2)
    // The simulated front camera shows a moving white ball on black: the photo's frame, found in the
    // preview by its timestamp, has the ball at the mirrored place. Photos are taken until the ball is
    // off the centre, where mirroring could not be seen.
    func ballPositions() async throws -> (photo: Double, preview: Double)? {
      for _ in 0..<20 {
        let photo = try await camera.controller.capturePhoto()
        await frames.next(2)
        guard
          let preview = frames.kept.first(where: { abs($0.timestamp - photo.metadata.frameTimestamp) < 0.001 })
        else { continue }
        let image = try await RGBImage.decode(photo.url.path, width: 640, height: 480)
        let photoX = try #require(ballCentre(of: image))
        guard abs(photoX - 320) > 60 else { continue }
        let shown = RGBImage(rgba: preview.bytes, width: preview.width, height: preview.height, stride: preview.stride)
        return (photoX, try #require(ballCentre(of: shown)))
      }
      return nil
    }
    let mirrored = try #require(try await ballPositions(), "no photo with the ball off the centre")
    #expect(abs(mirrored.preview - (640 - mirrored.photo)) < 12, "\(mirrored)")
    camera.controller.mirrorsFrontPreview = false
    _ = try await camera.delegate.nextEvent { if case .previewChanged = $0 { true } else { nil } }
    // Past the frames that both branches showed while one replaced the other.
    await frames.next(3)
    let plain = try #require(try await ballPositions(), "no photo with the ball off the centre")
    #expect(abs(plain.preview - plain.photo) < 12, "\(plain)")
    await camera.controller.dismissAndWait()
  }

  /// The mean x of the bright pixels (the ball) in an RGB image.
  private func ballCentre(of image: RGBImage) -> Double? {
    var (sum, count) = (0, 0)
    for y in stride(from: 0, to: image.height, by: 2) {
      for x in 0..<image.width where image.pixel(x, y).r > 127 {
        sum += x
        count += 1
      }
    }
    return count == 0 ? nil : Double(sum) / Double(count)
  }

  @Test(
    "an output that cannot be shown is reported; the preview it would replace goes on",
    .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] == nil, "needs a process without an X display"))
  func unshowableOutput() async throws {
    let camera = try TestCamera(present: false)
    let frames = FrameCollector()
    camera.controller.previewOutput = frames.output(.rgba)
    try await camera.controller.presentAndWait()
    await frames.next()
    camera.controller.previewOutput = .embedded(windowHandle: 0x123)
    let error = try await camera.delegate.next { call -> HVTCameraError? in
      if case .failed(let error) = call { error as? HVTCameraError } else { nil }
    }
    guard case .noDisplay = error else { throw TestFailure("expected noDisplay, got \(error)") }
    await frames.next(5)
    #expect(camera.controller.isPresented)
    await camera.controller.dismissAndWait()
  }
}
