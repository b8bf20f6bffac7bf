import Foundation
import HVTSupport
import Testing

@testable import HVTCamera

/// What presenting means by default, how a program waits for the user, and what events and errors print.
@Suite("Presentation", .timeLimit(.minutes(1)))
struct PresentationTests {
  @Test("the default output is automatic: a window where there is a display, else the preset's sink")
  func automaticOutput() throws {
    let camera = try HVTCameraController(source: .simulated)
    #expect(camera.previewOutput == .automatic)
    let fakesink = HVTElementSlot([HVTElementDescription("fakesink", ["sync": "false"])])
    let shown = { (environment: [String: String]) in
      HVTPreviewOutput.automatic.resolved(presetPreview: fakesink, environment: environment)
    }
    #expect(shown([:]) == .none)
    #expect(shown(["DISPLAY": ""]) == .none)
    #expect(shown(["DISPLAY": ":7"]) == .window())
    #expect(shown(["WAYLAND_DISPLAY": "wayland-1"]) == .window())
    // A preset that names a sink of its own is honoured, display or not.
    let ownSink = HVTElementSlot([HVTElementDescription("ximagesink")])
    #expect(HVTPreviewOutput.automatic.resolved(presetPreview: ownSink, environment: [:]) == .preset)
    // Any other output stands for itself.
    #expect(HVTPreviewOutput.none.resolved(presetPreview: fakesink, environment: ["DISPLAY": ":7"]) == .none)
  }

  @Test("without a display, present() with the defaults runs headless, with no error")
  func headlessByDefault() async throws {
    guard ProcessInfo.processInfo.environment["DISPLAY"] == nil,
      ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil
    else { return }  // with a display, the window tests (hvtcamTests) cover the default
    let camera = try TestCamera(present: false)
    camera.controller.previewOutput = .automatic
    try await camera.controller.presentAndWait()
    let graph = try #require(camera.controller.pipelineGraph())
    #expect(graph.contains("GstFakeSink") && !graph.contains("ImageSink"))
    #expect(camera.delegate.errors.isEmpty)
    await camera.controller.dismissAndWait()
  }

  @Test("waitUntilDismissed returns once the delegate dismisses, after the delegate's callbacks")
  func waitsForTheDelegate() async throws {
    let camera = try TestCamera(present: false)
    let dismisser = DismissingDelegate()
    camera.controller.cameraDelegate = dismisser
    try await camera.controller.presentAndWait()
    camera.controller.takePicture()
    await camera.controller.waitUntilDismissed()
    #expect(!camera.controller.isPresented)
    #expect(dismisser.photos == 1)
  }

  @Test("waitUntilDismissed returns at once when nothing is presented, and when its task is cancelled")
  func waitEnds() async throws {
    let camera = try TestCamera(present: false)
    await camera.controller.waitUntilDismissed()
    try await camera.controller.presentAndWait()
    let waiting = Task { await camera.controller.waitUntilDismissed() }
    waiting.cancel()
    await waiting.value
    #expect(camera.controller.isPresented)
    await camera.controller.dismissAndWait()
  }

  @Test("a stop with nothing recording says it had no effect")
  func stopWithoutRecording() async throws {
    let camera = try TestCamera(mode: .video)
    camera.controller.stopVideoCapture()
    let reason = try await camera.delegate.nextEvent {
      if case .callIgnored("stopVideoCapture()", let reason) = $0 { reason } else { nil }
    }
    #expect(reason == "no movie is being recorded")
    await camera.controller.dismissAndWait()
  }

  @Test("events and errors print as a person reads them, without type names")
  func readableDescriptions() {
    let events: [HVTCameraEvent] = [
      .stateChanged(from: .null, to: .ready), .recordingProgress(elapsed: 3, limit: 600),
      .recordingStopped(elapsed: 5, reason: .maximumDurationReached), .readyForCapture(true),
      .callIgnored(call: "takePicture()", reason: "a photo is in flight"), .error(.startTimedOut(seconds: 10)),
      .preRollFilled(HVTPreRollFill(frames: 30, seconds: 1, bytes: 4000)),
    ]
    #expect(
      events.map(\.description) == [
        "state changed: null → ready", "recording progress: 3.00 of 600.00 s",
        "recording stopped at 5.00 s: maximum duration reached", "ready for capture",
        "takePicture() had no effect: a photo is in flight", "error: the camera did not start within 10 s",
        "pre-roll filled: 30 frames, 1.00 s, 4000 bytes",
      ])
    #expect(!"\(HVTCameraEvent.stateChanged(from: .paused, to: .playing))".contains("HVTCamera"))
    let error: any Error = HVTCameraError.notPresented
    #expect(error.localizedDescription == HVTCameraError.notPresented.description)
  }
}

/// A main-actor delegate that dismisses the camera once it has a photo, as the README's does.
@MainActor private final class DismissingDelegate: HVTCameraControllerDelegate {
  private nonisolated let count = Locked(0)

  nonisolated init() {}

  /// Photos received.
  nonisolated var photos: Int { count.withLock { $0 } }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    count.withLock { $0 += 1 }
    controller.dismiss()
  }

  func cameraControllerDidCancel(_ controller: HVTCameraController) { controller.dismiss() }
}
