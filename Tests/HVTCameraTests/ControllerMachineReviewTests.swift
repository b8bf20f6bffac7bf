import Foundation
import HVTGStreamer
import MediaInspection
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

/// The movie review screen's transitions, without GStreamer (``MachineDriver``): a `startVideoCapture()`
/// movie stopped with the default controls on a window is reviewed, stays in flight until Use Video or
/// Retake, and, with editing, is cut to its trim handles, which never span more than
/// ``HVTCameraController/videoMaximumDuration``. The screen itself, under Xvfb: hvtcamTests'
/// `InteractiveCameraTests`.
@Suite("The movie review screen's transitions", .timeLimit(.minutes(1)))
struct ControllerMachineReviewTests {
  /// A running camera in video mode on `previewOutput`, with `allowsEditing`.
  private func runningCamera(
    _ previewOutput: HVTPreviewOutput = .window(), editing: Bool = false, controls: Bool = true
  ) throws -> MachineDriver {
    let driver = try MachineDriver(previewOutput: previewOutput, allowsEditing: editing)
    driver.send(.setCaptureMode(.video))
    if !controls { driver.send(.change(.set(\.showsCameraControls, to: false))) }
    driver.present()
    driver.completeAll()
    return driver
  }

  /// Records a `startVideoCapture()` movie and stops it; the world catches up. Returns its file.
  @discardableResult
  private func recordAndStop(_ driver: MachineDriver) throws -> URL {
    let id = try #require(driver.startRecording(toDelegate: true))
    driver.completeAll()
    driver.send(.stopRecording(id: nil))
    driver.completeAll()
    return MachineDriver.movie(id).url
  }

  private func reviewEvents(_ driver: MachineDriver) -> [String] {
    driver.ledger.events.compactMap { event in
      switch event {
      case .reviewStarted(let url): "started \(url.lastPathComponent)"
      case .reviewEnded(let used): "ended \(used ? "used" : "discarded")"
      default: nil
      }
    }
  }

  @Test("a stopped movie is reviewed only with the default controls on a window; else it is delivered at once")
  func reviewedOnlyWithControlsOnAWindow() throws {
    let reviewed = try runningCamera()
    let file = try recordAndStop(reviewed)
    #expect(reviewed.state.review?.movie != nil && reviewed.ledger.delegateResults.isEmpty)
    #expect(reviewEvents(reviewed) == ["started \(file.lastPathComponent)"])
    #expect(reviewed.state.reviewing == .movie)

    for driver in [try runningCamera(.none), try runningCamera(controls: false)] {
      try recordAndStop(driver)
      #expect(driver.state.review == nil && reviewEvents(driver).isEmpty)
      #expect(driver.ledger.delegateResults.count == 1, "delivered at once")
    }
    // A recordMovie() caller is handed its movie at once, also with the controls on a window.
    let caller = try runningCamera()
    let id = try #require(caller.startRecording())
    caller.completeAll()
    caller.send(.stopRecording(id: nil))
    caller.completeAll()
    let movie = try #require(try caller.ledger.capture(id)?.get())
    #expect(caller.state.review == nil && movie.mediaType == .movie)
  }

  @Test("Retake removes the movie's file and delivers nothing; Use Video delivers it as it is without editing")
  func retakeAndUse() throws {
    let driver = try runningCamera()
    let first = try recordAndStop(driver)
    driver.key("r")
    #expect(driver.state.review == nil && driver.ledger.removed == [first] && driver.ledger.delegateResults.isEmpty)
    let second = try recordAndStop(driver)
    driver.key("Right")
    driver.key("Return")
    #expect(driver.state.review == nil && driver.ledger.trims.isEmpty, "no trim without editing")
    #expect(driver.ledger.delegateResults.map { try? $0.get().url } == [second])
    #expect(
      reviewEvents(driver) == [
        "started \(first.lastPathComponent)", "ended discarded", "started \(second.lastPathComponent)", "ended used",
      ])
  }

  @Test("startVideoCapture() has no effect, as announced, from the stop until Use Video or Retake; recordMovie() does")
  func inFlightUntilUsedOrRetaken() throws {
    let driver = try runningCamera()
    let id = try #require(driver.startRecording(toDelegate: true))
    driver.completeAll()
    driver.send(.stopRecording(id: nil))
    // Draining: the movie is already in flight.
    #expect(driver.startRecording(toDelegate: true) == nil)
    driver.completeAll()
    #expect(driver.state.review?.movie != nil)
    #expect(driver.startRecording(toDelegate: true) == nil, "ignored during the review")
    let ignored = driver.ledger.events.filter {
      if case .callIgnored("startVideoCapture()", _) = $0 { true } else { false }
    }
    #expect(ignored.count == 2)
    #expect(driver.startRecording() != nil, "an async recording is not the delegate's: it starts")
    driver.send(.stopRecording(id: nil))
    driver.completeAll()
    driver.key("Return")
    #expect(driver.startRecording(toDelegate: true) != nil, "used: the next one starts")
    _ = id
  }

  @Test("dismissing, or Cancel, during the review ends it: the movie is discarded, nothing is delivered")
  func dismissAndCancelEndTheReview() throws {
    var random = SplitMix64(seed: 7)
    for input in [ControllerMachine.Input.dismiss, .cancel] {
      let driver = try runningCamera()
      let file = try recordAndStop(driver)
      driver.send(input)
      driver.settle(using: &random)
      #expect(driver.state.review == nil && driver.ledger.removed == [file] && driver.ledger.delegateResults.isEmpty)
      #expect(reviewEvents(driver).last == "ended discarded")
    }
  }

  @Test("the playhead moves by a second, a frame, to the ends; each move asks for its frame, only the last is shown")
  func playhead() throws {
    let driver = try runningCamera()
    try recordAndStop(driver)
    #expect(driver.state.review?.movie?.frameRequest == 1, "the first frame is asked for")
    driver.key("Right")
    driver.key("Right")
    driver.key("period")
    let timeline = try #require(driver.state.review?.movie?.timeline)
    #expect(abs(timeline.playhead - (2 + 1.0 / 30)) < 1e-9 && driver.state.review?.movie?.frameRequest == 4)
    driver.key("End")
    #expect(driver.state.review?.movie?.timeline.playhead == timeline.lastFrame)
    driver.key("Right")
    #expect(driver.state.review?.movie?.timeline.playhead == timeline.lastFrame, "kept on the movie")
    driver.key("Home")
    #expect(driver.state.review?.movie?.timeline.playhead == 0)
    driver.click(at: 32 + 576 * 0.5, 394)
    #expect(abs((driver.state.review?.movie?.timeline.playhead ?? 0) - 2.5) < 1e-9, "a click on the timeline")
    #expect(driver.state.review?.movie?.frameRequest == 7)
  }

  @Test("with editing, [ and ] set the trim at the playhead; Use Video cuts the movie to it")
  func trimWithKeys() throws {
    let driver = try runningCamera(editing: true)
    try recordAndStop(driver)
    #expect(driver.state.review?.movie?.timeline.trim == 0...5, "the whole movie at first")
    driver.key("Right")
    driver.key("bracketleft")
    driver.key("Right")
    driver.key("Right")
    driver.key("comma")
    driver.key("bracketright")
    let expected = 1...(3.0 - 1.0 / 30 + 1.0 / 30)
    let trim = try #require(driver.state.review?.movie?.timeline.trim)
    #expect(abs(trim.lowerBound - expected.lowerBound) < 1e-9 && abs(trim.upperBound - expected.upperBound) < 1e-9)
    driver.key("Return")
    driver.completeAll()
    #expect(driver.ledger.trims.count == 1 && driver.ledger.delegateResults.count == 1)
    // Without a change of the handles, Use Video delivers the movie as it is.
    try recordAndStop(driver)
    driver.key("Return")
    #expect(driver.ledger.trims.count == 1 && driver.ledger.delegateResults.count == 2)
  }

  @Test("a movie being cut after Use Video is in flight, and dismissAndWait() waits for its delivery")
  func cutInFlight() throws {
    let driver = try runningCamera(editing: true)
    try recordAndStop(driver)
    driver.key("Right")
    driver.key("bracketleft")
    driver.key("Return")
    #expect(driver.state.moviesBeingCut == 1 && driver.startRecording(toDelegate: true) == nil)
    driver.send(.dismiss)
    let waiter = driver.waitUntilStopped()
    driver.completeAll(except: { if case .work(.cutMovieDelivered) = $0 { true } else { false } })
    guard case .idle = driver.state.phase else {
      Issue.record("not stopped: \(driver.state.phase)")
      return
    }
    #expect(driver.ledger.misanswered.map(\.id) == [waiter], "the stop's wait goes on while the movie is cut")
    driver.completeAll()
    #expect(driver.ledger.misanswered.isEmpty && driver.state.moviesBeingCut == 0)
  }

  @Test("the handles are clamped: at most videoMaximumDuration apart, at least a frame, on the movie, in order")
  func handlesClamped() throws {
    let driver = try runningCamera(editing: true)
    driver.send(.change(.set(\.videoMaximumDuration, to: 2)))
    try recordAndStop(driver)
    let frame = 1.0 / 30
    #expect(driver.state.review?.movie?.timeline.trim == 0...2, "the 5 s movie's trim starts at the limit")
    // ] at 3 s would span 3 s: it stops at 2 s.
    for _ in 0..<3 { driver.key("Right") }
    driver.key("bracketright")
    #expect(driver.state.review?.movie?.timeline.trim == 0...2)
    // [ at 3 s would start after the end: it stops a frame before it.
    driver.key("bracketleft")
    #expect(driver.state.review?.movie?.timeline.trim == (2 - frame)...2)
    // ] at the last frame: the end follows as far as the limit allows.
    driver.key("End")
    driver.key("bracketright")
    let trim = try #require(driver.state.review?.movie?.timeline.trim)
    #expect(abs(trim.upperBound - (4 - frame)) < 1e-9 && trim.upperBound - trim.lowerBound <= 2)
    // Dragging the start handle to the first frame stops it 2 s before the end.
    let start = 32 + 576 * trim.lowerBound / 5
    driver.drag(from: start, 394, to: 20)
    let dragged = try #require(driver.state.review?.movie?.timeline.trim)
    #expect(abs(dragged.lowerBound - (2 - frame)) < 1e-9 && dragged.upperBound == trim.upperBound)
    #expect(driver.state.review?.movie?.timeline.playhead == dragged.lowerBound, "the playhead shows the handle")
    driver.key("Return")
    let cut = try #require(driver.ledger.trims.first)
    #expect(cut.upperBound - cut.lowerBound <= 2 + 1e-9, "the cut spans at most the limit: \(cut)")
  }
}
