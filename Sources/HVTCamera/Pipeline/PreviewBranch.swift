import Dispatch
import HVTGStreamer

/// The preview: `tee → queue ! … ! sink` in a bin of its own, so that a running camera can swap it for
/// another output (``HVTPreviewOutput``) without stopping its source, photos or recordings.
///
/// The output's own wiring is done here: an embedded preview's sink gets the app's window
/// (`gst_video_overlay_set_window_handle`) before it starts; a frames preview's `appsink` calls the
/// app's handler with each frame.
final class PreviewBranch: @unchecked Sendable {
  /// The chain the branch was built from, or last adopted (for the pipeline's description).
  private(set) var chain: [HVTElementDescription]
  /// The sink (`preview`): a video overlay for windows, an `appsink` for frames.
  let sink: Element
  private let bin: Bin
  private let teePad = Locked<Pad?>(nil)
  /// Where detached branches are stopped: setting a bin to NULL joins its streaming threads.
  private static let reaper = DispatchQueue(label: "HVTCamera.preview-reaper")

  /// Builds the branch (not yet attached) from `chain`, wired for `output`, its frames counted by
  /// `monitor`.
  init(chain: [HVTElementDescription], output: HVTPreviewOutput, name: String, monitor: PreviewMonitor) throws {
    self.chain = chain
    bin = Bin(name: name)
    let elements = try ElementChain(chain, in: bin)
    guard let entry = elements.first.staticPad("sink"), let sinkPad = elements.last.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: name, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    sink = elements.last
    monitor.install(on: sinkPad)
    switch output {
    case .embedded(let handle):
      guard sink.isVideoOverlay else {
        throw HVTCameraError.noDisplay(
          reason: "the preview sink '\(sink.factoryName ?? sink.name)' cannot draw into a window")
      }
      sink.setWindowHandle(handle)
    case .frames(let format, let handler):
      sink.onNewSample { sample in
        guard let frame = HVTPreviewFrame(sample, format: format) else { return }
        handler(frame)
      }
    case .preset, .none, .window:
      break
    }
  }

  /// The branch's object path; its elements' paths start with it.
  var path: String { bin.path }

  /// Whether `chain` differs from the branch's only in the geometry's crop and turn, which the running
  /// elements can take on (``adopt(_:)``) without a new branch.
  func canAdopt(_ chain: [HVTElementDescription]) -> Bool {
    let geometry = [PreviewGeometry.cropName, PreviewGeometry.orientationName]
    let fixed = { (chain: [HVTElementDescription]) in chain.filter { !geometry.contains($0.name ?? "") } }
    return chain.map(\.name) == self.chain.map(\.name) && fixed(chain) == fixed(self.chain)
  }

  /// Sets the geometry elements' properties from `chain` on the running elements (`videocrop` and
  /// `videoflip` take new values between two frames).
  func adopt(_ chain: [HVTElementDescription]) throws {
    defer { self.chain = chain }
    for name in [PreviewGeometry.cropName, PreviewGeometry.orientationName] {
      guard let description = chain.first(where: { $0.name == name }), let element = bin.element(named: name) else {
        continue
      }
      for property in description.properties {
        try element.setProperty(property.name, fromString: property.value)
      }
    }
  }

  /// Adds the branch to `pipeline` and links it to a new pad of `tee`. On a running pipeline the branch
  /// is brought to its state first (its sinks do not preroll: the camera is live). Takes as long as the
  /// sink needs to open its window: call it off the controller queue.
  func attach(to pipeline: Pipeline, tee: Element) throws {
    try pipeline.add(bin)
    guard bin.syncStateWithParent(), let ghost = bin.staticPad("sink"), let pad = tee.requestPad("src_%u") else {
      _ = bin.setState(.null)
      pipeline.remove(bin)
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: tee.path, pad: "src_%u"))
    }
    do {
      try pad.link(to: ghost)
    } catch {
      tee.releaseRequestPad(pad)
      _ = bin.setState(.null)
      pipeline.remove(bin)
      throw error
    }
    teePad.withLock { $0 = pad }
    debugLog.log(.info, "preview branch \(bin.name) attached to \(pad.name)")
  }

  /// Unlinks the branch between two frames (an idle probe on its tee pad), then stops it, removes it and
  /// gives the pad back, on a queue of its own. Returns at once; `done` runs once the branch is gone.
  func detach(from pipeline: Pipeline, tee: Element, done: @escaping @Sendable () -> Void = {}) {
    guard let pad = teePad.withLock({ $0 }), let ghost = bin.staticPad("sink") else { return done() }
    pad.addProbe(.idle) { [bin] pad, _ in
      pad.unlink(from: ghost)
      debugLog.log(.info, "preview branch \(bin.name) unlinked from \(pad.name)")
      Self.reaper.async {
        if bin.setState(.null) == .failure { debugLog.log(.warning, "the preview branch \(bin.path) refused to stop") }
        pipeline.remove(bin)
        tee.releaseRequestPad(pad)
        debugLog.log(.info, "preview branch \(bin.name) removed")
        done()
      }
      return .remove
    }
  }
}

extension HVTPreviewFrame {
  /// The frame of an `appsink` sample converted to `format`; `nil` when it holds no raw video.
  init?(_ sample: Sample, format: Format) {
    guard let pixels = sample.videoFramePixels(), let buffer = sample.buffer else { return nil }
    let pts = buffer.presentationTime
    self.init(
      format: format, width: pixels.width, height: pixels.height, stride: pixels.stride,
      timestamp: ClockTime.isValid(pts) ? ClockTime.seconds(pts) : 0, bytes: pixels.bytes)
  }
}
