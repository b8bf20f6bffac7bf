import Foundation
import HVTGStreamer
import HVTSupport
import MediaInspection
import Testing

@testable import HVTCamera

/// The controller's transition function on its own, without GStreamer (``MachineDriver`` stands in for
/// the interpreter and the pipeline): every call in every phase, faults at every point of a camera's
/// life, generated sequences with the work done off the queue completing in any order and failing; after
/// each step the state's invariants hold, and once the world has caught up every capture and every wait
/// has been answered exactly once, a presented camera runs, and a dismissed one has stopped.
@Suite("The controller's transition function", .timeLimit(.minutes(2)))
struct ControllerMachineTests {
  // MARK: - Every call in every phase

  @Test("every call in every phase: every capture and wait is answered once, dismiss always completes")
  func everyCallInEveryPhase() throws {
    var random = SplitMix64(seed: 1)
    for phase in Phase.allCases {
      for call in Call.allCases {
        let driver = try phase.reach()
        call.make(on: driver)
        driver.settle(using: &random)
        Self.expectSettled(driver, "\(call) in \(phase)")
        Self.expectDismissal(of: driver, using: &random, "\(call) in \(phase)")
      }
    }
  }

  // MARK: - Faults at every point

  @Test("a bus error, an end of stream, a lost camera or a stall at every point of a camera's life")
  func faultsAtEveryPoint() throws {
    var random = SplitMix64(seed: 2)
    for fault in Fault.allCases {
      for point in 0...Self.life.count {
        let driver = try MachineDriver()
        for step in Self.life.prefix(point) { step(driver) }
        fault.inject(into: driver)
        driver.settle(using: &random)
        Self.expectSettled(driver, "\(fault) after step \(point)")
        Self.expectDismissal(of: driver, using: &random, "\(fault) after step \(point)")
      }
    }
  }

  /// A camera's life: presented, a photo, a recording with a photo during it, stopped, a stream, dismissed;
  /// the world catching up between the calls.
  private static let life: [@Sendable (MachineDriver) -> Void] = [
    { _ = $0.present() },
    { $0.completeAll() },
    { _ = $0.takePhoto(inFlight: true) },
    { _ = $0.startRecording() },
    { $0.completeFirst() },
    { _ = $0.takePhoto(inFlight: false) },
    { $0.completeAll() },
    { _ = $0.send(.recording(id: $0.recordingID ?? 0, .enoughFrames)) },
    { _ = $0.send(.stopRecording(id: nil)) },
    { $0.completeFirst() },
    { _ = $0.startStreaming(port: 9000) },
    { $0.completeAll() },
    { _ = $0.send(.dismiss) },
    { $0.completeFirst() },
    { $0.completeAll() },
  ]

  // MARK: - Generated sequences

  @Test("generated sequences of calls, faults, timers and completions in any order, some failing")
  func generatedSequences() throws {
    var (reviews, trims) = (0, 0)
    for seed in 1...400 {
      var random = SplitMix64(seed: UInt64(seed))
      // A window shows the default controls: photos and movies go to the review screen, trimmed when
      // editing.
      let windowed = seed % 3 == 0
      let driver = try MachineDriver(previewOutput: windowed ? .window() : .none, allowsEditing: seed % 2 == 0)
      var presentedSince: (errors: Int, dismissed: Bool)?
      if windowed {
        // A camera running in video mode, recording a movie for the review screen.
        driver.send(.setCaptureMode(.video))
        driver.present()
        driver.completeAll()
        driver.startRecording(toDelegate: true)
        driver.completeFirst()  // the worker builds its branch
        presentedSince = (0, false)
      }
      for _ in 0..<80 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
          // With a window, half the calls are the review screen's, so that many sequences reach it.
          let calls = windowed && Bool.random(using: &random) ? Call.reviewCalls : Call.allCases
          let call = calls.randomElement(using: &random)!
          call.make(on: driver)
          if call == .present, driver.state.isPresented { presentedSince = (driver.ledger.errors.count, false) }
          if call == .dismiss { presentedSince?.dismissed = true }
        case 4..<8 where !driver.owed.isEmpty:
          driver.complete(
            Int.random(in: 0..<driver.owed.count, using: &random), succeeding: Int.random(in: 0..<8, using: &random) > 0
          )
        case 8 where !driver.timers.isEmpty:
          driver.fire(driver.timers.keys.randomElement(using: &random)!)
        default:
          // Fewer faults with a window: the review screen is some steps away from a camera's start.
          guard !windowed || Int.random(in: 0..<4, using: &random) == 0 else { continue }
          Fault.allCases.randomElement(using: &random)!.inject(into: driver)
        }
      }
      driver.settle(using: &random)
      Self.expectSettled(driver, "seed \(seed)")
      if let (errors, dismissed) = presentedSince, !dismissed, !driver.state.isPresented {
        #expect(driver.ledger.errors.count > errors, "seed \(seed): a presented camera stopped without an error")
      }
      Self.expectDismissal(of: driver, using: &random, "seed \(seed)")
      reviews += driver.ledger.events.filter { if case .reviewStarted = $0 { true } else { false } }.count
      trims += driver.ledger.trims.count
    }
    #expect(reviews > 50 && trims > 0, "the sequences reach the review screen (\(reviews)) and cut movies (\(trims))")
  }

  // MARK: - Cases the structure makes visible

  @Test(
    "two recordings asked for while the camera starts: the first, stopped, still makes its movie; both are answered")
  func recordingsWhileStarting() throws {
    var random = SplitMix64(seed: 3)
    let driver = try MachineDriver()
    driver.send(.setCaptureMode(.video))
    driver.present()
    let first = try #require(driver.startRecording())
    driver.send(.stopRecording(id: nil))
    let second = try #require(driver.startRecording())
    driver.completeAll()
    #expect(try driver.ledger.capture(first)?.get().mediaType == .movie)
    #expect(driver.state.recording?.request.id == second, "the second records")
    driver.send(.dismiss)
    driver.completeAll()
    #expect(try driver.ledger.capture(second)?.get().mediaType == .movie)
    Self.expectDismissal(of: driver, using: &random, "two recordings")
  }

  @Test("a camera that does not start: the callers of a recording and a photo waiting for it learn why")
  func requestsWhileStartingFail() throws {
    var random = SplitMix64(seed: 4)
    for (failing, toDelegate) in [("playing", false), ("playing", true), ("source", false), ("source", true)] {
      let driver = try MachineDriver()
      driver.send(.setCaptureMode(.video))
      driver.present()
      let recording = try #require(driver.startRecording(toDelegate: toDelegate))
      let photo = driver.takePhoto(inFlight: false)
      // What the camera's start owes is kept back; the one that fails is its PLAYING refused, or an error from
      // its source.
      let start = { (owed: MachineDriver.Owed) in
        switch owed {
        case .work(.playingRequested), .work(.bus(_, .stateChanged)), .work(.previewStarted): true
        default: false
        }
      }
      let stage = { (owed: MachineDriver.Owed) in
        switch owed {
        case .work(.playingRequested): failing == "playing"
        case .work(.bus(_, .stateChanged)): failing == "source"
        default: false
        }
      }
      driver.completeAll(except: start)
      driver.complete(try #require(driver.owed.firstIndex(where: stage)), succeeding: false)
      driver.dropOwed(where: start)  // the camera gives nothing more
      driver.settle(using: &random)  // a refused PLAYING is given up when its timer runs out
      let context = "the \(failing) failed, the movie to the \(toDelegate ? "delegate" : "caller")"
      let cause = try #require(driver.ledger.errors.first, "the failure is reported: \(context)")
      #expect(!driver.state.isPresented, "\(context)")
      let thrown = { (result: Result<HVTCapture, HVTCameraError>?) -> HVTCameraError? in
        if case .failure(let error) = result { error } else { nil }
      }
      #expect(thrown(driver.ledger.capture(photo)) == cause, "the photo's caller learns why: \(context)")
      if toDelegate {
        let results = driver.ledger.delegateResults
        #expect(results.count == 1, "\(context)")
        guard case .failure(.recordingEmpty) = results.first else {
          Issue.record("the delegate's movie: \(results), \(context)")
          continue
        }
      } else {
        #expect(thrown(driver.ledger.capture(recording)) == cause, "the movie's caller learns why: \(context)")
      }
      #expect(driver.ledger.misanswered.isEmpty, "\(context)")
    }
  }

  @Test(
    "a camera that fails while a photo waits for its frame: the photo's caller learns why; dismissed, not presented")
  func photoWaitingForFrame() throws {
    var random = SplitMix64(seed: 5)
    for fault in [Fault.cameraError, .cameraUnplugged, .stall, nil] {
      let driver = try MachineDriver()
      driver.present()
      driver.completeAll()
      let photo = driver.takePhoto(inFlight: false)
      // The interpreter waits for the camera's next frame; stopped, the camera answers it with none.
      var waiting: ControllerMachine.PhotoRequest?
      driver.dropOwed { owed in
        guard case .work(.photoTaken(let request, _, _)) = owed else { return false }
        waiting = request
        return true
      }
      let request = try #require(waiting)
      if let fault { fault.inject(into: driver) } else { driver.send(.dismiss) }
      driver.send(.photoTaken(request, .failure(.notPresented), frame: nil))
      driver.settle(using: &random)
      let context = "\(fault.map { "\($0)" } ?? "dismissed")"
      guard case .failure(let error) = driver.ledger.capture(photo) else {
        Issue.record("the photo: \(String(describing: driver.ledger.capture(photo))), \(context)")
        continue
      }
      #expect(error == (fault == nil ? .notPresented : driver.ledger.errors.first), "\(context)")
      #expect(driver.ledger.misanswered.isEmpty, "\(context)")
    }
  }

  @Test(
    "after a failure dismissed the camera, a caller's photo, movie and wait are refused with that failure, the delegate's with notPresented; until the next present (or one that throws) or dismiss"
  )
  func refusedWithTheDismissal() throws {
    for fault in [Fault.cameraError, .cameraUnplugged] {
      for presentsAgain in [false, true] {
        let context = "\(fault), then \(presentsAgain ? "presented" : "dismissed")"
        let driver = try MachineDriver()
        driver.present()
        driver.completeAll()
        fault.inject(into: driver)
        driver.completeAll()
        let cause = try #require(driver.ledger.errors.first, "\(context)")
        let waited = Locked<Result<Void, HVTCameraError>?>(nil)
        func refusals() -> [ControllerMachine.Reply] {
          waited.withLock { $0 = nil }
          driver.send(.whenRunning { result in waited.withLock { $0 = result } })
          driver.completeAll()
          let wait: ControllerMachine.Reply =
            switch waited.withLock({ $0 }) {
            case .failure(let error): .refused(error)
            case .success, nil: .accepted
            }
          return [
            driver.send(.askPhoto(id: 90, inFlight: false)), driver.send(.askRecording(inFlight: false)), wait,
            driver.send(.askPhoto(id: 91, inFlight: true)), driver.send(.askRecording(inFlight: true)),
          ]
        }
        let callers = Array(repeating: ControllerMachine.Reply.refused(cause), count: 3)
        let delegate = Array(repeating: ControllerMachine.Reply.refused(.notPresented), count: 2)
        #expect(refusals() == callers + delegate, "\(context)")
        if presentsAgain {
          // A present() that throws before it has a session (no camera found) is the newer failure.
          let noCamera = HVTCameraError.noCameraAvailable(reason: "a test")
          driver.send(.presentFailed(noCamera))
          #expect(driver.send(.askPhoto(id: 92, inFlight: false)) == .refused(noCamera), "\(context)")
          driver.present()
          driver.completeAll()
          #expect(driver.state.dismissedBy == nil, "\(context)")
          #expect(driver.send(.askPhoto(id: 93, inFlight: false)) == .accepted, "\(context)")
        } else {
          driver.send(.dismiss)
          driver.completeAll()
          #expect(refusals() == Array(repeating: .refused(.notPresented), count: 5), "\(context)")
        }
      }
    }
  }

  @Test(
    "the preview's first frame, before or after the pipeline's PLAYING, is announced once, after the configuration")
  func previewStartedAfterConfiguration() throws {
    for previewFirst in [true, false] {
      let driver = try MachineDriver()
      driver.present()
      let isFirstFrame = { (owed: MachineDriver.Owed) in
        if case .work(.previewStarted) = owed { true } else { false }
      }
      let isPlaying = { (owed: MachineDriver.Owed) in
        if case .work(.bus(_, .stateChanged(_, _, .playing))) = owed { true } else { false }
      }
      driver.completeAll(except: { isFirstFrame($0) || isPlaying($0) })
      let first = try #require(driver.owed.firstIndex(where: previewFirst ? isFirstFrame : isPlaying))
      driver.complete(first)
      let announced = { driver.ledger.events.filter { if case .previewStarted = $0 { true } else { false } }.count }
      #expect(announced() == 0, "announced before both came (first frame first: \(previewFirst))")
      driver.completeAll()
      let kinds = driver.ledger.events.compactMap { event -> String? in
        switch event {
        case .configured: "configured"
        case .previewStarted: "previewStarted"
        default: nil
        }
      }
      #expect(kinds == ["configured", "previewStarted"], "first frame first: \(previewFirst)")
      #expect(driver.state.earlyPreviewStart == nil)
    }
  }

  @Test("the frame watchdog looks four times within the stall threshold, not at every frame, and still finds a stall")
  func watchdogTicks() throws {
    for (rate, threshold, interval) in [(30, 0.5, 0.125), (5, 0.8, 0.2)] {
      let session = try MachineDriver().makeSession(frameRate: HVTFrameRate(rate))
      #expect(session.stallThreshold == threshold, "\(rate) fps")
      #expect(session.watchInterval == interval, "\(rate) fps")
    }

    let driver = try MachineDriver()
    driver.present()
    driver.completeAll()
    #expect(driver.watchIntervals == [0.125], "the driver's camera runs at 30 fps")
    let session = try #require(driver.state.phase.session?.id)
    let stalls = { driver.ledger.events.filter { if case .cameraStalled = $0 { true } else { false } }.count }
    // Ticks at that interval after the last frame, at 0: silent for three, stalled at the fourth.
    for tick in 1...3 { driver.send(.watchdog(session: session, now: Double(tick) * 0.125, aliveAt: 0)) }
    #expect(stalls() == 0)
    driver.send(.watchdog(session: session, now: 0.5, aliveAt: 0))
    #expect(stalls() == 1)
  }

  @Test("takePicture(): in flight from the call until the delegate receives the photo; a call meanwhile is announced")
  func photoInFlight() throws {
    let driver = try MachineDriver()
    driver.present()
    driver.completeAll()
    #expect(driver.state.isReadyForCapture)
    let first = driver.takePhoto(inFlight: true)
    #expect(!driver.state.isReadyForCapture)
    let second = driver.takePhoto(inFlight: true)
    #expect(
      driver.ledger.events.contains { if case .callIgnored("takePicture()", _) = $0 { true } else { false } },
      "the second call is announced")
    // The photo is encoded and handed to the delegate: it is received before the delegate's method runs,
    // and the delegate's next call from there takes a photo.
    driver.completeAll(except: { if case .handOver = $0 { true } else { false } })
    #expect(!driver.state.isReadyForCapture, "delivered, not yet received")
    driver.completeAll()
    #expect(driver.state.isReadyForCapture)
    let third = driver.takePhoto(inFlight: true)
    #expect(driver.state.photos.inFlight == third)
    driver.completeAll()
    let readiness = driver.ledger.events.compactMap { if case .readyForCapture(let ready) = $0 { ready } else { nil } }
    #expect(readiness == [true, false, true, false, true])
    #expect(driver.ledger.misanswered.isEmpty)
    _ = (first, second)
  }

  @Test(
    "a stop waits for the branch's first frames, at most two seconds, then drains; a drain without progress is given up"
  )
  func stopWaitsForFramesAndDrainsOrGivesUp() throws {
    let driver = try MachineDriver()
    driver.send(.setCaptureMode(.video))
    driver.present()
    driver.completeAll()
    let id = try #require(driver.startRecording())
    driver.completeAll(except: { if case .work(.recording(_, .enoughFrames)) = $0 { true } else { false } })
    driver.send(.stopRecording(id: nil))
    #expect(driver.timers[.frames(recording: id)] != nil, "waits for its first frames")
    driver.fire(.frames(recording: id))
    #expect(driver.timers[.drain(recording: id)] != nil, "the drain is watched")
    // No progress and no end of stream at the file sink: the drain is given up.
    driver.dropOwed { if case .work(.recording(id, .drained)) = $0 { true } else { false } }
    driver.fire(.drain(recording: id))
    guard case .failure(.drainStalled) = driver.ledger.capture(id) else {
      Issue.record("not given up: \(String(describing: driver.ledger.capture(id)))")
      return
    }
  }

  // MARK: - Checks

  /// After the world caught up: nothing half-way, and a presented camera runs.
  private static func expectSettled(_ driver: MachineDriver, _ context: String) {
    let state = driver.state
    #expect(driver.owed.isEmpty && driver.timers.isEmpty, "\(context): the world still owes")
    if state.isPresented {
      #expect(state.phase.running != nil, "\(context): presented but \(state.phase)")
      #expect(state.waiters.ready.isEmpty, "\(context): a present() caller still waits")
    } else if case .idle = state.phase {
    } else {
      Issue.record("\(context): dismissed but \(state.phase)")
    }
    #expect(state.photos.inFlight == nil, "\(context): a photo is still in flight")
    #expect(state.photos.inProgress == 0 && state.photos.awaitingCamera.isEmpty, "\(context): a photo waits")
    #expect(state.endingRecordings.isEmpty, "\(context): a recording is still ending")
  }

  /// Dismisses and waits, as `dismissAndWait()` does: the wait ends, the camera stopped, and every capture
  /// and wait asked for was answered once.
  private static func expectDismissal(
    of driver: MachineDriver, using random: inout SplitMix64, _ context: String
  ) {
    driver.send(.dismiss)
    let waiter = driver.waitUntilStopped()
    driver.settle(using: &random)
    if !driver.state.streams.isEmpty {
      // Streams asked for while dismissed wait for the camera (they start with it); a dismissal ends them.
      #expect(driver.state.streams.allSatisfy { $0.attempt == nil }, "\(context): a dismissed camera streams")
      driver.present()
      driver.settle(using: &random)
      driver.send(.dismiss)
      driver.settle(using: &random)
    }
    let state = driver.state
    guard case .idle = state.phase else {
      Issue.record("\(context): dismissed, but \(state.phase)")
      return
    }
    #expect(!state.isPresented && state.recording == nil && state.endingRecordings.isEmpty, "\(context)")
    #expect(state.streams.isEmpty && state.streamEncoders.isEmpty, "\(context): streams outlive the camera")
    #expect(state.waiters.stopped.isEmpty && state.waiters.dismissal.isEmpty, "\(context): a wait goes on")
    let misanswered = driver.ledger.misanswered
    #expect(misanswered.isEmpty, "\(context): answered other than once: \(misanswered) (dismissAndWait is \(waiter))")
    #expect(state.review == nil && state.moviesBeingCut == 0, "\(context): a review outlives the camera")
    let ledger = driver.ledger
    #expect(
      ledger.delegateRecordingsAnswered,
      """
      \(context): startVideoCapture() movies \(ledger.delegateRecordings), delivered \(ledger.delegateResults.count), \
      removed \(ledger.removed)
      """)
  }
}

// MARK: - What a test does

/// A phase a camera can be in, and how to get there.
private enum Phase: CaseIterable {
  case idle, starting, startRefused, running, recording, stoppedRecording, photoInProgress, streaming, rebuilding,
    stopping, closing, reviewingMovie

  func reach() throws -> MachineDriver {
    let driver = try MachineDriver(
      previewOutput: self == .reviewingMovie ? .window() : .none, allowsEditing: self == .reviewingMovie)
    driver.send(.setCaptureMode(.video))
    guard self != .idle else { return driver }
    driver.present()
    switch self {
    case .idle, .starting:
      return driver
    case .startRefused:
      driver.complete(0, succeeding: false)
      return driver
    default:
      driver.completeAll()
    }
    switch self {
    case .recording, .stoppedRecording, .stopping:
      driver.startRecording()
      driver.completeAll(except: { if case .work(.recording(_, .drained)) = $0 { true } else { false } })
      if self == .stoppedRecording { driver.send(.stopRecording(id: nil)) }
      if self == .stopping { driver.send(.dismiss) }
    case .photoInProgress:
      driver.takePhoto(inFlight: true)
    case .streaming:
      driver.startStreaming(port: 9001)
      driver.completeAll()
    case .rebuilding:
      driver.send(.change(.set(\.videoQuality, to: .type1280x720, then: .restart)))
      driver.completeAll(except: { if case .work(.built) = $0 { true } else { false } })
    case .closing:
      driver.send(.dismiss)
    case .reviewingMovie:
      driver.startRecording(toDelegate: true)
      driver.completeAll()
      driver.send(.stopRecording(id: nil))
      driver.completeAll()
    case .idle, .starting, .startRefused, .running:
      break
    }
    return driver
  }
}

/// A call an app makes, as the controller hands it to the machine.
private enum Call: CaseIterable {
  case present, dismiss, takePicture, takePictureUnreserved, capturePhoto, startRecording, stopRecording,
    cancelRecording, pause, resume, restart, changePreview, flash, photosOnly, videoMode, photoMode, waitRunning,
    waitStopped, waitDismissed, waitDismissedCancelled, cancel, startStreaming, stopStreaming, openLibrary,
    libraryClosed, shutterKey, startVideoCapture, useKey, retakeKey, playheadKey, frameKey, trimStartKey, trimEndKey,
    timelineClick, handleDrag

  /// The calls that reach and work the movie review screen.
  static let reviewCalls: [Call] = [
    .present, .videoMode, .startVideoCapture, .stopRecording, .useKey, .retakeKey, .playheadKey, .frameKey,
    .trimStartKey, .trimEndKey, .timelineClick, .handleDrag,
  ]

  func make(on driver: MachineDriver) {
    switch self {
    case .present: driver.present()
    case .dismiss: driver.send(.dismiss)
    case .takePicture: driver.takePhoto(inFlight: true)
    case .takePictureUnreserved: driver.takePhoto(inFlight: true, reserved: false)
    case .capturePhoto: driver.takePhoto(inFlight: false)
    case .startRecording: driver.startRecording()
    case .stopRecording: driver.send(.stopRecording(id: nil))
    case .cancelRecording: driver.send(.stopRecording(id: driver.recordingID ?? 1))
    case .pause: driver.send(.setPaused(true))
    case .resume: driver.send(.setPaused(false))
    case .restart: driver.send(.change(.set(\.capturesAudio, to: !driver.state.settings.capturesAudio, then: .restart)))
    case .changePreview: driver.send(.change(.set(\.mirrorsFrontPreview, to: false, then: .preview(rebuilding: true))))
    case .flash: driver.send(.change(.set(\.cameraFlashMode, to: .on, then: .controls)))
    case .photosOnly: driver.send(.setMediaTypes([.image]))
    case .videoMode: driver.send(.setCaptureMode(.video))
    case .photoMode: driver.send(.setCaptureMode(.photo))
    case .waitRunning: driver.waitUntilRunning()
    case .waitStopped: driver.waitUntilStopped()
    case .waitDismissed: driver.waitUntilDismissed()
    case .waitDismissedCancelled: driver.waitUntilDismissed(cancelled: true)
    case .cancel: driver.send(.cancel)
    case .startStreaming: driver.startStreaming(port: 9002)
    case .stopStreaming: driver.send(.stopStreaming(nil))
    case .openLibrary: driver.send(.openLibrary)
    case .libraryClosed: driver.send(.libraryClosed)
    case .shutterKey: driver.key("space")
    case .startVideoCapture: driver.startRecording(toDelegate: true)
    case .useKey: driver.key("Return")
    case .retakeKey: driver.key("r")
    case .playheadKey: driver.key("Right")
    case .frameKey: driver.key("comma")
    case .trimStartKey: driver.key("bracketleft")
    case .trimEndKey: driver.key("bracketright")
    case .timelineClick: driver.click(at: 400, 394)
    case .handleDrag: driver.drag(from: 32, 394, to: 500)
    }
  }
}

/// Something that goes wrong, or just happens, in the pipeline.
private enum Fault: CaseIterable {
  case cameraError, recordingError, microphoneError, preRollMicrophoneError, streamError, endOfStream, warning,
    cameraUnplugged, cameraVanished, otherCameraUnplugged, stall, recovery, recordingLimit, recordingStarted,
    recordingDrained, staleSessionError

  func inject(into driver: MachineDriver) {
    let session = driver.state.phase.session?.id ?? 0
    let moment = ControllerMachine.Moment(uptime: 1, jitter: 0.5)
    func error(
      _ source: String, _ origin: ControllerMachine.ErrorOrigin, vanished: HVTCameraController.DeviceChange? = nil
    ) {
      driver.send(
        .bus(session: session, .error(MachineDriver.report(source), origin: origin, vanished: vanished, at: moment)))
    }
    let recording = driver.recordingID ?? 0
    switch self {
    case .cameraError: error("/GstPipeline:test/GstV4l2Src:source", .pipeline)
    case .recordingError: error("/GstPipeline:test/GstBin:recording/GstX264Enc:encoder", .recording(recording))
    case .microphoneError:
      error("/GstPipeline:test/GstBin:recording-microphone/GstPulseSrc:mic", .microphone(of: recording))
    case .preRollMicrophoneError:
      error("/GstPipeline:test/GstBin:pre-roll-microphone/GstPulseSrc:mic", .preRollMicrophone)
    case .streamError:
      let name = driver.state.streams.first?.attempt?.name ?? "\(StreamBranch.namePrefix)9-9"
      error("/GstPipeline:test/GstBin:\(name)/GstSRTSink:sink", .pipeline)
    case .endOfStream: driver.send(.bus(session: session, .endOfStream))
    case .warning:
      driver.send(.bus(session: session, .warning(MachineDriver.report("/GstPipeline:test/GstQueue:queue"))))
    case .cameraUnplugged: driver.send(.deviceChanged(.disconnected(name: "Test camera", path: "/dev/video0")))
    case .cameraVanished:
      error(
        "/GstPipeline:test/GstV4l2Src:source", .pipeline,
        vanished: .disconnected(name: "Test camera", path: "/dev/video0"))
    case .otherCameraUnplugged: driver.send(.deviceChanged(.disconnected(name: "Other", path: "/dev/video2")))
    case .stall:
      driver.send(.watchdog(session: session, now: 1, aliveAt: 0))
      driver.send(.watchdog(session: session, now: 5, aliveAt: 0))
    case .recovery: driver.send(.watchdog(session: session, now: 6, aliveAt: 6))
    case .recordingLimit: driver.send(.recording(id: recording, .limitReached))
    case .recordingStarted: driver.send(.recording(id: recording, .started))
    case .recordingDrained: driver.send(.recording(id: recording, .drained))
    case .staleSessionError:
      driver.send(
        .bus(
          session: session &+ 1000,
          .error(MachineDriver.report("/GstPipeline:test/x"), origin: .pipeline, vanished: nil, at: moment)))
    }
  }
}

extension MachineDriver {
  /// The recording taking frames, else the last one stopped.
  var recordingID: UInt64? { state.recording?.request.id ?? state.endingRecordings.last?.request.id }

  /// Sends back everything owed, in order, each succeeding (and what that starts), but what `except`
  /// keeps back; at most `limit` items.
  func completeAll(except keep: (Owed) -> Bool = { _ in false }, limit: Int = 1000) {
    for _ in 0..<limit {
      guard let index = owed.firstIndex(where: { !keep($0) }) else { return }
      complete(index)
    }
  }

  /// The default controls' window is 640 × 480.
  static let windowSize = HVTFrameSize(width: 640, height: 480)

  /// A key pressed in the preview's window.
  func key(_ name: String) {
    send(.navigation(.keyPress(key: name), size: Self.windowSize))
  }

  /// A click of the left button at (`x`, `y`) of the preview's window.
  func click(at x: Double, _ y: Double) {
    send(.navigation(.mouseButtonPress(button: 1, x: x, y: y), size: Self.windowSize))
    send(.navigation(.mouseButtonRelease(button: 1, x: x, y: y), size: Self.windowSize))
  }

  /// A drag with the left button from (`x`, `y`) to (`toX`, `y`) of the preview's window.
  func drag(from x: Double, _ y: Double, to toX: Double) {
    send(.navigation(.mouseButtonPress(button: 1, x: x, y: y), size: Self.windowSize))
    send(.navigation(.mouseMove(x: (x + toX) / 2, y: y), size: Self.windowSize))
    send(.navigation(.mouseButtonRelease(button: 1, x: toX, y: y), size: Self.windowSize))
  }

  /// Sends back the oldest item owed, succeeding.
  func completeFirst() {
    if !owed.isEmpty { complete(0) }
  }
}
