import Foundation
import HVTGStreamer

/// Streams: their tries, retries and encoders.
extension ControllerMachine.Transition {
  // MARK: - Streams

  mutating func startStreaming(
    _ stream: HVTStream, waiter: @escaping @Sendable (Result<String, HVTCameraError>) -> Void
  ) {
    // Checked as hvtcam stream and presets check theirs, with the streams asked for before it.
    let asked = state.streams.map { HVTStream(target: $0.target) }
    if let issue = HVTStream.issues(in: asked + [stream]).last(where: { $0.stream == asked.count }) {
      return reply(.refused(.invalidStreamTarget(target: stream.target.description, reason: issue.reason)))
    }
    state.streamCount += 1
    state.streams.append(Machine.Stream(number: state.streamCount, request: stream, waiter: waiter))
    state.streamSecrets.formUnion(stream.target.secrets)
    if let session = state.phase.running { attach(state.streams.count - 1, to: session) }
    reply(.accepted)
  }

  /// Starts every stream's try in a camera that now runs.
  mutating func attachStreams(to session: Machine.Session) {
    for index in state.streams.indices where state.streams[index].attempt == nil && !state.streams[index].retryScheduled
    {
      attach(index, to: session)
    }
  }

  /// Starts a try of the stream: its server (once) and its branch; the encoder too, for the first stream
  /// of its encoding (but the movies' with a pre-roll, whose encoder runs). The branch's name is the
  /// stream's from here on, so that no error posted from inside it is missed, and the try fails unless
  /// the stream runs within ``HVTStreamTarget/startTimeout``.
  mutating func attach(_ index: Int, to session: Machine.Session) {
    state.streams[index].tries += 1
    let stream = state.streams[index]
    let name = "\(StreamBranch.namePrefix)\(stream.number)-\(stream.tries)"
    state.streams[index].attempt = Machine.Stream.Attempt(name: name)
    let use: Machine.StreamEncoderUse
    if !session.needsStreamEncoder(for: stream.encoding) {
      use = .preRoll
    } else if state.streamEncoders.insert(stream.encoding).inserted {
      use = .make
      // The next movie takes the streams' encoder's video: the encoding armed for it goes.
      if session.recordsOnStreamEncoder(among: state.streamEncoders) { effects.append(.disarmRecording(session.id)) }
    } else {
      use = .existing
    }
    effects += [
      .schedule(.streamDeadline(stream: stream.number, name: name), after: HVTStreamTarget.startTimeout),
      .attachStream(number: stream.number, name: name, stream.request, on: session.id, encoder: use),
    ]
  }

  /// The try `name` of stream `number` was attached, or failed to be. A try that ended meanwhile (its
  /// error came first, it was stopped, the camera stopped) is taken out.
  mutating func streamAttached(
    _ number: Int, name: String, _ result: Result<String?, HVTCameraError>, at moment: Machine.Moment
  ) {
    guard let index = streamIndex(number, attempt: name) else {
      if case .success = result { effects.append(.removeStreamBranch(name: name)) }
      return
    }
    switch result {
    case .success(let url):
      state.streams[index].attempt?.attached = true
      if let url { state.streams[index].serverURL = url }
      // A server of the process's own (RTSP, an SRT listener) or a folder runs once started; a push target
      // once its sink took data without failing.
      let stream = state.streams[index]
      if stream.attempt?.flowed == true || !stream.target.reconnects { announce(index, at: moment) }
    case .failure(let error):
      streamFailed(index, error, at: moment)
    }
  }

  /// Says that the stream runs, and answers the caller still waiting for it.
  mutating func announce(_ index: Int, at moment: Machine.Moment) {
    guard let name = state.streams[index].attempt?.name else { return }
    let number = state.streams[index].number
    let attempts = state.streams[index].retries.back(at: moment.uptime)
    let stream = state.streams[index]
    state.streams[index].waiter = nil
    effects += [
      .cancelTimer(.streamDeadline(stream: number, name: name)),
      .log(.info, "streaming to \(stream.target) (\(stream.url))", session: state.phase.session?.id),
      .publish(
        attempts > 0
          ? .streamReconnected(stream.target, attempts: attempts) : .streamStarted(stream.target, url: stream.url)
      ),
    ]
    if let waiter = stream.waiter { effects.append(.answerStream(waiter, .success(stream.url))) }
  }

  /// The stream's current try failed, or did not start: its branch is taken out; a push target that ran
  /// once is tried again later, anything else ends (and a caller still waiting gets the error).
  mutating func streamFailed(_ index: Int, _ error: HVTCameraError, at moment: Machine.Moment) {
    let stream = state.streams[index]
    let cause = if case .streamFailed(_, let own) = error { own } else { HVTCameraController.cause(of: error) }
    // GStreamer's message may quote the target's URL.
    let reason = stream.target.masking(cause)
    effects.append(.log(.warning, "the stream to \(stream.target) failed: \(reason)", session: nil))
    endTry(index, removing: true)
    let next =
      stream.target.reconnects && stream.waiter == nil
      ? state.streams[index].retries.lost(at: moment.uptime, jitter: moment.jitter) : nil
    effects.append(.publish(.streamDisconnected(stream.target, reason: reason, retry: next)))
    guard let next else {
      var ended = state.streams.remove(at: index)
      if let waiter = ended.waiter {
        effects.append(
          .answerStream(waiter, .failure(.streamFailed(target: stream.target.description, reason: reason))))
        ended.waiter = nil
      }
      return end(ended, announcing: false)
    }
    state.streams[index].retryScheduled = true
    effects.append(.schedule(.streamRetry(stream: stream.number), after: next.delay))
  }

  /// Ends the current try of stream `index`: its branch is no longer the stream's; an attached one is
  /// removed (`removing`) or left to its stopping pipeline.
  mutating func endTry(_ index: Int, removing: Bool) {
    guard let attempt = state.streams[index].attempt else { return }
    state.streams[index].attempt = nil
    effects.append(.cancelTimer(.streamDeadline(stream: state.streams[index].number, name: attempt.name)))
    guard attempt.attached else { return }
    effects.append(removing ? .removeStreamBranch(name: attempt.name) : .dropStreamBranch(name: attempt.name))
  }

  /// Ends a stream taken out of the list: its branch and server stop, and the encoder with the last
  /// stream.
  mutating func end(_ stream: Machine.Stream, announcing: Bool = true) {
    effects.append(.cancelTimer(.streamRetry(stream: stream.number)))
    if let waiter = stream.waiter {
      effects.append(
        .answerStream(waiter, .failure(.streamFailed(target: stream.target.description, reason: "stopped"))))
    }
    if let attempt = stream.attempt {
      effects.append(.cancelTimer(.streamDeadline(stream: stream.number, name: attempt.name)))
      if attempt.attached { effects.append(.removeStreamBranch(name: attempt.name)) }
    }
    effects.append(.stopStreamServer(number: stream.number))
    releaseStreamEncoder(stream.encoding)
    if announcing { effects.append(.publish(.streamStopped(stream.target))) }
  }

  /// Stops a streams' encoder once nothing takes its video any more: no stream of its encoding, and no
  /// recording that is still in the pipeline.
  mutating func releaseStreamEncoder(_ encoding: HVTStreamEncoding) {
    let recordings = [state.recording?.onStreamEncoder ?? false] + state.endingRecordings.map(\.onStreamEncoder)
    guard state.streamEncoders.contains(encoding), !state.streams.contains(where: { $0.encoding == encoding }),
      !(encoding.isMovie && recordings.contains(true))
    else { return }
    state.streamEncoders.remove(encoding)
    effects.append(.removeStreamEncoder(encoding))
    armNextRecording()
  }

  /// The camera stops: the streams' branches and encoders go with its pipeline. With `ending` (the camera
  /// is dismissed) the streams end too; else they start again with the next camera.
  mutating func detachStreams(ending: Bool) {
    state.streamEncoders = []
    effects.append(.forgetStreamEncoders)
    for index in state.streams.indices {
      endTry(index, removing: false)
      if state.streams[index].retryScheduled {
        state.streams[index].retryScheduled = false
        effects.append(.cancelTimer(.streamRetry(stream: state.streams[index].number)))
      }
    }
    guard ending else { return }
    let streams = state.streams
    state.streams = []
    streams.forEach { end($0) }
  }

  /// The stream whose current try's branch `source` (an element's path) is inside: known from the moment
  /// the try began, before its branch is attached.
  func stream(containing source: String) -> Int? {
    state.streams.firstIndex { $0.attempt.map { StreamBranch.path(source, isInside: $0.name) } ?? false }
  }

  /// The index of stream `number`, if `name` is its current try.
  func streamIndex(_ number: Int, attempt name: String) -> Int? {
    state.streams.firstIndex { $0.number == number && $0.attempt?.name == name }
  }
}
