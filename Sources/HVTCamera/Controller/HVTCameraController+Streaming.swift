import Dispatch
import Foundation
import HVTGStreamer

extension HVTCameraController {
  // MARK: - Public API

  /// Streams the camera to `target` while presented, beside the preview, photos and recordings, and
  /// returns once the stream runs, with where to watch it (``HVTCameraEvent/streamStarted(_:url:)``
  /// says the same). Several targets may run at once. With the movies' `encoding` (the default:
  /// ``videoBitRate``, ``videoKeyFrameInterval``, the preset's encoder, the movies' size) they share one
  /// encoder (a branch of the camera's tee, `StreamEncoder`) with each other and with the recordings
  /// made meanwhile, or, with a ``preRollDuration``, the pre-roll's encoder. A stream of another size,
  /// bit rate or key-frame interval (``HVTStreamEncoding``) gets an encoder of its own, shared by the
  /// streams of the same encoding. A stream asked for before the camera runs starts with it, and one that
  /// runs keeps going over a restart of the camera (a change of quality, device or preset).
  ///
  /// Throws ``HVTCameraError/invalidStreamTarget(target:reason:)`` for a target it cannot stream to or
  /// streams to already, and ``HVTCameraError/streamFailed(target:reason:)`` when the stream does not
  /// start (a port in use, a server that refuses the connection, nothing reaching it within
  /// ``HVTStreamTarget/startTimeout``). A push target (``HVTStreamTarget/reconnects``) that ran and
  /// loses its server is tried again, after a delay that doubles up to a cap, with jitter
  /// (``HVTStreamBackoff``), until it runs again or is stopped:
  /// ``HVTCameraEvent/streamDisconnected(_:reason:retry:)`` for each try that fails and
  /// ``HVTCameraEvent/streamReconnected(_:attempts:)`` once data reaches the server again. Network
  /// faults never touch the recording or the preview.
  /// The stream's ``HVTStream/tuning`` sets properties of its branch's elements (a preset's `streams`
  /// declare them).
  @discardableResult
  public func startStreaming(_ stream: HVTStream) async throws -> String {
    let target = stream.target
    // Checked as hvtcam stream and presets check theirs, with the streams asked for before it.
    let issue = shared.withLock { shared -> HVTStreamIssue? in
      let issue = HVTStream.issues(in: shared.streams.map { HVTStream(target: $0) } + [stream]).last {
        $0.stream == shared.streams.count
      }
      if issue == nil { shared.streams.append(target) }
      return issue
    }
    if let issue { throw HVTCameraError.invalidStreamTarget(target: target.description, reason: issue.reason) }
    return try await withCheckedThrowingContinuation { continuation in
      queue.async { self.beginStream(Stream(stream) { continuation.resume(with: $0) }) }
    }
  }

  /// Streams the camera to `target`, encoded as `encoding` (the movies' by default): see
  /// ``startStreaming(_:)``.
  @discardableResult
  public func startStreaming(to target: HVTStreamTarget, encoding: HVTStreamEncoding = .movie) async throws
    -> String
  {
    try await startStreaming(HVTStream(target: target, encoding: encoding))
  }

  /// Ends the stream to `target` (every stream when `nil`): its clients are disconnected, its
  /// connection closed, ``HVTCameraEvent/streamStopped(_:)`` sent. The encoder stops with the last stream.
  public func stopStreaming(_ target: HVTStreamTarget? = nil) {
    shared.withLock { $0.streams.removeAll { target == nil || $0 == target } }
    queue.async {
      let ending = self.state.streams.filter { target == nil || $0.target == target }
      self.state.streams.removeAll { target == nil || $0.target == target }
      ending.forEach { self.end($0) }
    }
  }

  /// The targets streamed to (asked for and not stopped), in the order they were asked for.
  public var activeStreams: [HVTStreamTarget] { read(\.streams) }

  // MARK: - A stream's life (on the queue)

  /// A stream asked for: its target, encoding and tuning, its RTSP server (for an RTSP target), its branch
  /// in the running camera, and the tries to reach its server since it last ran.
  final class Stream: @unchecked Sendable {
    let request: HVTStream
    var target: HVTStreamTarget { request.target }
    var encoding: HVTStreamEncoding { request.encoding }
    var server: RTSPStreamServer?
    /// The branch of the current try, once attached.
    var branch: StreamBranch?
    /// The name of the current try's branch, set on the queue before the branch is made: an error
    /// from inside it is this stream's whenever it arrives, also before ``attached`` (a refused
    /// connection can be posted while the branch is still being linked). `nil` between tries.
    var branchName: String?
    /// The tries made so far, to name each one's branch.
    var tries = 0
    /// The current try's sink took data: the stream runs once its branch is in place too.
    var flowed = false
    /// The tries to reach a push target's server again since it last ran.
    var retries = StreamRetries()
    var retry: DispatchWorkItem?
    /// Ends the current try when nothing flows in time (``HVTStreamTarget/startTimeout``).
    var deadline: DispatchWorkItem?
    /// The caller of ``HVTCameraController/startStreaming(to:)``, until the stream first runs or fails.
    var waiter: ((Result<String, any Error>) -> Void)?
    /// Tells streams' branches apart, in this process.
    let number = Stream.count.withLock { count in
      count += 1
      return count
    }
    private static let count = Locked(0)

    init(_ request: HVTStream, waiter: @escaping (Result<String, any Error>) -> Void) {
      self.request = request
      self.waiter = waiter
    }

    /// Where to watch it: the RTSP server's URL, else the target.
    var url: String { server?.url ?? target.description }

    func answer(_ result: Result<String, any Error>) {
      waiter?(result)
      waiter = nil
    }

    /// Ends the current try: its branch is no longer this stream's, and what its worker still returns is
    /// taken out. Returns the branch, if attached, for the caller to remove.
    func endTry() -> StreamBranch? {
      defer { (branch, branchName, flowed) = (nil, nil, false) }
      deadline?.cancel()
      deadline = nil
      return branch
    }
  }

  private func beginStream(_ stream: Stream) {
    guard shared.withLock({ $0.streams.contains(stream.target) }) else {
      return stream.answer(.failure(HVTCameraError.streamFailed(target: stream.target.description, reason: "stopped")))
    }
    state.streams.append(stream)
    state.streamSecrets.formUnion(stream.target.secrets)
    if state.phase == .running, let session = state.session { attach(stream, to: session) }
  }

  /// Starts every stream's branch in a camera that now runs.
  func attachStreams(to session: CaptureSession) {
    for stream in state.streams where stream.branchName == nil && stream.retry == nil { attach(stream, to: session) }
  }

  /// Starts a try of the stream: its server (once) and its branch, on the worker; the encoder too, for the
  /// first stream of its encoding (but the movies' with a pre-roll, whose encoder runs). The branch's
  /// name is the stream's from here on, so that no error posted from inside it is missed, and the try
  /// fails unless the stream runs within ``HVTStreamTarget/startTimeout``.
  private func attach(_ stream: Stream, to session: CaptureSession) {
    stream.tries += 1
    let name = "\(StreamBranch.namePrefix)\(stream.number)-\(stream.tries)"
    stream.branchName = name
    stream.flowed = false
    // Held by the queue until its time even when cancelled: it keeps nothing alive meanwhile.
    let deadline = DispatchWorkItem { [weak self, weak stream, weak session] in
      guard let self, let stream, let session, stream.branchName == name else { return }
      let seconds = Int(HVTStreamTarget.startTimeout)
      self.streamFailed(
        stream, .streamFailed(target: stream.target.description, reason: "nothing reached it within \(seconds) s"),
        in: session)
    }
    stream.deadline = deadline
    queue.asyncAfter(deadline: .now() + HVTStreamTarget.startTimeout, execute: deadline)
    let encodesOwn = session.model.needsStreamEncoder(for: stream.encoding)
    let needsEncoder = encodesOwn && state.streamEncoders[stream.encoding] == nil
    let encoder: StreamEncoder?
    do {
      encoder = needsEncoder ? try StreamEncoder(model: session.model, encoding: stream.encoding) : nil
    } catch {
      return streamFailed(stream, HVTCameraError(error), in: session)
    }
    if let encoder { state.streamEncoders[stream.encoding] = encoder }
    let tee = encodesOwn ? state.streamEncoders[stream.encoding]?.tee : session.preRoll?.tee
    worker.async {
      let result = Result { () throws -> StreamBranch in
        if case .rtspServer(let port, let path, let address, let credentials) = stream.target, stream.server == nil {
          stream.server = try RTSPStreamServer(
            port: port, path: path, address: address, credentials: credentials, target: stream.target)
        }
        try encoder?.attach(to: session)
        guard let tee else {
          throw HVTCameraError.streamFailed(target: stream.target.description, reason: "no encoder runs")
        }
        let controller = WeakReference(self)
        let branch = try StreamBranch(stream: stream.request, name: name) { [queue = self.queue] in
          queue.async { controller.target?.flowing(stream, name, in: session) }
        }
        if let server = stream.server { server.feed(from: branch) }
        try branch.attach(to: session, tee: tee)
        return branch
      }
      self.queue.async { self.attached(stream, name, result, in: session) }
    }
  }

  /// The worker made the try `name` of the stream, or failed to. A try that ended meanwhile (its error
  /// came first, it was stopped, the camera stopped) is taken out.
  private func attached(
    _ stream: Stream, _ name: String, _ result: Result<StreamBranch, any Error>, in session: CaptureSession
  ) {
    let current = stream.branchName == name && state.session === session && state.streams.contains { $0 === stream }
    switch result {
    case .success(let branch) where current:
      stream.branch = branch
      // A server of the process's own (RTSP, an SRT listener) or a folder runs once started; a push
      // target once its sink took data without failing.
      if stream.flowed || !stream.target.reconnects { announce(stream, in: session) }
    case .success(let branch):
      worker.async { branch.remove(from: session) }
    case .failure(let error) where current:
      streamFailed(stream, HVTCameraError(error), in: session)
    case .failure:
      break
    }
  }

  /// The sink of the stream's try `name` took data: the stream runs (again), once its branch is in place.
  private func flowing(_ stream: Stream, _ name: String, in session: CaptureSession) {
    guard stream.branchName == name else { return }
    stream.flowed = true
    if stream.branch != nil, stream.target.reconnects { announce(stream, in: session) }
  }

  /// Says that the stream runs, and answers the caller still waiting for it.
  private func announce(_ stream: Stream, in session: CaptureSession) {
    guard state.session === session, state.streams.contains(where: { $0 === stream }) else { return }
    stream.deadline?.cancel()
    stream.deadline = nil
    debugLog.log(.info, "streaming to \(stream.target) (\(stream.url))", object: session.pipeline)
    let attempts = stream.retries.back(at: Self.uptime)
    if attempts > 0 {
      publish(.streamReconnected(stream.target, attempts: attempts))
    } else {
      publish(.streamStarted(stream.target, url: stream.url))
    }
    stream.answer(.success(stream.url))
  }

  /// The stream's current try failed, or did not start: its branch is taken out; a push target that ran
  /// once is tried again later, anything else ends (and a caller still waiting gets the error).
  func streamFailed(_ stream: Stream, _ error: HVTCameraError, in session: CaptureSession) {
    let cause = if case .streamFailed(_, let own) = error { own } else { Self.cause(of: error) }
    // GStreamer's message may quote the target's URL.
    let reason = stream.target.masking(cause)
    debugLog.log(.warning, "the stream to \(stream.target) failed: \(reason)")
    if let branch = stream.endTry() { worker.async { branch.remove(from: session) } }
    let retries = stream.target.reconnects && stream.waiter == nil && state.streams.contains { $0 === stream }
    let next = retries ? stream.retries.lost(at: Self.uptime, jitter: Double.random(in: 0..<1)) : nil
    publish(.streamDisconnected(stream.target, reason: reason, retry: next))
    guard let next else {
      state.streams.removeAll { $0 === stream }
      shared.withLock { $0.streams.removeAll { $0 == stream.target } }
      stream.answer(.failure(HVTCameraError.streamFailed(target: stream.target.description, reason: reason)))
      return end(stream, announcing: false)
    }
    let retry = DispatchWorkItem { [weak self, weak stream] in
      guard let self, let stream else { return }
      stream.retry = nil
      guard self.state.streams.contains(where: { $0 === stream }), self.state.phase == .running,
        let session = self.state.session
      else { return }
      self.attach(stream, to: session)
    }
    stream.retry = retry
    queue.asyncAfter(deadline: .now() + next.delay, execute: retry)
  }

  /// Seconds on the system's monotonic clock, for the retries' bookkeeping.
  private static var uptime: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// The stream whose current try's branch `source` (an element's path) is inside, if any: known from
  /// the moment the try began, before its branch is attached.
  func stream(containing source: String) -> Stream? {
    state.streams.first { stream in stream.branchName.map { StreamBranch.path(source, isInside: $0) } ?? false }
  }

  /// Ends a stream taken out of the list: its branch and server stop on the worker, and the encoder
  /// with the last stream.
  private func end(_ stream: Stream, announcing: Bool = true) {
    stream.retry?.cancel()
    stream.retry = nil
    stream.answer(.failure(HVTCameraError.streamFailed(target: stream.target.description, reason: "stopped")))
    let (branch, server, session) = (stream.endTry(), stream.server, state.session)
    worker.async {
      if let session { branch?.remove(from: session) }
      server?.stop()
    }
    if let encoder = state.streamEncoders[stream.encoding], let session { releaseStreamEncoder(encoder, of: session) }
    if announcing { publish(.streamStopped(stream.target)) }
  }

  /// Stops a streams' encoder once nothing takes its video any more: no stream of its encoding, and no
  /// recording (``EncodedFeed/streams(_:)``) that is still in the pipeline. Its removal follows the
  /// branches' on the worker.
  func releaseStreamEncoder(_ encoder: StreamEncoder, of session: CaptureSession) {
    let recordings = ([state.recording] + state.draining).compactMap { $0 }
    guard let (encoding, _) = state.streamEncoders.first(where: { $0.value === encoder }),
      !state.streams.contains(where: { $0.encoding == encoding }),
      !recordings.contains(where: { $0.streamEncoder === encoder })
    else { return }
    state.streamEncoders[encoding] = nil
    worker.async { encoder.remove(from: session) }
  }

  /// The camera stops: the streams' branches and encoder go with its pipeline. With `ending` (the
  /// camera is dismissed) the streams end too; else they start again with the next camera.
  func detachStreams(ending: Bool) {
    state.streamEncoders = [:]
    for stream in state.streams {
      _ = stream.endTry()
      stream.retry?.cancel()
      stream.retry = nil
    }
    guard ending else { return }
    let streams = state.streams
    state.streams = []
    shared.withLock { $0.streams = [] }
    streams.forEach { end($0) }
  }
}
