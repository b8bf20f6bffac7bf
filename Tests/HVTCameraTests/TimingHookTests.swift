import Foundation
import Testing

@testable import HVTCamera

@Suite("Timing hooks: previewStarted, previewStatistics, encodingStartedAt", .timeLimit(.minutes(1)))
struct TimingHookTests {
  @Test("present() is followed by previewStarted, stamped between the call and the event's arrival")
  func previewStarted() async throws {
    let camera = try TestCamera(present: false)
    #expect(camera.controller.previewStatistics == nil)
    let before = ContinuousClock.now
    try await camera.controller.presentAndWait()
    let started = try await camera.delegate.nextEvent { if case .previewStarted(let at) = $0 { at } else { nil } }
    #expect(started > before)
    #expect(started <= ContinuousClock.now)
    let statistics = try #require(camera.controller.previewStatistics)
    #expect(statistics.frames >= 1)
    #expect(statistics.firstFrameTimestamp != nil)
    await camera.controller.dismissAndWait()
    #expect(camera.controller.previewStatistics == nil)
  }

  @Test("a restart (new quality) starts the preview again: a second previewStarted")
  func restartReportsAgain() async throws {
    let camera = try TestCamera(quality: .type640x480)
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    camera.controller.videoQuality = .type1280x720
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    let statistics = try #require(camera.controller.previewStatistics)
    #expect(statistics.frames >= 1)
    await camera.controller.dismissAndWait()
  }

  @Test("previewStatistics counts every frame the preview sink receives, with increasing timestamps")
  func statisticsAddUp() async throws {
    let camera = try TestCamera()
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    // Wait for a few more frames through the photo path (each photo is a newer frame).
    for _ in 0..<3 {
      camera.controller.takePicture()
      _ = try await camera.delegate.nextCapture(.image)
      await camera.delegate.flush()
    }
    let statistics = try #require(camera.controller.previewStatistics)
    let first = try #require(statistics.firstFrameTimestamp)
    let latest = try #require(statistics.latestFrameTimestamp)
    #expect(latest >= first)
    // The frames that arrived can never be more than the timestamps say were made.
    let made = Int(((latest - first) * 30).rounded()) + 1
    #expect(statistics.frames <= UInt64(made), "\(statistics.frames) frames for \(made) timestamps")
    #expect(statistics.frames <= camera.controller.sourceFrameCount)
    await camera.controller.dismissAndWait()
  }

  @Test(
    "previewStatistics measures each frame's latency, its running time at the preview sink minus its timestamp: every frame once playing, and under half a second"
  )
  func latencyMeasured() async throws {
    let camera = try TestCamera()
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    // Each photo is a frame newer than the last: photos until five frames have reached the preview.
    while (camera.controller.previewStatistics?.frames ?? 0) < 5 {
      camera.controller.takePicture()
      _ = try await camera.delegate.nextCapture(.image)
      await camera.delegate.flush()
    }
    let statistics = try #require(camera.controller.previewStatistics)
    await camera.controller.dismissAndWait()
    // The simulated camera sends each frame once its moment has come: no frame reaches the sink early.
    let latest = try #require(statistics.latestLatency)
    #expect(latest >= 0 && latest < 0.5, "\(statistics)")
    // All but the first, which may reach the sink while it is still starting.
    #expect(statistics.measuredFrames >= 4 && statistics.measuredFrames + 1 >= statistics.frames, "\(statistics)")
    let mean = statistics.totalLatency / Double(statistics.measuredFrames)
    #expect(mean >= 0 && mean < 0.5, "\(statistics)")
  }

  @Test("a movie's encodingStartedAt lies between startVideoCapture() and the delivery; photos have none")
  func encodingStartedAt() async throws {
    let camera = try TestCamera(mode: .video)
    camera.controller.takePicture()
    let photo = try await camera.delegate.nextCapture(.image)
    #expect(try photo.metadata.encodingStartedAt == nil)
    let before = ContinuousClock.now
    try await camera.startRecording()
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    let started = try #require(try movie.metadata.encodingStartedAt)
    #expect(started > before)
    #expect(started < ContinuousClock.now)
    await camera.controller.dismissAndWait()
  }
}
