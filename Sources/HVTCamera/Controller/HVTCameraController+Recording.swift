import Dispatch
import Foundation
import HVTGStreamer

extension HVTCameraController {
  // MARK: - Public API

  /// Starts recording a movie into ``outputDirectory`` and returns at once: the recording branch is added
  /// to the running pipeline (the source and preview keep running); the movie reaches the delegate when
  /// it stops. Returns false — as `UIImagePickerController` does — when a recording is in progress, in
  /// `.photo` mode, when ``mediaTypes`` lacks `.movie`, or when not presented; and when the movie's file
  /// cannot be created, which is also reported to the delegate (with the path and the system's reason).
  public func startVideoCapture() -> Bool {
    switch requestRecording(to: nil, replacing: false, limit: nil, destination: .delegate) {
    case .success:
      return true
    case .failure(let error):
      if case .fileWriteFailed = error { queue.async { self.fail(error) } }
      return false
    }
  }

  /// Stops recording: the branch is drained with EOS, the movie finalized, and the delegate (or the
  /// ``recordMovie(to:replacingExisting:maximumDuration:)`` caller) receives it. Does nothing when not
  /// recording, which is announced as ``HVTCameraEvent/callIgnored(call:reason:)``.
  public func stopVideoCapture() {
    let stopped = shared.withLock { shared in
      defer { stopRecording(in: &shared, reason: .requested) }
      return shared.recording != nil
    }
    if !stopped { ignored("stopVideoCapture()", because: "no movie is being recorded") }
  }

  /// Records a movie and returns it once it is finalized: stopped by ``stopVideoCapture()``, by
  /// `maximumDuration` (default ``videoMaximumDuration``; clamped to
  /// ``HVTCaptureLimits/recordingDuration``), by a change that stops the camera, or by cancelling the
  /// calling task — each of which still returns the movie with every frame captured.
  ///
  /// `url` names the movie (default: a generated name in ``outputDirectory``); its folder is created.
  /// An existing file there is an error (``HVTCameraError/fileExists(path:kept:)``) unless
  /// `replacingExisting` and it is a regular file; something else there (a symbolic link, a device) is
  /// never replaced. While recording, the movie is written to `name.partial.ext` beside it.
  ///
  /// Throws at once what stops the recording from starting (not presented, wrong mode or media types, a
  /// recording in progress, the file), and later a movie that could not be finalized
  /// (``HVTCameraError/recordingIncomplete(partial:bytes:duration:frames:reason:)``,
  /// ``HVTCameraError/drainStalled(partial:seconds:frames:)``). A movie cut short by a failure of the
  /// camera is returned, with the failure in ``HVTCapture/interruption``.
  public func recordMovie(to url: URL? = nil, replacingExisting: Bool = false, maximumDuration: Double? = nil)
    async throws -> HVTCapture
  {
    let box = Locked<CheckedContinuation<HVTCapture, any Error>?>(nil)
    let started = Locked<UInt64?>(nil)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        box.withLock { $0 = continuation }
        let destination = Destination.caller { result in
          box.withLock { $0.take() }?.resume(with: result.mapError { $0 })
        }
        switch requestRecording(to: url, replacing: replacingExisting, limit: maximumDuration, destination: destination)
        {
        case .success(let id): started.withLock { $0 = id }
        case .failure(let error): box.withLock { $0.take() }?.resume(throwing: error)
        }
      }
    } onCancel: {
      guard let id = started.withLock({ $0 }) else { return }
      shared.withLock { shared in
        if shared.recording == id { stopRecording(in: &shared, reason: .requested) }
      }
    }
  }

  // MARK: - Requests (any thread)

  /// Checks that a recording can start, reserves its file, and hands it to the queue. Returns its number.
  private func requestRecording(to url: URL?, replacing: Bool, limit: Double?, destination: Destination)
    -> Result<UInt64, HVTCameraError>
  {
    let (settings, presented, recording) = read { ($0.settings, $0.isPresented, $0.recording) }
    guard presented else { return .failure(.notPresented) }
    guard settings.mediaTypes.contains(.movie) else { return .failure(.mediaTypeNotEnabled(.movie)) }
    guard settings.cameraCaptureMode == .video else { return .failure(.wrongCaptureMode(.video)) }
    guard recording == nil else { return .failure(.recordingInProgress) }
    let file: CaptureFiles.Reservation
    do {
      file =
        if let url {
          try CaptureFiles.reserve(url, movie: true, replacing: replacing)
        } else {
          try CaptureFiles.reserve(
            in: settings.outputDirectory, prefix: "MOV", extension: settings.preset.movieExtension, movie: true)
        }
    } catch {
      return .failure(HVTCameraError(error))
    }
    let limit = HVTCaptureLimits.recordingDuration.clamp(limit ?? settings.videoMaximumDuration)
    let outcome = shared.withLock { shared -> Result<UInt64, HVTCameraError> in
      guard shared.isPresented else { return .failure(.notPresented) }
      guard shared.recording == nil else { return .failure(.recordingInProgress) }
      shared.recordingCount += 1
      let request = RecordingRequest(
        id: shared.recordingCount, destination: destination, file: file, limit: limit, location: settings.location,
        mediaTags: settings.mediaTags)
      shared.recording = request.id
      queue.async { self.beginRecording(request) }
      return .success(request.id)
    }
    if case .failure = outcome { file.discard() }
    return outcome
  }

  /// Marks the recording in `shared` as stopped and has the queue finalize it (called with the lock held,
  /// so that the stop is ordered with the calls around it).
  func stopRecording(in shared: inout Shared, reason: HVTRecordingStopReason) {
    guard let id = shared.recording else { return }
    shared.recording = nil
    queue.async { self.finishRecording(id: id, reason: reason) }
  }

  // MARK: - The recording's life (on the queue)

  /// Builds the branch for a request and attaches it on the worker queue; while the camera (re)starts,
  /// keeps the request until it runs.
  func beginRecording(_ request: RecordingRequest) {
    guard read(\.isPresented), state.recording == nil else {
      request.file.discard()
      clearRecordingSnapshot(request.id)
      return deliver(.failure(.notPresented), to: request.destination)
    }
    guard state.phase == .running, let session = state.session else {
      state.pendingRecording = request
      return
    }
    // With a pre-roll, the movie takes its encoded video; else, while streams run, the streams' encoder's:
    // one encoder for the movie and the streams.
    let streamEncoder = session.preRoll == nil ? state.streamEncoders[.movie] : nil
    let onStreams = streamEncoder.flatMap { encoder in session.model.recordingOnStreams.map { (encoder, $0) } }
    let feed = session.preRoll.map(EncodedFeed.preRoll) ?? onStreams.map { EncodedFeed.streams($0.0) }
    let branch: RecordingBranch
    do {
      let controller = WeakReference(self)
      let id = request.id
      branch = try RecordingBranch(
        chain: onStreams?.1 ?? session.model.recording,
        // After a pre-roll whose microphone failed or did not start, the movie is silent.
        audio: session.preRoll.map { $0.sound?.isRunning ?? false } ?? true ? session.model.audio : nil,
        feed: feed, file: request.file,
        name: state.draining.isEmpty ? "recording" : "recording\(id)",
        limit: request.limit,
        frameInterval: 1 / session.model.configuration.frameRate.framesPerSecond,
        tags: CaptureTags(
          date: Date(), configuration: session.model.configuration, location: request.location,
          tags: request.mediaTags)
      ) { [queue] event in
        queue.async { controller.target?.handleRecordingEvent(event, id: id) }
      }
    } catch {
      request.file.discard()
      clearRecordingSnapshot(request.id)
      return deliver(.failure(HVTCameraError(error)), to: request.destination)
    }
    branch.pauses.request(paused: read(\.recordingPaused))
    let recording = Recording(request: request, branch: branch, session: session, streamEncoder: onStreams?.0)
    state.recording = recording
    if let reason = session.model.audioUnavailableReason { publish(.audioUnavailable(reason: reason)) }
    lightTorch(on: session)
    worker.async {
      let result = Result { try branch.attach(to: session) }
      self.queue.async { self.attached(recording, result: result) }
    }
  }

  /// The branch was linked to the tee (or failed to be).
  private func attached(_ recording: Recording, result: Result<Void, any Error>) {
    switch result {
    case .success:
      recording.attached = true
      debugLog.log(
        .info, "recording branch added, writing \(recording.request.file.partial.path)",
        object: recording.session.pipeline)
      // A stop that came while the branch was being attached goes ahead now.
      if recording.stopReason != nil { sendEndOfStreamWhenReady(recording) }
    case .failure(let error):
      recording.request.file.discard()
      if state.recording === recording {
        state.recording = nil
        clearRecordingSnapshot(recording.request.id)
        turnTorchOff()
      }
      state.draining.removeAll { $0 === recording }
      if let encoder = recording.streamEncoder { releaseStreamEncoder(encoder, of: recording.session) }
      deliver(.failure(HVTCameraError(error)), to: recording.request.destination)
      continueStopping()
    }
  }

  private func handleRecordingEvent(_ event: RecordingBranch.Event, id: UInt64) {
    guard let recording = ([state.recording] + state.draining).compactMap({ $0 }).first(where: { $0.request.id == id })
    else { return }
    switch event {
    case .started:
      publish(.recordingStarted(url: recording.request.file.partial))
      makeThumbnail(of: recording)
    case .enoughFrames:
      if recording.waitingForFrames { sendEndOfStream(recording) }
    case .progress(let elapsed):
      if recording === state.recording { publish(.recordingProgress(elapsed: elapsed, limit: recording.request.limit)) }
    case .limitReached:
      debugLog.log(.info, "maximum duration \(recording.request.limit) s reached")
      if recording.waitingForFrames { sendEndOfStream(recording) }
      finishRecording(id: id, reason: .maximumDurationReached)
    case .audioUnavailable(let reason):
      publish(.audioUnavailable(reason: reason))
    case .paused(let elapsed):
      publish(.recordingPaused(elapsed: elapsed))
    case .resumed(let elapsed, let pausedFor):
      publish(.recordingResumed(elapsed: elapsed, pausedFor: pausedFor))
    case .drained:
      // A recording given up (its branch failed, its drain stalled) stays given up.
      guard !recording.finished else { return }
      recording.timer?.cancel()
      complete(recording)
    }
  }

  /// Ends the recording in progress, if it is number `id` (or any, when `id` is nil): it stops taking
  /// frames and drains.
  func finishRecording(id: UInt64? = nil, reason: HVTRecordingStopReason) {
    if let pending = state.pendingRecording, id.map({ $0 == pending.id }) ?? true {
      // Asked for while the camera was starting: it still begins, and stops after its first frames.
      state.pendingStop = reason
      return
    }
    guard let recording = state.recording, id.map({ $0 == recording.request.id }) ?? true else { return }
    state.recording = nil
    clearRecordingSnapshot(recording.request.id)
    recording.stopReason = reason
    state.draining.append(recording)
    turnTorchOff()
    if recording.attached { sendEndOfStreamWhenReady(recording) }
  }

  /// Sends the end of stream into the branch, after its first ``RecordingBranch/minimumFrames`` frames
  /// (a stop right after the start still makes a movie that plays) or two seconds, whichever comes first.
  private func sendEndOfStreamWhenReady(_ recording: Recording) {
    guard !recording.branch.hasEnoughFrames, recording.stopReason != .error else { return sendEndOfStream(recording) }
    recording.waitingForFrames = true
    recording.timer = schedule(after: 2) { controller in
      if recording.waitingForFrames { controller.sendEndOfStream(recording) }
    }
  }

  /// Unlinks the branch from the tee and sends EOS into it; the ``RecordingBranch/Event/drained`` event
  /// follows when the file is complete. The drain is watched for progress (see ``drainStallTimeout``).
  private func sendEndOfStream(_ recording: Recording) {
    guard recording.endOfStreamSent == nil else { return }
    recording.waitingForFrames = false
    recording.timer?.cancel()
    publish(.recordingStopped(elapsed: recording.branch.summary.duration, reason: recording.stopReason ?? .requested))
    recording.branch.sendEndOfStream()
    recording.endOfStreamSent = .now
    watchDrain(recording)
  }

  /// Gives up a drain that has made no progress for ``drainStallTimeout``; re-arms itself while it does.
  private func watchDrain(_ recording: Recording) {
    let stall = read(\.settings.drainStallTimeout)
    let last = max(
      recording.branch.lastProgress ?? recording.endOfStreamSent ?? .now, recording.endOfStreamSent ?? .now)
    let remaining = stall - Self.seconds(ContinuousClock.now - last)
    guard remaining <= 0 else {
      recording.timer = schedule(after: remaining) { $0.watchDrain(recording) }
      return
    }
    guard !recording.finished else { return }
    if recording.branch.hasLiveAudio, !recording.audioEndForced {
      // The muxer waits for sound that does not come (a microphone that stopped without an error): the
      // sound ends here, and the drain gets another period to finish the movie.
      debugLog.log(.warning, "the recording drain made no progress for \(stall) s: ending its sound")
      recording.audioEndForced = true
      recording.endOfStreamSent = .now
      worker.async { recording.branch.endAudio() }
      return watchDrain(recording)
    }
    debugLog.log(.warning, "the recording drain made no progress for \(stall) s")
    let summary = recording.branch.summary
    giveUp(
      recording,
      .drainStalled(partial: recording.request.file.partial.path, seconds: stall, frames: summary.frames))
  }

  /// The recording's microphone failed: the movie's sound ends there (its end of stream lets the muxer
  /// finish), its video goes on, and an event says why.
  func audioFailed(_ recording: Recording, _ error: HVTCameraError) {
    // One that fails before its first sound is taken out while the recording starts, which says so.
    guard recording.branch.hasLiveAudio else {
      return debugLog.log(.info, "the microphone failed while starting: \(Self.cause(of: error))")
    }
    publish(.audioUnavailable(reason: "the microphone failed: \(Self.cause(of: error))"))
    worker.async { recording.branch.endAudio() }
  }

  /// An element of the recording branch failed: nothing more reaches the file, which cannot be
  /// finalized; it stays under its partial name, and the error says what it holds.
  func recordingFailed(_ recording: Recording, _ error: HVTCameraError) {
    guard !recording.finished else { return }
    if state.recording === recording { finishRecording(reason: .error) }
    recording.timer?.cancel()
    recording.waitingForFrames = false
    let summary = recording.branch.summary
    let partial = recording.request.file.partial
    let bytes = CaptureFiles.size(of: partial)
    let reason = Self.cause(of: error)
    guard bytes > 0 else {
      recording.request.file.discard()
      return giveUp(
        recording, .fileWriteFailed(path: recording.request.file.final.path, reason: "nothing was written: \(reason)"))
    }
    giveUp(
      recording,
      .recordingIncomplete(
        partial: partial.path, bytes: bytes, duration: summary.duration, frames: summary.frames, reason: reason))
  }

  /// Reports a recording that will not be finalized and removes its branch.
  private func giveUp(_ recording: Recording, _ error: HVTCameraError) {
    recording.finished = true
    recording.timer?.cancel()
    deliver(.failure(error), to: recording.request.destination)
    removeBranch(recording)
  }

  /// Makes the movie's thumbnail from its first frame on the photo queue (as photos' are), for
  /// ``complete(_:)`` to deliver.
  private func makeThumbnail(of recording: Recording) {
    guard let first = recording.branch.takeFirstFrame() else { return }
    makeThumbnail(for: recording) { self.thumbnail(of: first.buffer, caps: first.caps, on: recording.session) }
  }

  /// Makes the thumbnail of a movie whose first frame came encoded (``EncodedFeed``): from its complete
  /// file (``FileThumbnail``), before it is delivered.
  private func makeFileThumbnail(of recording: Recording) {
    let (file, size) = (recording.request.file.partial, read(\.settings.thumbnailMaximumDimension))
    makeThumbnail(for: recording) {
      do {
        return try FileThumbnail.make(of: file, maximumDimension: size)
      } catch {
        debugLog.log(.warning, "no thumbnail: \(error)")
        return nil
      }
    }
  }

  /// Runs `make` on the photo queue and keeps its thumbnail for the recording's delivery.
  private func makeThumbnail(for recording: Recording, _ make: @escaping @Sendable () -> HVTImage?) {
    recording.makingThumbnail = true
    photoQueue.async {
      let thumbnail = make()
      self.queue.async {
        recording.thumbnail = thumbnail
        recording.makingThumbnail = false
        let delivery = recording.whenThumbnailMade
        recording.whenThumbnailMade = nil
        delivery?()
      }
    }
  }

  /// The file is complete: gives it its final name and delivers it, with its thumbnail (once it is made,
  /// if it is still being made), then removes the branch.
  private func complete(_ recording: Recording) {
    recording.finished = true
    if recording.branch.takesEncodedVideo, recording.thumbnail == nil { makeFileThumbnail(of: recording) }
    guard recording.makingThumbnail else { return deliverComplete(recording) }
    recording.whenThumbnailMade = { self.deliverComplete(recording) }
  }

  /// See ``complete(_:)``.
  private func deliverComplete(_ recording: Recording) {
    let summary = recording.branch.summary
    let file = recording.request.file
    guard summary.frames > 0 else {
      file.discard()
      return giveUp(recording, .recordingEmpty(path: file.final.path))
    }
    // The file sink writes unbuffered: once the end of stream reached it, the file is complete, so the
    // movie is delivered before the branch is torn down (closing the encoder takes a few milliseconds).
    let result = Result { () throws -> HVTCapture in
      MatroskaTagStrings.unquote(in: file.partial)
      let url = try file.complete()
      let model = recording.session.model
      let firstTimestamp = summary.firstTimestamp.map(ClockTime.seconds) ?? 0
      let age = recording.branch.linkTime.map { ClockTime.seconds($0) - firstTimestamp }
      var metadata = HVTMediaMetadata(
        captureDate: recording.branch.linkDate.addingTimeInterval(-(age ?? 0)),
        configuration: model.configuration.ofMovies,
        frameTimestamp: firstTimestamp, frameAge: age, flashFired: nil, duration: summary.duration,
        frameCount: summary.frames, framesLostByDriver: summary.framesLostByDriver, encoder: model.movieEncoder,
        muxer: model.movieMuxer, audioEncoder: summary.audioDuration.flatMap { _ in model.audio?.encoder },
        audioDuration: summary.audioDuration,
        stopReason: recording.stopReason, fileSize: CaptureFiles.size(of: url),
        encodingStartedAt: summary.encodingStartedAt)
      if let written = recording.branch.writtenTags { metadata.record(written) }
      (metadata.pauses, metadata.pausedDuration) = (summary.pauses, summary.pausedDuration)
      var capture = HVTCapture(
        mediaType: .movie, url: url, image: nil, metadata: metadata, interruption: recording.interruption)
      capture.thumbnail = recording.thumbnail
      return capture
    }
    deliver(result.mapError(HVTCameraError.init), to: recording.request.destination)
    removeBranch(recording)
  }

  /// Removes a finished branch on the worker queue, then lets a stopping camera go on.
  private func removeBranch(_ recording: Recording) {
    // The timer's handler holds the recording: dropping the timer breaks that cycle.
    recording.timer?.cancel()
    recording.timer = nil
    let session = recording.session
    worker.async {
      recording.branch.remove(from: session)
      self.queue.async {
        debugLog.log(
          .info,
          "recording branch removed (\(recording.stopReason?.rawValue ?? "?")): \(recording.branch.summary.frames) frames",
          object: session.pipeline)
        self.state.draining.removeAll { $0 === recording }
        if let encoder = recording.streamEncoder { self.releaseStreamEncoder(encoder, of: session) }
        self.continueStopping()
      }
    }
  }

  /// Forgets recording `id` in the snapshot, if it is still the one there.
  func clearRecordingSnapshot(_ id: UInt64) {
    shared.withLock { shared in
      if shared.recording == id { shared.recording = nil }
    }
  }

  /// Lights the simulated torch for a recording when the flash mode says so.
  private func lightTorch(on session: CaptureSession) {
    guard session.canLight, let frame = session.tap.latest,
      HVTFlashDecision.fires(read(\.settings.cameraFlashMode), for: frame)
    else { return }
    do {
      try session.setLight(true, torch: true)
      state.torchLit = true
    } catch {
      fail(error)
    }
  }

  private func turnTorchOff() {
    guard state.torchLit, let session = state.session else { return }
    state.torchLit = false
    do { try session.setLight(false, torch: true) } catch { fail(error) }
  }

  /// GStreamer's message for a GStreamer error, else the error's description.
  static func cause(of error: HVTCameraError) -> String {
    if case .gstreamer(let message) = error { return "\(message.message) (\(message.element))" }
    return error.description
  }

  /// A duration in seconds.
  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
