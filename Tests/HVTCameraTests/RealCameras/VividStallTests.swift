import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// A real camera that stops delivering frames without an error: vivid told to drop every buffer
/// (`percentage_of_dropped_buffers=100`), as a frozen webcam does.
@Suite("RealCamera: vivid stalling", .serialized, .enabled(if: VividCameras.tier != nil), .timeLimit(.minutes(3)))
struct VividStallTests {
  @Test("a stall is announced within a few frame intervals, and the recovery when frames flow again")
  func transientStall() async throws {
    let camera = try TestCamera(source: .automatic, quality: .type640x480, present: false)
    camera.controller.cameraStallTimeout = 60
    try await camera.controller.presentAndWait()
    let starved = ContinuousClock.now
    try await VividCameras.setControl("percentage_of_dropped_buffers", to: 100, on: VividCameras.rear)
    let silence = try await camera.delegate.nextEvent { if case .cameraStalled(let s) = $0 { s } else { nil } }
    // Four frame intervals at 25 fps, at least half a second; under emulation, a little later.
    #expect(silence >= 0.5 && ContinuousClock.now - starved < .seconds(3), "\(silence) s")
    try await VividCameras.setControl("percentage_of_dropped_buffers", to: 0, on: VividCameras.rear)
    let after = try await camera.delegate.nextEvent { if case .cameraRecovered(let a) = $0 { a } else { nil } }
    #expect(after >= silence)
    #expect(camera.controller.isPresented)
    await camera.controller.dismissAndWait()
  }

  @Test("stalled past the timeout: the movie is delivered, cameraStalled reported, the camera reopened once")
  func stallWhileRecording() async throws {
    let camera = try TestCamera(source: .automatic, quality: .type640x480, mode: .video, present: false)
    camera.controller.cameraStallTimeout = 2
    try await camera.controller.presentAndWait()
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    try await VividCameras.setControl("percentage_of_dropped_buffers", to: 100, on: VividCameras.rear)
    _ = try await camera.delegate.nextEvent { if case .cameraStalled = $0 { true } else { nil } }
    let error = try await camera.delegate.nextError()
    guard case .cameraStalled(let name, let seconds) = error as? HVTCameraError else {
      Issue.record("\(error)")
      return
    }
    #expect(name == "vivid" && seconds >= 2)
    let movie = try await camera.delegate.nextCapture(.movie)
    let report = try await MediaInspector.discover(try movie.movieURL.path)
    #expect(!report.failed && report.isH264 && (report.duration ?? 0) >= 1, "\(report)")
    #expect(try movie.metadata.stopReason == .error)
    // The camera is reopened; once the driver delivers again, frames flow.
    try await VividCameras.setControl("percentage_of_dropped_buffers", to: 0, on: VividCameras.rear)
    _ = try await camera.delegate.nextEvent { if case .cameraRecovered = $0 { true } else { nil } }
    #expect(camera.controller.isPresented)
    await camera.controller.dismissAndWait()
  }

  @Test("frames the driver drops while recording are counted in the movie's metadata")
  func framesLostByDriver() async throws {
    let camera = try TestCamera(source: .automatic, quality: .type640x480, mode: .video)
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: 1)
    // Half of the frames from now on: their sequence numbers are used all the same.
    try await VividCameras.setControl("percentage_of_dropped_buffers", to: 50, on: VividCameras.rear)
    try await camera.waitForRecorded(seconds: 3)
    try await VividCameras.setControl("percentage_of_dropped_buffers", to: 0, on: VividCameras.rear)
    camera.controller.stopVideoCapture()
    let metadata = try await camera.delegate.nextCapture(.movie).metadata
    let lost = try #require(metadata.framesLostByDriver)
    let frames = try #require(metadata.frameCount)
    // About half of two seconds at 25 fps; the file's frames and the lost ones fill the duration.
    #expect(lost >= 10, "\(lost) lost of \(frames)")
    let span = Int((try #require(metadata.duration) * 25).rounded())
    #expect(abs(frames + lost - span) <= 3, "\(frames) written + \(lost) lost over \(span) intervals")
    await camera.controller.dismissAndWait()
  }
}
