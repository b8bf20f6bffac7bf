import Dispatch
import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// Steps the machine with `input`, from any thread: under ``core``'s lock, the next state, and the
  /// effects added to those the queue runs, in the order of the steps. Returns the machine's reply to a
  /// call (``ControllerMachine/Reply/accepted`` when it gives none). Nothing here waits for the queue, or
  /// for GStreamer: a step is a pure function.
  ///
  /// The app's calls step on their own thread, so that what they change is seen when they return (and the
  /// delegate's receipt of a photo on the main actor, before the delegate may take the next one).
  /// Everything else reaches the machine on the queue (``post(_:)``), in the order it arrived there.
  @discardableResult
  func send(_ input: ControllerMachine.Input) -> ControllerMachine.Reply {
    let (reply, starts) = step(input)
    if starts { queue.async { self.runPending() } }
    return reply
  }

  /// Steps the machine with `input` on the queue, after what was queued there before (GStreamer's
  /// threads' facts, the worker's and the photo queue's outcomes).
  func post(_ input: ControllerMachine.Input) {
    queue.async { self.sendOnQueue(input) }
  }

  /// Steps the machine with `input` from a block of its own on the queue (``post(_:)``), and runs the
  /// effects there when none are running: without a second trip through the queue, which on the way to a
  /// movie's delegate costs as much as the step.
  func sendOnQueue(_ input: ControllerMachine.Input) {
    assertOnQueue()
    if step(input).starts { runPending() }
  }

  /// The step under the lock; `starts` when its effects are the first pending and nothing runs them yet,
  /// which the caller must then do on the queue (``runPending()``).
  private func step(_ input: ControllerMachine.Input) -> (reply: ControllerMachine.Reply, starts: Bool) {
    core.withLock { core in
      let effects = ControllerMachine.step(&core.state, input)
      var reply = ControllerMachine.Reply.accepted
      for effect in effects {
        if case .reply(let answer) = effect { reply = answer } else { core.pending.append(effect) }
      }
      guard !core.pending.isEmpty, !core.running else { return (reply, false) }
      core.running = true
      return (reply, true)
    }
  }

  /// Runs the effects of the steps, in order, until none is left (on the queue). The effects of steps
  /// made meanwhile, here or elsewhere, follow in the same run.
  private func runPending() {
    assertOnQueue()
    while let effects = core.withLock({ core -> [ControllerMachine.Effect]? in
      guard !core.pending.isEmpty else {
        core.running = false
        return nil
      }
      defer { core.pending = [] }
      return core.pending
    }) {
      for effect in effects { run(effect) }
    }
  }

  private func run(_ effect: ControllerMachine.Effect) {
    switch effect {
    case .reply:
      break
    case .publish(let event):
      publish(event)
    case .fail(let error):
      fail(error)
    case .log(let level, let message, let session):
      debugLog.log(level, message, object: session.flatMap { id in resources.withLock { $0.sessions[id] } }?.pipeline)
    case .dumpGraph(let suffix):
      resources.withLock { $0.lastPipeline }?.dumpDotFile(named: "\(name)-\(suffix)")
    case .delegateCancelled:
      hub.toDelegate { [self] delegate in delegate.cameraControllerDidCancel(self) }
    case .deliver(let result, let destination, let handingOver):
      deliver(result, to: destination, handingOver: handingOver)
    case .deliverEdited(let capture, let frame, let crop, let destination, let handingOver):
      deliverEdited(capture, frame: frame, crop: crop, to: destination, handingOver: handingOver)
    case .resumeReady(let waiters, let result):
      waiters.forEach { $0(result) }
    case .answerStream(let waiter, let result):
      waiter(result)
    case .afterCallbacks(let waiters):
      waiters.forEach { hub.toDelegate({ _ in }, afterwards: $0) }
    case .schedule(let timer, let seconds):
      schedule(timer, after: seconds)
    case .cancelTimer(let timer):
      resources.withLock { $0.timers.removeValue(forKey: timer) }?.cancel()
    case .discard(let file):
      file.discard()
    case .removeFile(let url):
      try? FileManager.default.removeItem(at: url)
    case .perform(let action):
      perform(action)
    case .buildSession(let settings, let version, let environment):
      buildSession(settings, version: version, environment: environment)
    case .startSession(let session):
      start(session)
    case .stopSession(let id):
      stopSession(id)
    case .discardSession(let id):
      guard let session = resources.withLock({ $0.sessions.removeValue(forKey: id) }) else { return }
      worker.async { _ = session.stop() }
    case .watchFrames(let id, let interval):
      watchFrames(of: id, interval: interval)
    case .stopWatchingFrames:
      resources.withLock { resources in
        resources.watchdog?.cancel()
        resources.watchdog = nil
      }
    case .watchDevices(let session):
      watchDevices(for: session)
    case .stopWatchingDevices:
      resources.withLock { $0.deviceWatcher = nil }
    case .startPreRollSound(let id):
      startPreRollSound(of: id)
    case .stopPreRollSound(let id, let recording):
      stopPreRollSound(of: id, endingSoundOf: recording)
    case .cancelFrameWaiters(let id):
      session(id)?.tap.cancelWaiters()
    case .updatePreview(let id, let update):
      updatePreview(of: id, update)
    case .showStillFrame(let id, let frame):
      session(id)?.previewHooks.stillFrame.withLock { $0 = frame }
    case .decodeMovieFrame(let id, let url, let seconds, let request):
      decodeMovieFrame(on: id, url: url, at: seconds, request: request)
    case .lightTorch(let id, let mode):
      lightTorch(on: id, mode: mode)
    case .turnTorchOff(let id):
      turnTorchOff(on: id)
    case .closeLibraryWindow:
      guard let window = resources.withLock({ $0.libraryWindow.take() }) else { return }
      worker.async { window.close() }
    case .takePhoto(let request, let id):
      takePhoto(request, on: id)
    case .attachRecording(let request, let id, let branchName, let paused, let onStreamEncoder):
      attachRecording(request, on: id, name: branchName, paused: paused, onStreamEncoder: onStreamEncoder)
    case .pauseRecording(let id, let paused):
      setPaused(id, paused)
    case .armRecording(let id):
      armRecording(on: id)
    case .disarmRecording(let id):
      disarmRecording(on: id)
    case .makeThumbnail(let id, let fromFile):
      makeThumbnail(of: id, fromFile: fromFile)
    case .sendEndOfStream(let id, let reason):
      sendEndOfStream(id, reason: reason)
    case .endAudio(let id):
      guard let branch = recordingObjects(id)?.branch else { return }
      worker.async { branch.endAudio() }
    case .microphoneFailed(let id, let error):
      microphoneFailed(id, error)
    case .finishMovie(let id, let delivery):
      finishMovie(id, delivery)
    case .deliverTrimmed(let movie, let span, let limit, let destination):
      deliverTrimmed(movie, span: span, limit: limit, to: destination)
    case .abandonRecording(let id, let abandonment, let destination):
      abandonRecording(id, abandonment, to: destination)
    case .removeRecording(let id):
      removeRecording(id)
    case .forgetRecording(let id):
      resources.withLock { _ = $0.recordings.removeValue(forKey: id) }
    case .attachStream(let number, let branchName, let stream, let id, let encoder):
      attachStream(number, name: branchName, stream, on: id, encoder: encoder)
    case .removeStreamBranch(let branchName):
      guard let (branch, session) = resources.withLock({ $0.streamBranches.removeValue(forKey: branchName) }) else {
        return
      }
      worker.async {
        branch.remove(from: session)
        AllocatorPolicy.releaseFreedMemory(after: "the stream branch")
      }
    case .dropStreamBranch(let branchName):
      resources.withLock { _ = $0.streamBranches.removeValue(forKey: branchName) }
    case .stopStreamServer(let number):
      guard let server = resources.withLock({ $0.streamServers.removeValue(forKey: number) }) else { return }
      worker.async { server.stop() }
    case .removeStreamEncoder(let encoding):
      guard let (encoder, session) = resources.withLock({ $0.streamEncoders.removeValue(forKey: encoding) }) else {
        return
      }
      worker.async {
        encoder.remove(from: session)
        AllocatorPolicy.releaseFreedMemory(after: "the streams' encoder")
      }
    case .forgetStreamEncoders:
      resources.withLock { $0.streamEncoders = [:] }
    }
  }

  /// The session numbered `id`, while it is held.
  func session(_ id: UInt64) -> CaptureSession? {
    resources.withLock { $0.sessions[id] }
  }

  /// A one-shot timer on the queue that steps the machine with ``ControllerMachine/Input/timer(_:at:)``
  /// (for a drain, with its progress read first) when it runs out, if the controller still exists.
  private func schedule(_ timer: ControllerMachine.TimerID, after seconds: Double) {
    let source = DispatchSource.makeTimerSource(queue: queue)
    source.schedule(deadline: .now() + seconds)
    let identity = ObjectIdentifier(source as AnyObject)
    source.setEventHandler { [weak self] in
      // A timer replaced or cancelled since it ran out is not this one any more.
      guard let self,
        resources.withLock({ resources in
          guard let current = resources.timers[timer], ObjectIdentifier(current as AnyObject) == identity else {
            return false
          }
          resources.timers[timer] = nil
          return true
        })
      else { return }
      if case .drain(let id) = timer {
        let branch = recordingObjects(id)?.branch
        sendOnQueue(
          .drainChecked(id: id, lastProgress: branch?.lastProgress, liveAudio: branch?.hasLiveAudio ?? false, at: .now))
      } else {
        sendOnQueue(.timer(timer, at: .now()))
      }
    }
    resources.withLock { $0.timers.updateValue(source, forKey: timer) }?.cancel()
    source.resume()
  }
}
