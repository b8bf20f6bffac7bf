import Foundation

extension HVTPipelineModel {
  /// What a model is built from, besides the camera and the caps chosen for it.
  struct Settings {
    var preset: HVTPreset
    var quality: HVTCameraController.QualityType
    var failingAfterFrames: Int?
    var preview: PreviewSettings
    /// Which captures the preview's overlays are also drawn into.
    var overlayTargets: HVTOverlayTargets = []
    /// The app's bit rate and key-frame interval for the movie encoder.
    var encoding = EncoderTuning.Request()
    /// The movie's sound.
    var audio = AudioRequest.off
    /// The movies' size when the camera runs at another (a photo size); `nil` for the camera's.
    var movieSize: HVTFrameSize?
    /// The size asked of the camera; `nil` for the largest.
    var requestedSize: HVTFrameSize?
  }

  /// Whether movies get sound, and from which microphone.
  enum AudioRequest: Sendable {
    /// Silent movies (``HVTCameraController/capturesAudio`` is false).
    case off
    /// Sound from this element.
    case from(HVTElementDescription)
    /// Sound was asked for, but there is no microphone: why.
    case unavailable(String)
  }

  /// What the preview shows and how.
  struct PreviewSettings: Sendable {
    var output = HVTPreviewOutput.preset
    /// Whether the front camera's preview is mirrored.
    var mirrorsFront = true
    var transform = HVTAffineTransform.identity
    var overlays: [HVTCameraOverlay] = []
    /// The default controls, drawn on a window or embedded preview; `nil` without them.
    var controls: CameraControls.Look?
    /// A photo is reviewed: it is shown whole, without the view transform (mirrored still, as the
    /// preview was, for the front camera).
    var reviewing = false
  }

  /// Builds the model for a camera, the caps chosen for it and the capture settings. Element slots resolve
  /// to their first installed candidate; throws when a slot has none.
  static func build(camera: HVTCameraDeviceInfo, choice: HVTCapsChoice, settings: Settings) throws -> HVTPipelineModel {
    let preset = settings.preset
    var source = sourceChain(camera: camera, choice: choice, preset: preset)
    if camera.isSimulated && preset.source == nil {
      source += SimulatedCameraControls.elements(size: choice.size)
    }
    if let frames = settings.failingAfterFrames {
      source.append(HVTElementDescription("identity", name: "fault", ["error-after": String(frames)]))
    }
    if camera.isSimulated && camera.hasFlash {
      // The simulated flash and torch: brightness is raised while they are lit (passthrough otherwise).
      source.append(HVTElementDescription("videobalance", name: lightName))
    }
    source += preset.filters.enumerated().map { $1.named("filter-\($0)") }
    let configuration = HVTCaptureConfiguration(
      device: camera.position, deviceName: camera.name, deviceManufacturer: camera.manufacturer,
      devicePath: camera.path,
      deviceID: camera.uniqueID,
      preset: preset.name,
      requestedQuality: settings.quality, size: choice.size,
      movieSize: settings.movieSize.map { movieSize($0, camera: choice.size) } ?? choice.size,
      requestedSize: settings.requestedSize, requestedMovieSize: settings.movieSize,
      frameRate: choice.frameRate, sourceFormat: choice.format)
    let burned = { (target: HVTOverlayTargets, prefix: String) in
      settings.overlayTargets.contains(target)
        ? settings.preview.overlays.elements(prefix: prefix, frame: choice.size) : []
    }
    let recording = try recordingChain(
      preset: preset, configuration: configuration, intraOnly: settings.quality.isIntraOnly,
      encoding: settings.encoding, overlays: burned(.movies, "movie"))
    let preview = try previewChain(preset: preset, settings: settings.preview, configuration: configuration)
    var model = HVTPipelineModel(
      source: source,
      preview: preview.chain, previewControls: preview.controls,
      photoEncoder: [HVTElementDescription("videoconvert", name: "photo-convert")] + burned(.photos, "photo") + [
        try resolve(preset.photoEncoder, "photo.encoder").named(photoEncoderName)
      ],
      recording: recording,
      configuration: configuration, movieExtension: preset.movieExtension, photoExtension: preset.photoExtension,
      flashNode: camera.hasFlash && !camera.isSimulated ? camera.path : nil,
      pipeWireRemote: preset.source == nil ? camera.pipeWireRemote : nil)
    switch settings.audio {
    case .off:
      break
    case .unavailable(let reason):
      model.audioUnavailableReason = reason
    case .from(let microphone):
      switch audioChains(microphone: microphone, encoders: preset.audioEncoder, muxer: model.movieMuxer) {
      case .success(let audio): model.audio = audio
      case .failure(let missing): model.audioUnavailableReason = missing.reason
      }
    }
    return model
  }

  /// A copy whose preview is built from `settings`, its window sink (if it shows one) `windowSink` when
  /// given; the rest of the pipeline is unchanged.
  func showingPreview(_ settings: PreviewSettings, preset: HVTPreset, windowSink: HVTElementDescription? = nil)
    throws -> HVTPipelineModel
  {
    var model = self
    (model.preview, model.previewControls) = try Self.previewChain(
      preset: preset, settings: settings, configuration: configuration, windowSink: windowSink)
    return model
  }

  /// The camera's source (or the preset's), its caps, and `jpegdec` for MJPEG. The simulated camera makes
  /// MJPEG itself, with `jpegenc` behind its raw output, so the decoding path runs as with a real camera.
  /// The caps are always fixed caps the device offers, which is also what makes `pipewiresrc` negotiate
  /// (with nothing after it that accepts fewer than ANY caps it stalls in PAUSED on PipeWire 0.3.65).
  static func sourceChain(camera: HVTCameraDeviceInfo, choice: HVTCapsChoice, preset: HVTPreset)
    -> [HVTElementDescription]
  {
    var chain = [streaming(preset.source ?? camera.sourceElement).named(sourceName)]
    if choice.isMJPEG && camera.isSimulated && preset.source == nil {
      let raw = HVTCapsChoice(size: choice.size, frameRate: choice.frameRate, format: "I420")
      chain += [.capsFilter(raw.caps, name: "camera-raw-caps"), HVTElementDescription("jpegenc", name: "camera-jpeg")]
    }
    chain.append(.capsFilter(choice.caps, name: "camera-caps"))
    if choice.isMJPEG {
      chain.append(HVTElementDescription("jpegdec", name: "camera-decoder"))
    }
    return chain
  }

  /// A source element as the engine runs it. `pipewiresrc` gets `do-timestamp=true`: PipeWire 0.3.65's
  /// buffers carry no timestamps unless the provider adds them (a virtual camera's do not, and the muxer
  /// refuses them: "Buffer has no PTS"); and `always-copy=true`: its buffers come from the small pool the
  /// provider shares, which a tee holding frames (the photo tap, the recording queue, the encoder's
  /// look-ahead) would empty, stalling the camera. Other sources are used as they are.
  static func streaming(_ source: HVTElementDescription) -> HVTElementDescription {
    guard source.factory == "pipewiresrc" else { return source }
    return source.setting("do-timestamp", to: "true").setting("always-copy", to: "true")
  }

  /// `queue leaky=downstream ! … ! <sink>`: the preset's sink, unless the controller's preview output says
  /// otherwise, and the default controls it shows. A preview someone looks at goes through its geometry
  /// (the view transform's crop and turn, the front camera's mirror: ``PreviewGeometry``), is converted
  /// for its sink, then gets the overlays and, in a window, the controls: one `overlaycomposition`
  /// (``CameraControls/element``) drawing what `controls` holds; captures go through none of it (unless
  /// the overlays are burned in). A window sink is chosen by opening the display, unless `windowSink`
  /// (the running branch's) is given.
  static func previewChain(
    preset: HVTPreset, settings: PreviewSettings, configuration: HVTCaptureConfiguration,
    windowSink: HVTElementDescription? = nil
  ) throws -> (chain: [HVTElementDescription], controls: ControlsPicture?) {
    let queue = HVTElementDescription(
      "queue", name: "preview-queue", ["leaky": "downstream", "max-size-buffers": "2"])
    let output = settings.output.resolved(
      presetPreview: preset.preview, environment: ProcessInfo.processInfo.environment)
    let size = configuration.size
    let geometry = try PreviewGeometry(
      transform: settings.reviewing ? .identity : settings.transform,
      mirrored: configuration.device == .front && settings.mirrorsFront,
      width: size.width, height: size.height)
    let shownSize = geometry.turnsQuarter ? HVTFrameSize(width: size.height, height: size.width) : size
    let controls = output.hasWindow ? settings.controls.map { ControlsPicture(look: $0, size: shownSize) } : nil
    let overlays = settings.overlays.elements(prefix: "preview", frame: shownSize)
    // Overlays and controls draw after the conversion, into its fresh output: before it, the first of
    // them would copy every frame, which the tee and the photo tap share (a millisecond at 720p).
    let shown =
      [queue] + geometry.elements(width: size.width, height: size.height)
      + [HVTElementDescription("videoconvert", name: "preview-convert")]
      + overlays + blending(overlays) + (controls == nil ? [] : [CameraControls.element])
    let chosen = { (overlayOnly: Bool) in
      try windowSink
        ?? HVTElementDescription(
          WindowSink.choose(environment: ProcessInfo.processInfo.environment, overlayOnly: overlayOnly),
          name: "preview", ["sync": "false"])
    }
    switch output {
    case .automatic, .preset:
      return ([queue, try resolve(preset.preview, "preview").named("preview")], nil)
    case .none:
      return ([queue, HVTElementDescription("fakesink", name: "preview", ["sync": "false"])], nil)
    case .window(let title):
      // The X sinks name their window after the stream's title tag (on Wayland the engine's window
      // takes the title: ``WaylandWindow``).
      let tags = HVTElementDescription(
        "taginject", name: "preview-title", ["tags": "title=\(LaunchQuoting.structureString(title ?? "HVTCamera"))"])
      return (shown + [tags, try chosen(false)], controls)
    case .embedded:
      return (shown + [try chosen(true)], controls)
    case .waylandSurface:
      return (shown + [HVTElementDescription("waylandsink", name: "preview", ["sync": "false"])], nil)
    case .gtk4Paintable:
      guard HVTElementDescription.isInstalled(gtk4PaintableSink) else {
        throw HVTCameraError.noInstalledCandidate(
          slot: "preview (GTK 4 paintable)", candidates: [gtk4PaintableSink],
          hint: "Debian 13 and later: gstreamer1.0-gtk4; Debian 12 packages no GTK 4 sink")
      }
      return (shown + [HVTElementDescription(gtk4PaintableSink, name: "preview", ["sync": "false"])], nil)
    case .frames(let format, _):
      let sink = HVTElementDescription(
        "appsink", name: "preview",
        ["sync": "false", "max-buffers": "1", "drop": "true", "enable-last-sample": "false"])
      return (shown + [.capsFilter("video/x-raw,format=\(format.rawValue)", name: "preview-caps"), sink], nil)
    }
  }

  /// The sink of ``HVTPreviewOutput/gtk4Paintable(handler:)`` (gst-plugins-rs' `gtk4` plugin).
  static let gtk4PaintableSink = "gtk4paintablesink"

  /// What makes the preview's text overlays blend into the frames: a caps filter of plain `video/x-raw`
  /// after them, when there is one. `textoverlay` does not blend when the sink draws overlay compositions
  /// itself (`glimagesink`): it attaches a `GstVideoOverlayCompositionMeta` instead, a new one for each
  /// element, and such a sink draws only the first meta of a frame — of two text overlays it showed one
  /// (gst-plugins-base 1.22 and 1.26, `gstbasetextoverlay.c` and `gstgloverlaycompositor.c`). Caps without
  /// the meta's feature leave them nothing to attach to, so they draw as in captures and on every other
  /// sink; the controls' `overlaycomposition` after the filter attaches its one composition.
  static func blending(_ overlays: [HVTElementDescription]) -> [HVTElementDescription] {
    overlays.contains { $0.factory == "textoverlay" }
      ? [.capsFilter("video/x-raw", name: "preview-overlays-blended")] : []
  }

  /// `queue ! videoconvert ! caps ! <encoder> [! <parser>] ! <muxer>`. The queue holds up to three seconds
  /// so that a slow encoder start never drops frames (``HVTSlowEncoderPolicy/keepEveryFrame``: then the
  /// camera's `tee` waits for it; ``encoderQueue(bounding:_:)`` for the other policy).
  /// `overlays` are drawn into the frames before they are converted for the encoder.
  static func recordingChain(
    preset: HVTPreset, configuration: HVTCaptureConfiguration, intraOnly: Bool,
    encoding: EncoderTuning.Request = .init(), overlays: [HVTElementDescription] = []
  ) throws -> [HVTElementDescription] {
    let encoder = try resolve(preset.movieEncoder, "movie.encoder")
    var chain = [
      HVTElementDescription(
        "queue", name: "recording-queue",
        ["max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "3000000000"])
    ]
    chain += overlays + resizing(configuration.size, to: configuration.movieSize)
    chain.append(HVTElementDescription("videoconvert", name: "recording-convert"))
    if let caps = preset.movieCaps ?? EncoderTuning.inputCaps(for: encoder.factory) {
      chain.append(.capsFilter(caps, name: "recording-caps"))
    }
    chain.append(
      EncoderTuning.tuned(
        encoder, size: configuration.movieSize, frameRate: configuration.frameRate, intraOnly: intraOnly,
        request: encoding
      ).named(movieEncoderName))
    if let parser = preset.movieParser ?? EncoderTuning.parser(for: encoder.factory) {
      chain.append(parser.named(movieParserName))
    }
    chain.append(try resolve(preset.muxer, "movie.muxer").named(muxerName))
    return chain
  }

  /// `chain` (a recording chain, or an encoding that runs all the time) with its queue's limits set to
  /// twice `backlog`'s, for an encoder whose ``RecordingBacklog`` leaves frames out
  /// (``HVTSlowEncoderPolicy/leaveFramesOut``): the policy keeps the queue under its own bound, so that the
  /// queue never fills and the camera's `tee` never waits.
  static func encoderQueue(bounding backlog: RecordingBacklog.Limit, _ chain: [HVTElementDescription])
    -> [HVTElementDescription]
  {
    guard let queue = chain.first, queue.factory == "queue" else { return chain }
    let bounded = HVTElementDescription(
      "queue", name: queue.name,
      [
        "max-size-buffers": "0", "max-size-bytes": String(2 * backlog.bytes),
        "max-size-time": String(2 * backlog.time),
      ])
    return [bounded] + chain.dropFirst()
  }

  /// The size movies get from a camera running at `camera` (for photos of that size): `requested`
  /// when it fits in the camera's frames, else the camera's own size (a movie is never scaled up).
  static func movieSize(_ requested: HVTFrameSize, camera: HVTFrameSize) -> HVTFrameSize {
    requested.width <= camera.width && requested.height <= camera.height ? requested : camera
  }

  /// What turns the camera's frames into a movie of another size: `videocrop` to the movie's aspect ratio
  /// when it differs (the middle of the frame, as phones record 16:9 from a 4:3 sensor; the sides or the
  /// top and bottom cut, by even numbers of pixels), then `videoscale` to its size; nothing when the
  /// sizes are the same.
  static func resizing(_ camera: HVTFrameSize, to movie: HVTFrameSize) -> [HVTElementDescription] {
    guard camera != movie else { return [] }
    var chain: [HVTElementDescription] = []
    // The largest part of the frame with the movie's aspect ratio.
    let (width, height) =
      camera.width * movie.height > camera.height * movie.width
      ? (camera.height * movie.width / movie.height, camera.height)
      : (camera.width, camera.width * movie.height / movie.width)
    // Each side's cut, even (for 4:2:0 formats).
    let (side, end) = ((camera.width - width) / 4 * 2, (camera.height - height) / 4 * 2)
    if side > 0 || end > 0 {
      chain.append(
        HVTElementDescription(
          "videocrop", name: "recording-crop",
          ["left": "\(side)", "right": "\(side)", "top": "\(end)", "bottom": "\(end)"]))
    }
    chain.append(HVTElementDescription("videoscale", name: "recording-scale"))
    chain.append(.capsFilter("video/x-raw,width=\(movie.width),height=\(movie.height)", name: "recording-size"))
    return chain
  }

  /// The first installed candidate of a slot.
  static func resolve(_ slot: HVTElementSlot, _ keyPath: String) throws -> HVTElementDescription {
    guard let element = slot.installed else {
      let factories = slot.candidates.map(\.factory)
      throw HVTCameraError.noInstalledCandidate(
        slot: keyPath, candidates: factories, hint: PluginPackages.installHint(for: factories))
    }
    return element
  }
}

extension HVTElementDescription {
  /// A copy with this element name.
  func named(_ name: String) -> HVTElementDescription {
    var copy = self
    copy.name = name
    return copy
  }
}
