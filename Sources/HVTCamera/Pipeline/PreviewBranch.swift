import Dispatch
import HVTGStreamer
import HVTSupport

/// The preview: `tee → queue ! … ! sink` in a bin of its own, so that a running camera can swap it for
/// another output (``HVTPreviewOutput``) without stopping its source, photos or recordings.
///
/// The output's own wiring is done here: an embedded preview's sink gets the app's window
/// (`gst_video_overlay_set_window_handle`) before it starts; `waylandsink` gets a window of the engine's
/// own (``WaylandWindow``: titled, and taking keys and clicks); a frames preview's `appsink` hands each
/// frame to the app's handler through a ``FrameMailbox``; `gtk4paintablesink` hands its paintable to the
/// app's handler on GTK's thread once it is ready; the default controls' element is handed what
/// to draw (``ControlsOverlay``). The session's ``PreviewHooks`` see what the window's user does
/// (navigation events, at the sink's input) and can hold a still frame in place of the
/// live ones (the review screen).
final class PreviewBranch: Sendable {
  /// The chain the branch was built from, or last adopted (for the pipeline's description).
  var chain: [HVTElementDescription] { adopted.value }
  private let adopted: Locked<[HVTElementDescription]>
  /// The sink (`preview`): a video overlay for windows, an `appsink` for frames.
  let sink: Element
  private let bin: Bin
  /// What the controls' element draws, when the chain has it.
  private let controls: ControlsOverlay?
  private let teePad = Locked<Pad?>(nil)
  /// Who gets the sink's `GdkPaintable` (``HVTPreviewOutput/gtk4Paintable(handler:)``) once it is ready.
  private let paintableHandler: (@Sendable (HVTGdkPaintable) -> Void)?
  /// Where detached branches are stopped: setting a bin to NULL joins its streaming threads.
  private static let reaper = DispatchQueue(label: "HVTCamera.preview-reaper")

  /// Builds the branch (not yet attached) from `chain`, wired for `output` and to the session's `hooks`;
  /// the chain's controls element (``CameraControls/elementName``) draws `controls`. A window the engine
  /// opens itself (on Wayland) asks for `windowSize` first.
  init(
    chain: [HVTElementDescription], controls: ControlsPicture?, output: HVTPreviewOutput, name: String,
    hooks: PreviewHooks, windowSize: HVTFrameSize
  ) throws {
    adopted = Locked(chain)
    let bin = Bin(name: name)
    self.bin = bin
    let elements = try ElementChain(chain, in: bin)
    self.controls = try controls.map { picture in
      guard let element = bin.element(named: CameraControls.elementName) else {
        throw HVTCameraError.pipelineSetupFailed(
          .missingElement(factory: CameraControls.element.factory, suggestion: nil))
      }
      return ControlsOverlay(element: element, picture: picture)
    }
    guard let entry = elements.first.staticPad("sink"), let sinkPad = elements.last.staticPad("sink") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: name, pad: "sink"))
    }
    try bin.addGhostPad("sink", target: entry)
    sink = elements.last
    hooks.monitor.install(on: sinkPad)
    hooks.install(entry: entry, sink: sinkPad)
    paintableHandler = if case .gtk4Paintable(let handler) = output { handler } else { nil }
    switch output {
    case .embedded(let handle):
      guard sink.isVideoOverlay else {
        throw HVTCameraError.noDisplay(
          reason: "the preview sink '\(sink.factoryName ?? sink.name)' cannot draw into a window")
      }
      sink.setWindowHandle(handle)
    case .waylandSurface(let display, let surface, let rectangle):
      guard let connection = UnsafeMutableRawPointer(bitPattern: display), surface != 0 else {
        throw HVTCameraError.noDisplay(reason: "no Wayland display or surface was given (a null pointer)")
      }
      sink.setWaylandDisplay(connection)
      sink.setWindowHandle(surface)
      sink.setRenderRectangle(x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
    case .frames(let format, let handler):
      let mailbox = FrameMailbox { sample in
        guard let frame = HVTPreviewFrame(sample, format: format) else { return }
        handler(frame)
      }
      sink.onNewSample { mailbox.post($0) }
    case .gtk4Paintable:
      // The sink makes its paintable on the thread that runs GLib's default main context, and waits for
      // it: with no loop running there, it would make it on the controller's thread, unusable by GTK.
      guard DefaultMainContext.isRunning else {
        throw HVTCameraError.noDisplay(
          reason: "gtk4paintablesink needs GTK's main loop running (GLib's default main context: "
            + "g_application_run or g_main_loop_run), and none runs in this process")
      }
    case .automatic, .preset, .none, .window:
      break
    }
    if sink.factoryName == "waylandsink", !output.isEmbedded {
      let title = if case .window(let title?) = output { title } else { "HVTCamera" }
      try WaylandWindow.open(title: title, size: windowSize, sink: sink)
    }
  }

  /// The branch's object path; its elements' paths start with it.
  var path: String { bin.path }

  /// The elements whose properties change on the running branch: the geometry's crop, size and turn,
  /// and the overlays (a new picture, text or place). (The default controls' element has no property
  /// to change: ``adopt(_:controls:)`` hands it what to draw.)
  private static func isAdjustable(_ name: String?) -> Bool {
    guard let name else { return false }
    return [PreviewGeometry.cropName, PreviewGeometry.sizeName, PreviewGeometry.orientationName].contains(name)
      || name.hasPrefix("preview-overlay-")
  }

  /// Whether `chain` has the branch's elements and differs only in the properties of adjustable ones,
  /// which the running elements can take on (``adopt(_:controls:)``) without a new branch.
  func canAdopt(_ chain: [HVTElementDescription]) -> Bool {
    let shape = { (chain: [HVTElementDescription]) in chain.map { [$0.name ?? "", $0.factory] } }
    let fixed = { (chain: [HVTElementDescription]) in chain.filter { !Self.isAdjustable($0.name) } }
    return shape(chain) == shape(self.chain) && fixed(chain) == fixed(self.chain)
  }

  /// Sets the properties that changed from the branch's chain to `chain` on the running elements
  /// (`videocrop`, `videoflip`, `textoverlay` and `gdkpixbufoverlay` take new values between two frames),
  /// and shows `controls` from the next frame on.
  func adopt(_ chain: [HVTElementDescription], controls: ControlsPicture?) throws {
    for (old, new) in zip(self.chain, chain) where old != new {
      guard let element = bin.element(named: new.name ?? "") else { continue }
      for property in new.properties where old.value(of: property.name) != property.value {
        try element.setProperty(property.name, fromString: property.value)
      }
    }
    adopted.withLock { $0 = chain }
    if let controls { self.controls?.show(controls) }
  }

  /// Adds the branch to `pipeline` and links it to a new pad of `tee`. On a running pipeline the branch
  /// is brought to its state first (its sinks do not preroll: the camera is live). Takes as long as the
  /// sink needs to open its window: call it off the controller queue.
  func attach(to pipeline: Pipeline, tee: Element) throws {
    // gtk4paintablesink makes its paintable at READY, waiting for GTK's thread to run that part: the app
    // reads it after, so that the two never wait for each other (the sink holds its paintable's lock while
    // it waits, and the property's getter takes it).
    if paintableHandler != nil, sink.setState(.ready) == .failure {
      _ = sink.setState(.null)
      throw HVTCameraError.noDisplay(
        reason: "gtk4paintablesink could not make its paintable (GST_DEBUG=gtk4paintablesink:4 says why)")
    }
    do {
      try pipeline.add(bin)
    } catch {
      Teardown.stop(bin, what: "the preview branch")
      throw error
    }
    guard bin.syncStateWithParent(), let ghost = bin.staticPad("sink"), let pad = tee.requestPad("src_%u") else {
      Teardown.stop(bin, removingFrom: pipeline, what: "the preview branch")
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: tee.path, pad: "src_%u"))
    }
    do {
      try pad.link(to: ghost)
    } catch {
      tee.releaseRequestPad(pad)
      Teardown.stop(bin, removingFrom: pipeline, what: "the preview branch")
      throw error
    }
    teePad.withLock { $0 = pad }
    debugLog.log(.info, "preview branch \(bin.name) attached to \(pad.name)")
    if let paintableHandler { Self.handPaintable(of: sink, to: paintableHandler) }
  }

  /// Hands the sink's `GdkPaintable` to `handler` on GTK's thread (the one running GLib's default main
  /// context), where the sink's `paintable` property must be read; the reference the property gives is
  /// released when the handler returns. A sink that gives none (GTK 3 is loaded in the process, or the
  /// paintable was made on another thread) posts an error on the bus, which fails the preview.
  private static func handPaintable(of sink: Element, to handler: @escaping @Sendable (HVTGdkPaintable) -> Void) {
    DefaultMainContext.invoke {
      let handed =
        (try? sink.withObjectProperty("paintable") { pointer in
          pointer.map { handler(HVTGdkPaintable(pointer: $0)) } != nil
        }) ?? false
      if !handed {
        sink.postResourceNotFound(
          "gtk4paintablesink gave no paintable on GTK's main thread (is GTK 3 loaded in this process, "
            + "or does another thread run GTK's main loop than the one that did when the camera started?)")
      }
    }
  }

  /// Unlinks the branch between two frames (an idle probe on its tee pad), then stops it, removes it and
  /// gives the pad back, on a queue of its own. Returns at once; `done` runs once the branch is gone.
  func detach(from pipeline: Pipeline, tee: Element, done: @escaping @Sendable () -> Void = {}) {
    guard let pad = teePad.withLock({ $0 }), let ghost = bin.staticPad("sink") else { return done() }
    pad.addProbe(.idle) { [bin] pad, _ in
      pad.unlink(from: ghost)
      debugLog.log(.info, "preview branch \(bin.name) unlinked from \(pad.name)")
      Self.reaper.async {
        Teardown.stop(bin, removingFrom: pipeline, what: "the preview branch")
        tee.releaseRequestPad(pad)
        debugLog.log(.info, "preview branch \(bin.name) removed")
        done()
      }
      return .remove
    }
  }
}

/// What every preview branch of a session shares: the frame counter, what the window's user does, and
/// the still frame shown instead of the live ones while a photo is reviewed.
final class PreviewHooks: Sendable {
  /// Counts what reaches the preview sink, whichever branch is attached.
  let monitor = PreviewMonitor()
  /// The still frame shown in place of each live frame, while set.
  let stillFrame = Locked<Buffer?>(nil)
  private let onNavigation: @Sendable (NavigationEvent, HVTFrameSize) -> Void

  /// Hooks that call `onNavigation` (on the sink's event thread) with each key or mouse action, and the
  /// size of the picture its coordinates are in.
  init(onNavigation: @escaping @Sendable (NavigationEvent, HVTFrameSize) -> Void) {
    self.onNavigation = onNavigation
  }

  /// Installs the still-frame probe on a branch's entry and the navigation probe on its sink's input
  /// (where the picture has the shown size and the controls on it).
  func install(entry: Pad, sink: Pad) {
    entry.addProbe(.buffer) { [stillFrame] _, info in
      if let still = stillFrame.withLock({ $0 }) { info.replaceBuffer(withContentOf: still) }
      return .ok
    }
    sink.addProbe(.eventUpstream) { [onNavigation] pad, info in
      guard let event = info.navigationEvent, let caps = pad.currentCaps else { return .ok }
      let structure = caps.structure(at: 0)
      guard let width = structure.int("width"), let height = structure.int("height") else { return .ok }
      onNavigation(event, HVTFrameSize(width: width, height: height))
      return .ok
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
