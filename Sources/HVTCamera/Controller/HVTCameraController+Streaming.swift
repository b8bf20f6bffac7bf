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
    try await withCheckedThrowingContinuation { continuation in
      let reply = send(.startStreaming(stream) { continuation.resume(with: $0.mapError { $0 }) })
      if case .refused(let error) = reply { continuation.resume(throwing: error) }
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
    send(.stopStreaming(target))
  }

  /// The targets streamed to (asked for and not stopped), in the order they were asked for.
  public var activeStreams: [HVTStreamTarget] { read(\.streamTargets) }

  // MARK: - Effects

  /// Starts try `name` of stream `number` on session `id`: its server (once) and its branch, on the
  /// worker; the streams' encoder of its encoding too when `encoder` says it is made now
  /// (``ControllerMachine/Input/streamEncoderFailed(_:)`` if it cannot be). The outcome comes back as
  /// ``ControllerMachine/Input/streamAttached(number:name:_:at:)``, and the sink's first data as
  /// ``ControllerMachine/Input/streamFlowing(number:name:at:)``.
  func attachStream(
    _ number: Int, name: String, _ stream: HVTStream, on id: UInt64, encoder use: ControllerMachine.StreamEncoderUse
  ) {
    guard let session = session(id) else {
      send(.streamAttached(number: number, name: name, .failure(.notPresented), at: .now()))
      return
    }
    var made: StreamEncoder?
    let relay = ControllerRelay(self)
    if use == .make {
      do {
        made = try StreamEncoder(model: session.model, encoding: stream.encoding, worker: worker) {
          [encoding = stream.encoding] total in
          relay.run { $0.publish(.streamFramesDropped(encoding, total: total)) }
        }
      } catch {
        send(.streamEncoderFailed(stream.encoding))
        send(.streamAttached(number: number, name: name, .failure(HVTCameraError(error)), at: .now()))
        return
      }
    }
    let encoder = made
    if let encoder { resources.withLock { $0.streamEncoders[stream.encoding] = (encoder, session) } }
    let tee =
      use == .preRoll ? session.preRoll?.tee : resources.withLock { $0.streamEncoders[stream.encoding]?.encoder.tee }
    worker.async {
      let result = Result { () throws -> StreamBranch in
        let server = try self.streamServer(number, for: stream.target)
        do {
          try encoder?.attach(to: session)
        } catch {
          self.resources.withLock { _ = $0.streamEncoders.removeValue(forKey: stream.encoding) }
          self.post(.streamEncoderFailed(stream.encoding))
          throw error
        }
        guard let tee else {
          throw HVTCameraError.streamFailed(target: stream.target.description, reason: "no encoder runs")
        }
        let branch = try StreamBranch(
          stream: stream, name: name, worker: self.worker,
          onFlowing: { relay.post(.streamFlowing(number: number, name: name, at: .now())) },
          onFellBehind: { [target = stream.target] leftOut in
            relay.run { $0.publish(.streamFellBehind(target, framesLeftOut: leftOut)) }
          })
        server?.feed(from: branch)
        try branch.attach(to: session, tee: tee)
        self.resources.withLock { $0.streamBranches[name] = (branch, session) }
        return branch
      }
      let url = self.resources.withLock { $0.streamServers[number]?.url }
      self.post(
        .streamAttached(number: number, name: name, result.map { _ in url }.mapError(HVTCameraError.init), at: .now()))
    }
  }

  /// The RTSP server of stream `number`, made at its first try for an RTSP target (on the worker, where
  /// the tries are made one after the other); `nil` for another target.
  private func streamServer(_ number: Int, for target: HVTStreamTarget) throws -> RTSPStreamServer? {
    guard case .rtspServer(let port, let path, let address, let credentials) = target else { return nil }
    if let server = resources.withLock({ $0.streamServers[number] }) { return server }
    let server = try RTSPStreamServer(
      port: port, path: path, address: address, credentials: credentials, target: target)
    resources.withLock { $0.streamServers[number] = server }
    return server
  }
}
