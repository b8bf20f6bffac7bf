import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Movies that begin before they are asked for (``HVTCameraController/preRollDuration``), read back by
/// ffprobe and by decoding, and placed on the camera's running clock by a photo taken just before the
/// call.
@Suite("Pre-roll", .timeLimit(.minutes(2)))
struct PreRollTests {
  static let frame = 1.0 / 30

  /// A presented simulated camera in video mode at 640x480 with a 2 s pre-roll and key frames every half
  /// second, once the pre-roll holds its two seconds.
  func filledCamera() async throws -> TestCamera {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preRollDuration = 2
    camera.controller.videoKeyFrameInterval = 0.5
    try await camera.controller.present()
    let fill = try await camera.delegate.nextEvent { if case .preRollFilled(let fill) = $0 { fill } else { nil } }
    #expect(fill.seconds >= 2 && fill.seconds < 2.5 + 2 * Self.frame && fill.bytes > 0, "\(fill)")
    return camera
  }

  @Test("a movie begins 2 s before the call, at a key frame, with no hole where the pre-roll meets the live frames")
  func movieBeginsBeforeTheCall() async throws {
    let camera = try await filledCamera()
    // The frame of the moment, on the camera's running clock: the call comes right after it.
    let photo = try await camera.controller.capturePhoto()
    let movie = try await camera.controller.recordMovie(maximumDuration: 3)
    let metadata = movie.metadata
    let before = photo.metadata.frameTimestamp - metadata.frameTimestamp
    #expect(before >= 2 - Self.frame && before <= 2.5 + 3 * Self.frame, "begins \(before) s before the photo's frame")
    let age = try #require(metadata.frameAge)
    #expect(age >= 2 && age <= 2.5 + 3 * Self.frame, "the pre-roll's age at the call: \(age) s")
    #expect(metadata.stopReason == .maximumDurationReached && metadata.audioEncoder == nil, "\(metadata)")

    let path = movie.url.path
    let streams = try await MediaInspector.streams(path)
    let video = try #require(streams.first { $0.type == "video" }, "\(streams)")
    #expect(streams.count == 1, "a pre-roll movie is silent: \(streams)")
    #expect(abs(video.start) < 0.001 && abs(video.end - 3) < Self.frame / 2, "\(video)")
    #expect(video.packets == 90 && video.largestGap < Self.frame, "\(video)")
    // Every frame decodes: the movie begins with a key frame.
    #expect(try await MediaInspector.decodedFrameCount(path) == 90)
    #expect(metadata.frameCount == 90, "\(metadata)")
    let thumbnail = try #require(movie.thumbnail, "made from the file")
    #expect(thumbnail.width == 320 && thumbnail.height == 240, "\(thumbnail.width)x\(thumbnail.height)")
  }

  @Test("movies one after another each begin with their own pre-roll; pausing is refused; memory stays bounded")
  func consecutiveMovies() async throws {
    let camera = try await filledCamera()
    for _ in 0..<2 {
      #expect(camera.controller.startVideoCapture())
      #expect(!camera.controller.pauseVideoCapture(), "a pre-roll movie cannot pause")
      try await camera.waitForRecorded(seconds: 3)
      camera.controller.stopVideoCapture()
      let movie = try await camera.delegate.nextCapture(.movie)
      let metadata = try movie.metadata
      #expect((metadata.frameAge ?? 0) >= 2, "\(metadata)")
      let duration = try #require(try await MediaInspector.discover(try movie.movieURL.path).duration)
      #expect(abs(duration - (metadata.duration ?? 0)) < Self.frame && duration >= 3, "\(duration) s: \(metadata)")
      let fill = try #require(camera.controller.preRollFill)
      #expect(fill.seconds >= 2 && fill.seconds < 2.5 + 2 * Self.frame, "\(fill)")
    }
  }
}
