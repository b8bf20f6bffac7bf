import Foundation
import HVTGStreamer
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

/// Drives ``ControllerMachine`` without GStreamer, as the controller's interpreter does: runs each step's
/// effects in order, answers what the interpreter answers at once (a branch built), and keeps what the
/// world owes the machine — a session reaching PLAYING, a branch attached, a photo encoded, a timer — as
/// pending inputs that a test sends back in any order, with any outcome. It records what reached the app
/// and checks, after every step, the invariants a state must hold.
final class MachineDriver {
  typealias Machine = ControllerMachine

  /// Something the world owes the machine.
  enum Owed {
    /// The outcome of work an effect started (``MachineDriver/complete(_:succeeding:)`` can make it fail).
    case work(Machine.Input)
    /// The delegate receiving a `takePicture()` photo, on the main actor.
    case handOver(UInt64)
  }

  private(set) var state: Machine.State
  /// What the world owes, in the order it was started.
  private(set) var owed: [Owed] = []
  /// The timers running, with when each runs out.
  private(set) var timers: [Machine.TimerID: ContinuousClock.Instant] = [:]
  /// The machine's clock: advanced to a timer's end when it fires.
  private(set) var now = ContinuousClock.now
  /// What reached the app.
  let ledger = Ledger()
  /// Sessions built so far; the next gets the next number.
  private var sessions: UInt64 = 0
  private var requests: UInt64 = 0
  /// Every step's input and effects, for a failure's message.
  private(set) var trace: [String] = []
  /// The intervals of the frame watchdogs started (``ControllerMachine/Effect/watchFrames(_:interval:)``).
  private(set) var watchIntervals: [Double] = []
  /// Where a failed invariant is reported.
  private let location: SourceLocation

  init(
    previewOutput: HVTPreviewOutput = .none, mediaTypes: [HVTMediaType] = [.image, .movie], allowsEditing: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var settings = HVTCameraController.Settings(preset: try HVTPreset.default)
    settings.previewOutput = previewOutput
    settings.mediaTypes = mediaTypes
    settings.allowsEditing = allowsEditing
    state = Machine.State(settings: settings, environment: [:])
    location = sourceLocation
  }

  // MARK: - Steps

  /// Steps the machine with `input` and runs the effects (and those of the steps they make, in order).
  @discardableResult
  func send(_ input: Machine.Input) -> Machine.Reply {
    var reply = Machine.Reply.accepted
    var queue = step(input, reply: &reply)
    while !queue.isEmpty {
      let effect = queue.removeFirst()
      var ignored = Machine.Reply.accepted
      for input in run(effect) { queue += step(input, reply: &ignored) }
    }
    return reply
  }

  private func step(_ input: Machine.Input, reply: inout Machine.Reply) -> [Machine.Effect] {
    let effects = Machine.step(&state, input)
    trace.append("\(Self.name(of: input)) → \(effects.map(Self.name(of:)).joined(separator: ", "))")
    checkInvariants()
    var work: [Machine.Effect] = []
    for effect in effects {
      if case .reply(let answer) = effect { reply = answer } else { work.append(effect) }
    }
    return work
  }

  /// Runs one effect as the interpreter would; returns the inputs the interpreter sends at once.
  private func run(_ effect: Machine.Effect) -> [Machine.Input] {
    switch effect {
    case .watchFrames(_, let interval):
      watchIntervals.append(interval)
      return []
    case .reply, .log, .dumpGraph, .delegateCancelled, .discard, .perform, .discardSession, .stopWatchingFrames,
      .watchDevices, .stopWatchingDevices, .startPreRollSound, .stopPreRollSound,
      .cancelFrameWaiters, .updatePreview, .showStillFrame, .turnTorchOff, .closeLibraryWindow, .pauseRecording,
      .armRecording, .disarmRecording,
      .endAudio, .microphoneFailed, .forgetRecording, .removeStreamBranch, .dropStreamBranch, .stopStreamServer,
      .removeStreamEncoder, .forgetStreamEncoders:
      return []
    case .publish(let event):
      if case .previewStarted = event, state.phase.running == nil {
        Issue.record("the preview's start announced before the camera runs: \(state.phase)", sourceLocation: location)
      }
      ledger.record(event: event)
    case .removeFile(let url):
      ledger.record(removed: url)
    case .decodeMovieFrame(_, _, _, let request):
      // The frame itself is GStreamer's: none comes back, as when one cannot be decoded.
      owed.append(.work(.movieFrameDecoded(request: request, nil)))
    case .deliverTrimmed(let movie, let span, _, let destination):
      // The cut takes time: the movie is delivered when it is done.
      ledger.record(trim: span)
      owed.append(.work(.cutMovieDelivered))
      deliver(.success(movie), to: destination, handingOver: nil)
    case .fail(let error):
      ledger.record(error: error)
    case .deliver(let result, let destination, let handingOver):
      deliver(result, to: destination, handingOver: handingOver)
    case .deliverEdited(let capture, _, _, let destination, let handingOver):
      deliver(.success(capture), to: destination, handingOver: handingOver)
    case .resumeReady(let waiters, let result):
      waiters.forEach { $0(result) }
    case .answerStream(let waiter, let result):
      waiter(result)
    case .afterCallbacks(let waiters):
      waiters.forEach { $0() }
    case .schedule(let timer, let seconds):
      timers[timer] = now + .milliseconds(Int64(seconds * 1000))
    case .cancelTimer(let timer):
      timers[timer] = nil
    case .buildSession(_, let version, _):
      owed.append(.work(.built(.success(makeSession()), version: version)))
    case .startSession(let session):
      owed.append(.work(.playingRequested(session: session.id, .async)))
      owed.append(.work(.bus(session: session.id, .stateChanged(source: session.path, old: .paused, new: .playing))))
      owed.append(.work(.previewStarted(session: session.id, at: .now)))
    case .stopSession(let id):
      owed.append(.work(.stopped(session: id)))
    case .lightTorch(let id, _):
      owed.append(.work(.torchLit(session: id)))
    case .takePhoto(let request, _):
      owed.append(.work(.photoTaken(request, .success(Self.capture(.image)), frame: nil)))
    case .attachRecording(let request, let session, _, _, _):
      // The worker builds the branch, then attaches it (``complete(_:succeeding:)``).
      owed.append(.work(.recordingBuilt(id: request.id, .success(.init(session: session, takesEncodedVideo: false)))))
    case .makeThumbnail(let id, _):
      owed.append(.work(.thumbnailMade(id: id, nil)))
    case .sendEndOfStream(let id, _):
      owed.append(.work(.recording(id: id, .drained)))
      return [.endOfStreamSent(id: id, at: now)]
    case .finishMovie(let id, let delivery):
      return [.movieFinished(id: id, .success(Self.movie(id)), delivery)]
    case .abandonRecording(_, let abandonment, let destination):
      let error: HVTCameraError =
        switch abandonment {
        case .drainStalled(let seconds): .drainStalled(partial: "partial", seconds: seconds, frames: 0)
        case .failed(let error): error
        }
      deliver(.failure(error), to: destination, handingOver: nil)
    case .removeRecording(let id):
      owed.append(.work(.recordingRemoved(id: id)))
    case .attachStream(let number, let name, _, _, _):
      owed.append(.work(.streamAttached(number: number, name: name, .success(nil), at: moment)))
      owed.append(.work(.streamFlowing(number: number, name: name, at: moment)))
    }
    return []
  }

  private func deliver(
    _ result: Result<HVTCapture, HVTCameraError>, to destination: Machine.Destination, handingOver: UInt64?
  ) {
    if let handingOver { owed.append(.handOver(handingOver)) }
    switch destination {
    case .delegate:
      // Only startVideoCapture()'s movies are the delegate's here: photos are asked for by callers.
      ledger.record(delegate: result)
    case .caller(let resume): resume(result)
    }
  }

  // MARK: - What the world owes

  /// Sends back owed item `index`: as it is, or (`succeeding` false) failed, where work can fail.
  func complete(_ index: Int, succeeding: Bool = true) {
    let item = owed.remove(at: index)
    switch item {
    case .handOver(let id):
      send(.photoHandedOver(id: id))
    case .work(let input):
      send(succeeding ? input : Self.failed(input, at: moment))
      // A branch built is attached next; its first frames may be reported before the worker says so.
      if succeeding, case .recordingBuilt(let id, .success) = input {
        owed += [
          .work(.recordingAttached(id: id, .success(()))), .work(.recording(id: id, .started)),
          .work(.recording(id: id, .enoughFrames)),
        ]
      }
    }
  }

  /// The input of a piece of work that failed.
  private static func failed(_ input: Machine.Input, at moment: Machine.Moment) -> Machine.Input {
    let error = HVTCameraError.noCameraAvailable(reason: "failed in a test")
    switch input {
    case .built(_, let version):
      return .built(.failure(error), version: version)
    case .playingRequested(let session, _):
      return .playingRequested(session: session, .failure)
    case .bus(let session, .stateChanged):
      return .bus(
        session: session,
        .error(report("/GstPipeline:test/GstV4l2Src:source"), origin: .pipeline, vanished: nil, at: moment))
    case .photoTaken(let request, _, let frame):
      return .photoTaken(request, .failure(error), frame: frame)
    case .recordingBuilt(let id, _):
      return .recordingBuilt(id: id, .failure(error))
    case .recordingAttached(let id, _):
      return .recordingAttached(id: id, .failure(error))
    case .streamAttached(let number, let name, _, let moment):
      return .streamAttached(number: number, name: name, .failure(error), at: moment)
    default:
      return input
    }
  }

  /// Forgets what the world owes that `matches`: it never comes (a drain that makes no progress).
  func dropOwed(where matches: (Owed) -> Bool) {
    owed.removeAll(where: matches)
  }

  /// Fires timer `timer`, advancing the clock to when it runs out; a drain's is read first, as the
  /// interpreter does.
  func fire(_ timer: Machine.TimerID) {
    guard let deadline = timers.removeValue(forKey: timer) else { return }
    now = max(now, deadline)
    if case .drain(let id) = timer {
      send(.drainChecked(id: id, lastProgress: nil, liveAudio: false, at: now))
    } else {
      send(.timer(timer, at: moment))
    }
  }

  /// Sends back everything owed and fires every timer, in an order `random` chooses, every piece of work
  /// succeeding, until nothing is left. Fails the test when that does not end: the machine would go on
  /// for ever.
  func settle(using random: inout some RandomNumberGenerator) {
    for _ in 0..<10_000 {
      if !owed.isEmpty, timers.isEmpty || Int.random(in: 0..<4, using: &random) > 0 {
        complete(Int.random(in: 0..<owed.count, using: &random))
      } else if let timer = timers.keys.randomElement(using: &random) {
        fire(timer)
      } else {
        return
      }
    }
    Issue.record("the machine did not settle:\n\(trace.suffix(40).joined(separator: "\n"))", sourceLocation: location)
  }

  private var moment: Machine.Moment { Machine.Moment(uptime: Double(now.hashValue % 1_000_000), jitter: 0.5) }

  // MARK: - The app's calls, as the controller makes them

  /// A new session's description, as `present()` or a rebuild makes one; its camera at `frameRate` when
  /// given (30 fps otherwise).
  func makeSession(hasPreRoll: Bool = false, frameRate: HVTFrameRate? = nil) -> Machine.Session {
    sessions += 1
    var configuration = Self.configuration
    if let frameRate { configuration.frameRate = frameRate }
    return Machine.Session(
      id: sessions, path: "/GstPipeline:test", camera: .init(configuration: configuration),
      encoding: .init(preRoll: hasPreRoll))
  }

  /// `present()`: builds a session from the current settings and hands it over.
  @discardableResult
  func present() -> Machine.Reply {
    send(.present(makeSession(), version: state.settingsVersion, environment: [:]))
  }

  /// `takePicture()` (`inFlight`) or `capturePhoto()`: asks, then hands the request over; its result is
  /// recorded in the ledger as photo `id`.
  @discardableResult
  func takePhoto(inFlight: Bool, reserved: Bool = true) -> UInt64 {
    let id = nextID()
    ledger.expect(photo: id)
    guard send(.askPhoto(id: id, inFlight: inFlight)) == .accepted else {
      ledger.settle(id)
      return id
    }
    guard reserved else {
      send(.photoNotReserved(id: id, .fileWriteFailed(path: "photo", reason: "a test"), inFlight: inFlight))
      ledger.settle(id)
      return id
    }
    send(
      .photo(
        .init(
          id: id, session: state.phase.session?.id, frame: nil, requestTime: nil, requestInstant: now,
          requestDate: Date(), flashMode: .off, location: nil, mediaTags: HVTMediaTags(), inPhotoMode: true,
          file: Self.file("IMG_\(id).jpg"), destination: ledger.destination(for: id), isInFlight: inFlight)))
    return id
  }

  /// `recordMovie()`, or `startVideoCapture()` (`toDelegate`, whose movie the delegate receives, or
  /// the review screen first): asks, then hands the request with its file over; returns its number when
  /// it started.
  @discardableResult
  func startRecording(toDelegate: Bool = false) -> UInt64? {
    guard send(.askRecording(inFlight: toDelegate)) == .accepted else { return nil }
    let id = nextID()
    if !toDelegate { ledger.expect(recording: id) }
    let request = Machine.RecordingRequest(
      id: id, destination: toDelegate ? .delegate : ledger.destination(for: id), file: Self.file("MOV_\(id).mp4"),
      limit: 600, location: nil, mediaTags: HVTMediaTags())
    guard send(.startRecording(request)) == .accepted else {
      if !toDelegate { ledger.settle(id) }
      return nil
    }
    if toDelegate { ledger.expect(delegateRecording: request.file.final) }
    return id
  }

  /// `presentAndWait()`'s wait, recorded as waiter `id`.
  @discardableResult
  func waitUntilRunning() -> UInt64 {
    let id = nextID()
    ledger.expect(waiter: id)
    send(.whenRunning { [ledger] _ in ledger.answer(waiter: id) })
    return id
  }

  /// `dismissAndWait()`'s wait.
  @discardableResult
  func waitUntilStopped() -> UInt64 {
    let id = nextID()
    ledger.expect(waiter: id)
    send(.whenStopped { [ledger] in ledger.answer(waiter: id) })
    return id
  }

  /// `waitUntilDismissed()`'s wait; cancelled at once when `cancelled`.
  @discardableResult
  func waitUntilDismissed(cancelled: Bool = false) -> UInt64 {
    let id = nextID()
    ledger.expect(waiter: id)
    send(.whenDismissed(id: id) { [ledger] in ledger.answer(waiter: id) })
    if cancelled { send(.cancelDismissalWait(id: id)) }
    return id
  }

  /// `startStreaming(_:)` to an SRT caller at `port`, which reconnects; the stream's answer is waiter
  /// `id`.
  @discardableResult
  func startStreaming(port: Int) -> UInt64 {
    let id = nextID()
    ledger.expect(waiter: id)
    let target = HVTStreamTarget.srt(uri: "srt://127.0.0.1:\(port)")
    if case .refused = send(.startStreaming(HVTStream(target: target)) { [ledger] _ in ledger.answer(waiter: id) }) {
      ledger.answer(waiter: id)
    }
    return id
  }

  private func nextID() -> UInt64 {
    requests += 1
    return requests
  }

  // MARK: - Invariants

  /// What every state must hold, whatever came before.
  private func checkInvariants() {
    let state = state
    func expect(_ condition: Bool, _ what: String) {
      guard !condition else { return }
      Issue.record("\(what)\n\(trace.suffix(30).joined(separator: "\n"))", sourceLocation: location)
    }
    let running = state.phase.running?.id
    let current = state.phase.session?.id
    if let session = state.recording?.branchSession {
      expect(session == running, "the recording taking frames has a branch on \(session), but \(state.phase) runs")
    }
    for ending in state.endingRecordings {
      if let session = ending.branchSession {
        expect(session == current, "an ending recording has a branch on \(session), in \(state.phase)")
      }
    }
    if case .closing = state.phase {
      expect(state.photos.inProgress == 0, "a pipeline closes with \(state.photos.inProgress) photos in progress")
      expect(
        state.endingRecordings.allSatisfy { $0.branchSession == nil } && state.recording?.branchSession == nil,
        "a pipeline closes with a recording's branch in it")
    }
    expect(state.photos.inProgress >= 0, "\(state.photos.inProgress) photos in progress")
    expect(state.moviesBeingCut >= 0, "\(state.moviesBeingCut) movies being cut")
    expect(state.photos.inProgress == 0 || current != nil, "photos in progress without a session")
    expect(state.announcedReadiness == state.isReadyForCapture, "the readiness announced is not the readiness")
    expect(state.isPresented || state.waiters.ready.isEmpty, "a present() caller waits for a dismissed camera")
    expect(state.isPresented || state.photos.awaitingCamera.isEmpty, "photos wait for a dismissed camera")
    expect(state.streamEncoders.isEmpty || running != nil, "streams' encoders without a running camera")
    expect(state.review == nil || running != nil, "a review screen without a running camera")
    if let timeline = state.review?.movie?.timeline {
      let slack = 1e-9
      expect(
        timeline.playhead >= 0 && timeline.playhead <= timeline.lastFrame + slack, "the playhead is off the movie")
      if let trim = timeline.trim {
        expect(trim.lowerBound >= 0 && trim.upperBound <= timeline.duration + slack, "the trim is off the movie")
        expect(trim.upperBound - trim.lowerBound <= timeline.limit + slack, "the trim is longer than the limit")
        expect(trim.upperBound - trim.lowerBound >= timeline.frameInterval - slack, "the trim is shorter than a frame")
      }
    }
    expect(
      state.handleDrag == nil || state.review?.movie?.timeline.trim != nil, "a handle dragged without a trim")
    if state.review?.movie != nil, case .delegate? = state.recording?.request.destination {
      expect(false, "startVideoCapture() records while its movie is reviewed")
    }
    let names = state.streams.compactMap(\.attempt?.name)
    expect(Set(names).count == names.count, "two streams' tries share a branch name")
    expect(!state.isReadyForCapture || state.configuration != nil, "ready for capture without a configuration")
    expect(state.recording == nil || state.isPresented, "recording while dismissed")
  }

  // MARK: - Values

  static let configuration = HVTCaptureConfiguration(
    device: .rear, deviceName: "Test camera", devicePath: "/dev/video0", deviceID: "v4l2:/dev/video0",
    preset: "default", requestedQuality: .type640x480, size: HVTFrameSize(width: 640, height: 480),
    movieSize: HVTFrameSize(width: 640, height: 480), requestedSize: nil, frameRate: HVTFrameRate(30),
    sourceFormat: "I420")

  static func file(_ name: String) -> CaptureFiles.Reservation {
    let directory = URL(fileURLWithPath: "/nonexistent/hvtcamera-machine-tests")
    return .init(
      partial: directory.appendingPathComponent(name + ".partial"), final: directory.appendingPathComponent(name),
      naming: .chosen(replacing: false))
  }

  static func capture(_ type: HVTMediaType) -> HVTCapture {
    HVTCapture(
      mediaType: type, url: URL(fileURLWithPath: "/nonexistent/capture"), image: nil,
      metadata: HVTMediaMetadata(
        captureDate: Date(), configuration: configuration, frameTimestamp: 0, frameAge: 0, flashFired: nil,
        duration: nil, frameCount: nil, encoder: "test", muxer: nil, stopReason: nil, fileSize: 0),
      interruption: nil)
  }

  /// Recording `id`'s movie, as the interpreter finishes it: 5 s, 150 frames at 30 fps.
  static func movie(_ id: UInt64) -> HVTCapture {
    var movie = capture(.movie)
    movie.url = file("MOV_\(id).mp4").final
    movie.metadata.duration = 5
    movie.metadata.frameCount = 150
    return movie
  }

  static func report(_ source: String) -> MessageReport {
    MessageReport(domain: "test", code: 1, message: "failed in a test", debug: nil, source: source)
  }

  /// An input's case name, for the trace.
  static func name(of input: Machine.Input) -> String { caseName(input) }

  /// An effect's case name, for the trace.
  static func name(of effect: Machine.Effect) -> String { caseName(effect) }

  /// The name of an enum value's case, without describing its payload (a preset's is large).
  private static func caseName(_ value: Any) -> String {
    Mirror(reflecting: value).children.first?.label ?? "\(value)"
  }
}
