import Dispatch
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTCameraController {
  // MARK: - Public API

  /// Starts recording a movie into ``outputDirectory`` and returns at once: the recording branch is added
  /// to the running pipeline (the source and preview keep running); the movie reaches the delegate when
  /// it stops. Returns false — as `UIImagePickerController` does — when a recording is in progress, in
  /// `.photo` mode, when ``mediaTypes`` lacks `.movie`, or when not presented; and when the movie's file
  /// cannot be created, which is also reported to the delegate (with the path and the system's reason).
  ///
  /// With the default controls on a window, a movie it records goes to the review screen when it stops
  /// (``isReviewingMovie``), and is delivered only when **Use Video** is chosen; until then it is in
  /// flight, and another call has no effect (it returns false, and says so with
  /// ``HVTCameraEvent/callIgnored(call:reason:)``), as ``takePicture()`` does while a photo is in flight.
  public func startVideoCapture() -> Bool {
    switch requestRecording(to: nil, replacing: false, limit: nil, destination: .delegate) {
    case .success:
      return true
    case .failure(let error):
      if case .fileWriteFailed = error { queue.async { self.fail(error) } }
      return false
    case nil:
      return false
    }
  }

  /// Stops recording: the branch is drained with EOS, the movie finalized, and the delegate (or the
  /// ``recordMovie(to:replacingExisting:maximumDuration:)`` caller) receives it. Does nothing when not
  /// recording, which is announced as ``HVTCameraEvent/callIgnored(call:reason:)``.
  public func stopVideoCapture() {
    send(.stopRecording(id: nil))
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
  /// camera is returned, with the failure in ``HVTCapture/interruption``; when the failure came before
  /// its first frame (or the camera, asked for while it started, did not start), there is no movie, and
  /// the failure is thrown. A recording stopped before its first frame throws
  /// ``HVTCameraError/recordingEmpty(path:)``. After a failure dismissed the camera (lost, or not
  /// started), and until the next `present()` or `dismiss()`, it throws that failure rather than
  /// ``HVTCameraError/notPresented``.
  public func recordMovie(to url: URL? = nil, replacingExisting: Bool = false, maximumDuration: Double? = nil)
    async throws -> HVTCapture
  {
    let box = Locked<CheckedContinuation<HVTCapture, any Error>?>(nil)
    let started = Locked<UInt64?>(nil)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        box.withLock { $0 = continuation }
        let destination = ControllerMachine.Destination.caller { result in
          box.withLock { $0.take() }?.resume(with: result.mapError { $0 })
        }
        switch requestRecording(to: url, replacing: replacingExisting, limit: maximumDuration, destination: destination)
        {
        case .success(let id): started.withLock { $0 = id }
        case .failure(let error): box.withLock { $0.take() }?.resume(throwing: error)
        // Only startVideoCapture() is ignored while its movie is in flight; an async recording never is.
        case nil: box.withLock { $0.take() }?.resume(throwing: HVTCameraError.recordingInProgress)
        }
      }
    } onCancel: {
      guard let id = started.withLock({ $0 }) else { return }
      send(.stopRecording(id: id))
    }
  }

  // MARK: - Requests (any thread)

  /// Asks the machine whether a recording can start, reserves its file, and hands it over. Returns its
  /// number; `nil` when the call has no effect (a `startVideoCapture()` while its movie is in flight).
  private func requestRecording(
    to url: URL?, replacing: Bool, limit: Double?, destination: ControllerMachine.Destination
  ) -> Result<UInt64, HVTCameraError>? {
    let inFlight = if case .delegate = destination { true } else { false }
    switch send(.askRecording(inFlight: inFlight)) {
    case .refused(let error): return .failure(error)
    case .ignored: return nil
    case .accepted, .outdated: break
    }
    let settings = read(\.settings)
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
    let request = ControllerMachine.RecordingRequest(
      id: nextRequestID(), destination: destination, file: file,
      limit: HVTCaptureLimits.recordingDuration.clamp(limit ?? settings.videoMaximumDuration),
      location: settings.location, mediaTags: settings.mediaTags, slowEncoderPolicy: settings.slowEncoderPolicy)
    if case .refused(let error) = send(.startRecording(request)) { return .failure(error) }
    return .success(request.id)
  }

  // MARK: - Effects

  /// The branch of recording `id`, with its session and streams' encoder, while it is held.
  func recordingObjects(_ id: UInt64) -> ControllerResources.RecordingObjects? {
    resources.withLock { $0.recordings[id] }
  }

  /// Builds the branch of a recording (``ControllerMachine/Input/recordingBuilt(id:_:)``) and attaches it
  /// (``ControllerMachine/Input/recordingAttached(id:_:)``), both on the worker. With a pre-roll the movie
  /// takes its encoded video; `onStreamEncoder`, the streams' encoder's; else the session's armed
  /// encoding when it has one under `name` (``ArmedRecording``).
  func attachRecording(
    _ request: ControllerMachine.RecordingRequest, on id: UInt64, name: String, paused: Bool, onStreamEncoder: Bool
  ) {
    guard let session = session(id) else {
      send(.recordingBuilt(id: request.id, .failure(.notPresented)))
      return
    }
    let encoder = onStreamEncoder ? resources.withLock { $0.streamEncoders[.movie]?.encoder } : nil
    worker.async {
      debugLog.log(.debug, "recording \(request.id): building the branch", object: session.pipeline)
      let chain = encoder.flatMap { _ in session.model.recordingOnStreams }
      let (branch, armed): (RecordingBranch, Bool)
      do {
        (branch, armed) = try self.makeBranch(request, on: session, name: name, onStreams: chain, of: encoder)
      } catch {
        _ = self.resources.withLock { $0.pendingPauses.removeValue(forKey: request.id) }
        self.post(.recordingBuilt(id: request.id, .failure(HVTCameraError(error))))
        return
      }
      let pending = self.resources.withLock { resources in
        resources.recordings[request.id] = .init(
          branch: branch, session: session, streamEncoder: chain == nil ? nil : encoder)
        return resources.pendingPauses.removeValue(forKey: request.id)
      }
      branch.pauses.request(paused: pending ?? paused)
      self.post(
        .recordingBuilt(id: request.id, .success(.init(session: id, takesEncodedVideo: branch.takesEncodedVideo))))
      debugLog.log(
        .debug, "recording \(request.id): branch built\(armed ? " on the armed encoding" : "")",
        object: session.pipeline)
      let result = Result { try branch.attach(to: session) }
      debugLog.log(.debug, "recording \(request.id): branch attached", object: session.pipeline)
      self.post(.recordingAttached(id: request.id, result.mapError(HVTCameraError.init)))
    }
  }

  /// Makes recording `request`'s branch on `session` (on the worker): after a pre-roll, or on the streams'
  /// `streamEncoder` (with `chain`, the model's ``HVTPipelineModel/recordingOnStreams``), one that takes
  /// their encoded video; else on the session's armed encoding when it has one under `name`, which is
  /// taken out otherwise (it holds the name). Returns the branch and whether it took the armed encoding.
  private func makeBranch(
    _ request: ControllerMachine.RecordingRequest, on session: CaptureSession, name: String,
    onStreams chain: [HVTElementDescription]?, of streamEncoder: StreamEncoder?
  ) throws -> (RecordingBranch, armed: Bool) {
    let feed = session.preRoll.map(EncodedFeed.preRoll) ?? streamEncoder.map(EncodedFeed.streams)
    let taken = session.takeArmedRecording(named: name)
    // A movie taking encoded video has no use for it, and it holds the branch's name.
    if feed != nil { taken?.discard(from: session) }
    let armed = feed == nil ? taken : nil
    let (relay, recording) = (ControllerRelay(self), request.id)
    do {
      let branch = try RecordingBranch(
        chain: chain ?? session.model.recording,
        // After a pre-roll whose microphone failed or did not start, the movie is silent.
        audio: session.preRoll.map { $0.sound?.isRunning ?? false } ?? true ? session.model.audio : nil,
        feed: feed, armed: armed, file: request.file, name: name, limit: request.limit,
        backlog: request.slowEncoderPolicy.backlog,
        frameInterval: 1 / session.model.configuration.frameRate.framesPerSecond,
        tags: CaptureTags(
          date: Date(), configuration: session.model.configuration, location: request.location,
          tags: request.mediaTags),
        worker: worker
      ) { event in
        relay.post(.recording(id: recording, event))
      }
      return (branch, armed != nil)
    } catch {
      armed?.discard(from: session)
      throw error
    }
  }

  /// Pauses recording `id` or lets it go on (``RecordingBranch/setPaused(_:)``); while its branch is being
  /// built, the branch starts that way.
  func setPaused(_ id: UInt64, _ paused: Bool) {
    let branch = resources.withLock { resources -> RecordingBranch? in
      if let branch = resources.recordings[id]?.branch { return branch }
      resources.pendingPauses[id] = paused
      return nil
    }
    branch?.setPaused(paused)
  }

  /// Arms the next recording's encoding on session `id`, on the worker (``CaptureSession/armRecording()``).
  func armRecording(on id: UInt64) {
    guard let session = session(id) else { return }
    worker.async { session.armRecording() }
  }

  /// Takes session `id`'s armed encoding out, on the worker (``CaptureSession/disarmRecording()``).
  func disarmRecording(on id: UInt64) {
    guard let session = session(id) else { return }
    worker.async { session.disarmRecording() }
  }

  /// Makes the thumbnail of recording `id` on the photo queue (as photos' are): from its first frame, or
  /// (`fromFile`, a movie whose frames came encoded) from its complete file (``FileThumbnail``).
  func makeThumbnail(of id: UInt64, fromFile: Bool) {
    guard let recording = recordingObjects(id) else {
      send(.thumbnailMade(id: id, nil))
      return
    }
    let session = recording.session
    if fromFile {
      let (file, size) = (recording.branch.file.partial, read(\.settings.thumbnailMaximumDimension))
      photoQueue.async {
        do {
          self.post(.thumbnailMade(id: id, try FileThumbnail.make(of: file, maximumDimension: size)))
        } catch {
          debugLog.log(.warning, "no thumbnail: \(error)")
          self.post(.thumbnailMade(id: id, nil))
        }
      }
    } else {
      guard let first = recording.branch.takeFirstFrame() else {
        send(.thumbnailMade(id: id, nil))
        return
      }
      photoQueue.async {
        self.post(.thumbnailMade(id: id, self.thumbnail(of: first.buffer, caps: first.caps, on: session)))
      }
    }
  }

  /// Sends the end of stream into the recording's branch (unlinked from the tee), then announces the
  /// stop, with the time it recorded; the ``RecordingBranch/Event/drained`` event follows when the file
  /// is complete. The end of stream goes first: the encoder and the muxer finish the file on their
  /// threads while the announcement is made.
  func sendEndOfStream(_ id: UInt64, reason: HVTRecordingStopReason) {
    guard let branch = recordingObjects(id)?.branch else { return }
    debugLog.log(.debug, "\(branch.path): stopping (\(reason))")
    branch.sendEndOfStream()
    publish(.recordingStopped(elapsed: branch.summary.duration, reason: reason))
    send(.endOfStreamSent(id: id, at: .now))
  }

  /// The recording's microphone failed: the movie's sound ends there (its end of stream lets the muxer
  /// finish), its video goes on, and an event says why.
  func microphoneFailed(_ id: UInt64, _ error: HVTCameraError) {
    guard let branch = recordingObjects(id)?.branch else { return }
    // One that fails before its first sound is taken out while the recording starts, which says so.
    guard branch.hasLiveAudio else {
      return debugLog.log(.info, "the microphone failed while starting: \(Self.cause(of: error))")
    }
    publish(.audioUnavailable(reason: "the microphone failed: \(Self.cause(of: error))"))
    worker.async { branch.endAudio() }
  }

  /// The file is complete: gives it its final name and hands the movie — or, with no frame in it, why
  /// not — to the machine, which delivers it or shows it for review, then has the branch removed. The file
  /// sink writes unbuffered: once the end of stream reached it, the file is complete, so the movie is
  /// delivered before the branch is torn down (closing the encoder takes a few milliseconds).
  func finishMovie(_ id: UInt64, _ delivery: ControllerMachine.MovieDelivery) {
    guard let recording = recordingObjects(id) else { return removeRecording(id) }
    let summary = recording.branch.summary
    let file = recording.branch.file
    guard summary.frames > 0 else {
      file.discard()
      let error = ControllerMachine.failure(
        to: delivery.destination, cause: delivery.interruption, otherwise: .recordingEmpty(path: file.final.path))
      send(.movieFinished(id: id, .failure(error), delivery))
      return
    }
    let result = Result { () throws -> HVTCapture in
      let model = recording.session.model
      // Only a Matroska muxer's file can need it: an MP4 is not opened again (on ext4, the close of a
      // second descriptor of a file its writer truncated starts the writeback of everything written).
      if MatroskaTagStrings.muxers.contains(model.movieMuxer) { MatroskaTagStrings.unquote(in: file.partial) }
      let url = try file.complete()
      let firstTimestamp = summary.firstTimestamp.map(ClockTime.seconds) ?? 0
      let age = recording.branch.linkTime.map { ClockTime.seconds($0) - firstTimestamp }
      var metadata = HVTMediaMetadata(
        captureDate: recording.branch.linkDate.addingTimeInterval(-(age ?? 0)),
        configuration: model.configuration.ofMovies,
        frameTimestamp: firstTimestamp, frameAge: age, flashFired: nil, duration: summary.duration,
        frameCount: summary.frames, framesLostByDriver: summary.framesLostByDriver,
        framesDroppedForEncoder: summary.framesDroppedForEncoder, encoder: model.movieEncoder,
        muxer: model.movieMuxer, audioEncoder: summary.audioDuration.flatMap { _ in model.audio?.encoder },
        audioDuration: summary.audioDuration,
        stopReason: delivery.reason, fileSize: CaptureFiles.size(of: url),
        encodingStartedAt: summary.encodingStartedAt)
      if let written = recording.branch.writtenTags { metadata.record(written) }
      (metadata.pauses, metadata.pausedDuration) = (summary.pauses, summary.pausedDuration)
      var capture = HVTCapture(
        mediaType: .movie, url: url, image: nil, metadata: metadata, interruption: delivery.interruption)
      capture.thumbnail = delivery.thumbnail
      return capture
    }
    debugLog.log(.debug, "\(recording.branch.path): the movie is complete")
    send(.movieFinished(id: id, result.mapError(HVTCameraError.init), delivery))
  }

  /// Delivers why a recording will not be finalized: its drain stalled, or an element of its branch
  /// failed — then nothing more reaches the file, which stays under its partial name, and the error says
  /// what it holds (a file with nothing written is removed).
  func abandonRecording(
    _ id: UInt64, _ abandonment: ControllerMachine.Abandonment, to destination: ControllerMachine.Destination
  ) {
    guard let branch = recordingObjects(id)?.branch else { return }
    let summary = branch.summary
    let error: HVTCameraError
    switch abandonment {
    case .drainStalled(let seconds):
      error = .drainStalled(partial: branch.file.partial.path, seconds: seconds, frames: summary.frames)
    case .failed(let failure):
      let bytes = CaptureFiles.size(of: branch.file.partial)
      let reason = Self.cause(of: failure)
      if bytes > 0 {
        error = .recordingIncomplete(
          partial: branch.file.partial.path, bytes: bytes, duration: summary.duration, frames: summary.frames,
          reason: reason)
      } else {
        branch.file.discard()
        error = .fileWriteFailed(path: branch.file.final.path, reason: "nothing was written: \(reason)")
      }
    }
    deliver(.failure(error), to: destination, handingOver: nil)
  }

  /// Removes a finished branch on the worker (``ControllerMachine/Input/recordingRemoved(id:)``).
  func removeRecording(_ id: UInt64) {
    guard let recording = resources.withLock({ $0.recordings.removeValue(forKey: id) }) else {
      send(.recordingRemoved(id: id))
      return
    }
    worker.async {
      recording.branch.remove(from: recording.session)
      debugLog.log(
        .info, "recording branch removed: \(recording.branch.summary.frames) frames", object: recording.session.pipeline
      )
      self.post(.recordingRemoved(id: id))
      AllocatorPolicy.releaseFreedMemory(after: "the recording branch")
    }
  }

  /// Lights the simulated torch for a recording when the flash mode says so for the newest frame.
  func lightTorch(on id: UInt64, mode: CameraFlashMode) {
    guard let session = session(id), session.canLight, let frame = session.tap.latest,
      HVTFlashDecision.fires(mode, for: frame)
    else { return }
    do {
      try session.setLight(true, torch: true)
      send(.torchLit(session: id))
    } catch {
      fail(error)
    }
  }

  /// Turns the simulated torch off.
  func turnTorchOff(on id: UInt64) {
    do { try session(id)?.setLight(false, torch: true) } catch { fail(error) }
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
