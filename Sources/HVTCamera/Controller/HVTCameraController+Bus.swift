import HVTGStreamer

extension HVTCameraController {
  /// Handles a bus message of session `id`'s pipeline (on the queue): every message goes to
  /// ``busMessages``, with the streams' secrets masked; the machine takes it from there (a session that
  /// has since been replaced is relayed only). An error from the running camera's source comes with what
  /// its V4L2 node says (``vanishedCamera(_:)``).
  func handle(_ message: BusMessage, fromSession id: UInt64) {
    hub.busMessages.yield(HVTBusMessage(message).masking(read(\.streamSecrets)))
    let bus: ControllerMachine.Bus
    switch message {
    case .stateChanged(let source, let old, let new, _):
      bus = .stateChanged(source: source, old: old, new: new)
    case .error(let report):
      let vanished = read(\.session) == id ? vanishedCamera(report, of: session(id)) : nil
      bus = .error(report, origin: origin(of: report.source, in: id), vanished: vanished, at: .now())
    case .warning(let report):
      bus = .warning(report)
    case .info(let report):
      bus = .info(report)
    case .endOfStream:
      bus = .endOfStream
    case .element, .other:
      return
    }
    sendOnQueue(.bus(session: id, bus))
  }
}

extension HVTCameraController {
  /// Where the element at `source` (an object path) is among the objects of session `id` the controller
  /// holds: the pre-roll's microphone, a recording's microphone or branch, the next recording's encoding,
  /// or elsewhere.
  func origin(of source: String, in id: UInt64) -> ControllerMachine.ErrorOrigin {
    let inside = { (path: String) in source.hasPrefix(path + "/") }
    if let sound = session(id)?.preRoll?.sound, inside(sound.path) { return .preRollMicrophone }
    let recordings = resources.withLock { $0.recordings }
    if let (recording, _) = recordings.first(where: { $0.value.branch.audioPath.map(inside) ?? false }) {
      return .microphone(of: recording)
    }
    if let (recording, _) = recordings.first(where: { inside($0.value.branch.path) }) { return .recording(recording) }
    if session(id)?.armedRecordingPath.map(inside) == true { return .armedRecording }
    return .pipeline
  }

  /// The running camera's disconnection, when `report` comes from its source element and its V4L2 node
  /// says the device is gone (``V4L2Failure/deviceIsGone``). A camera pulled out fails its `v4l2src` before
  /// (or without) a device monitor's removal: vivid's `disconnect` control keeps the node and answers
  /// `ENODEV`, a UVC camera's node vanishes once udev or devtmpfs catches up.
  func vanishedCamera(_ report: MessageReport, of session: CaptureSession?) -> DeviceChange? {
    guard report.source.hasSuffix(":\(HVTPipelineModel.sourceName)"),
      let configuration = session?.model.configuration, let path = configuration.devicePath
    else { return nil }
    do {
      _ = try V4L2Node(path: path).identity()
      return nil
    } catch {
      return error.deviceIsGone ? .disconnected(name: configuration.deviceName, path: path) : nil
    }
  }
}

extension HVTPipelineState {
  init?(_ state: ElementState) {
    switch state {
    case .null: self = .null
    case .ready: self = .ready
    case .paused: self = .paused
    case .playing: self = .playing
    case .voidPending: return nil
    }
  }
}
