import Foundation

extension HVTCameraController {
  /// The media types the user may capture (default `[.image]`). Set with ``setMediaTypes(_:)``.
  public var mediaTypes: [HVTMediaType] { read(\.settings.mediaTypes) }

  /// Sets the media types, checked against the current ``sourceType``, as UIKit checks them. Throws for an
  /// empty list; for `.camera`, when the source has no usable camera (the camera's own error, e.g.
  /// GStreamer's when the device does not open), or when none of them can be captured from it
  /// (``availableMediaTypes(for:source:)``, ``HVTCameraError/mediaTypesUnavailable(requested:available:)``).
  /// A library offers both types, with or without a camera. The capture mode follows: without `.image` it becomes
  /// `.video` (the movie camera), without `.movie` it becomes `.photo`; a recording in progress is then
  /// finalized and delivered. Without `.movie`, `startVideoCapture()` returns false; without `.image`,
  /// `takePicture()` reports ``HVTCameraError/mediaTypeNotEnabled(_:)``.
  public func setMediaTypes(_ types: [HVTMediaType]) throws {
    guard !types.isEmpty else { throw HVTCameraError.emptyMediaTypes }
    let available: [HVTMediaType]
    if read(\.settings.sourceType) == .camera {
      guard let offered = Self.availableMediaTypes(for: .camera, source: source) else {
        throw Self.unavailability(of: source)
      }
      available = offered
    } else {
      available = [.image, .movie]
    }
    try Self.check(types, offered: available)
    send(.setMediaTypes(types))
  }

  /// Throws ``HVTCameraError/mediaTypesUnavailable(requested:available:)`` when none of `types` is
  /// `offered`.
  static func check(_ types: [HVTMediaType], offered: [HVTMediaType]) throws(HVTCameraError) {
    guard types.contains(where: offered.contains) else {
      throw .mediaTypesUnavailable(requested: types, available: offered)
    }
  }

  /// The size of photos and movies (default `.type1920x1080`). Changing it while presented restarts the
  /// camera with the new size (a recording in progress is finalized and delivered first); the new
  /// ``configuration`` is announced with ``HVTCameraEvent/configured(_:)``.
  public var videoQuality: QualityType {
    get { read(\.settings.videoQuality) }
    set { change(\.videoQuality, to: newValue, then: .restart) }
  }

  /// A movie size beyond ``videoQuality``'s list (any width×height, or the camera's largest), or `nil`
  /// (the default) for ``videoQuality``'s. It takes the quality's place for the size; the quality's
  /// encoding (the iFrame qualities' key frames) still applies. Changing it while presented restarts the
  /// camera.
  public var videoSize: HVTCaptureSize? {
    get { read(\.settings.videoSize) }
    set { change(\.videoSize, to: newValue, then: .restart) }
  }

  /// The size of photos, when it differs from the movies' (`nil`, the default: photos at the movie size)
  /// — photos at the sensor's full size (`.largest`) while movies are 1920x1080, as phones take them.
  /// The camera then runs at the photo size: photos are its whole frames, and the recording branch crops
  /// its frames to the movie's aspect ratio (`videocrop`, the middle of the frame) and scales them to the movie size
  /// (`videoscale`) before the encoder; a movie larger than the camera's frames is recorded at their
  /// size. A camera that gives the photo size only at a lower frame rate runs at that rate, and so do its
  /// movies. Each capture's metadata says its own size. Changing it while presented restarts the camera.
  public var photoSize: HVTCaptureSize? {
    get { read(\.settings.photoSize) }
    set { change(\.photoSize, to: newValue, then: .restart) }
  }

  /// The longest a recording may last, in seconds (default 600). The recording stops by itself when a
  /// frame's timestamp reaches it, so the movie lasts exactly this long. Values are clamped to
  /// ``HVTCaptureLimits/recordingDuration`` (one frame interval at 30 fps up to 24 hours); NaN is ignored.
  /// It is also the longest an edited movie lasts: the review screen's trim handles stop this far apart
  /// (``allowsEditing``), and ``trimMovie(_:start:end:precision:)`` cuts no longer.
  public var videoMaximumDuration: Double {
    get { read(\.settings.videoMaximumDuration) }
    set { change(\.videoMaximumDuration, to: newValue, within: HVTCaptureLimits.recordingDuration) }
  }

  /// The movie encoder's target bit rate in bits per second, or `nil` (the default) for the preset's,
  /// else the engine's (about 0.1 bit per pixel and frame, at least 500 kbit/s). It overrides the
  /// preset's: the encoder's own property is set (`x264enc bitrate` in kbit/s, `vp8enc target-bitrate` in
  /// bit/s, …, with the rate control that holds it where the encoder needs one). Clamped to
  /// ``HVTCaptureLimits/videoBitRate``. The encoder is part of the camera's pipeline, so changing it
  /// while presented restarts the camera (a recording in progress is finalized and delivered first).
  public var videoBitRate: Int? {
    get { read(\.settings.encoding.bitRate) }
    set {
      change(
        \.encoding.bitRate, to: newValue.map { HVTCaptureLimits.clamp($0, to: HVTCaptureLimits.videoBitRate) },
        then: .restart)
    }
  }

  /// The longest a movie goes from one key frame to the next, in seconds, or `nil` (the default) for the
  /// preset's, else one second. Set on the encoder as a number of frames at the camera's rate
  /// (`x264enc key-int-max`, `vp8enc keyframe-max-dist`, …), which encoders take as a maximum: x264's
  /// scene-cut detection may place one earlier. The intra-only qualities keep every frame a key frame.
  /// Clamped to ``HVTCaptureLimits/keyFrameInterval``; NaN is ignored. Changing it while presented
  /// restarts the camera, as ``videoBitRate`` does.
  public var videoKeyFrameInterval: Double? {
    get { read(\.settings.encoding.keyFrameInterval) }
    set {
      if let value = newValue, value.isNaN { return }
      change(\.encoding.keyFrameInterval, to: newValue.map(HVTCaptureLimits.keyFrameInterval.clamp), then: .restart)
    }
  }

  /// Whether movies record sound (default true): from the simulated microphone (a live 440 Hz tone,
  /// `audiotestsrc`) with the simulated camera, else from the default microphone (`autoaudiosrc`) when
  /// PulseAudio's or ALSA's GStreamer device provider lists one (an `Audio/Source` device that is not a
  /// monitor of an output; PipeWire desktops answer through `pipewire-pulse`), or from the preset's
  /// `audio.source`. Encoded as AAC in MP4 (`avenc_aac`, `voaacenc`, `fdkaacenc`),
  /// Opus or Vorbis in WebM and Matroska, or with the preset's `audio.encoder`. Without a microphone or
  /// an encoder, movies are silent and ``HVTCameraEvent/audioUnavailable(reason:)`` says why when a
  /// recording starts. Changing it while presented restarts the camera, as ``videoBitRate`` does.
  public var capturesAudio: Bool {
    get { read(\.settings.capturesAudio) }
    set { change(\.capturesAudio, to: newValue, then: .restart) }
  }

  /// The longer side, in pixels, of the thumbnail delivered with each photo and movie
  /// (``HVTInfoKey/thumbnail``; default 320); never more than the frame's. Clamped to
  /// ``HVTCaptureLimits/thumbnailDimension``. Takes effect from the next capture.
  public var thumbnailMaximumDimension: Int {
    get { read(\.settings.thumbnailMaximumDimension) }
    set {
      change(
        \.thumbnailMaximumDimension, to: HVTCaptureLimits.clamp(newValue, to: HVTCaptureLimits.thumbnailDimension),
      )
    }
  }

  /// Where the captures are made, or `nil` (the default) to write no location: written into each photo
  /// (EXIF GPS IFD and XMP `exif:GPS*`) and each MP4 movie (XMP, through `mp4mux`'s `GstTagSetter`), and
  /// mirrored by ``HVTMediaMetadata/location``. The app keeps it current (from GeoClue, a GPS receiver, the
  /// user); an invalid one (``HVTLocation/isValid``) is not written. WebM and Matroska have no place for
  /// it. Takes effect from the next capture.
  public var location: HVTLocation? {
    get { read(\.settings.location) }
    set { change(\.location, to: newValue) }
  }

  /// The app's tags — title, comment, artist, copyright — written into each photo (EXIF and XMP) and each
  /// movie (MP4 and QuickTime items; Matroska's `TITLE`, `COMMENTS`, `ARTIST`, `COPYRIGHT` in WebM and
  /// Matroska), as camerabin's tag setter does; mirrored by ``HVTMediaMetadata/tags``. Each is cut to
  /// ``HVTMediaTags/maximumLength`` bytes. Takes effect from the next capture.
  public var mediaTags: HVTMediaTags {
    get { read(\.settings.mediaTags) }
    set { change(\.mediaTags, to: newValue) }
  }

  /// Which camera to use (default `.rear`). Changing it while presented switches cameras (a recording in
  /// progress is finalized and delivered first).
  public var cameraDevice: CameraDevice {
    get { read(\.settings.cameraDevice) }
    set { change(\.cameraDevice, to: newValue, then: .restart) }
  }

  /// Photo or video (default `.photo`). Switching never stops the camera; switching to `.photo` while
  /// recording finalizes and delivers the movie. A mode whose media type ``mediaTypes`` lacks (`.video`
  /// without `.movie`) is refused: the mode stays, and ``HVTCameraError/mediaTypeNotEnabled(_:)`` is
  /// reported to the delegate and the event stream.
  public var cameraCaptureMode: CameraCaptureMode {
    get { read(\.settings.cameraCaptureMode) }
    set { send(.setCaptureMode(newValue)) }
  }

  /// Flash (photo mode) or torch (video mode) setting (default `.auto`). Only cameras with a flash use
  /// it (see ``isFlashAvailable(for:source:)``).
  public var cameraFlashMode: CameraFlashMode {
    get { read(\.settings.cameraFlashMode) }
    set { change(\.cameraFlashMode, to: newValue, then: .controls) }
  }

  /// Where captures are written (default: a folder of this process's own in the temporary directory).
  /// Created when needed. Names are unique (`IMG_…jpg`, `MOV_…mp4`).
  public var outputDirectory: URL {
    get { read(\.settings.outputDirectory) }
    set { change(\.outputDirectory, to: newValue) }
  }

  /// The pipeline preset (default: the built-in `default`): formats, encoders, muxer, preview sink.
  /// Setting it also sets ``videoQuality`` to the preset's quality; while presented, the camera restarts
  /// with it (a recording in progress is finalized and delivered first).
  public var preset: HVTPreset {
    get { read(\.settings.preset) }
    set {
      send(
        .change(
          .init { settings in
            let changed = settings.preset != newValue || settings.videoQuality != newValue.quality
            settings.preset = newValue
            settings.videoQuality = newValue.quality
            return changed ? .restart : nil
          }))
    }
  }

  /// How long a finishing recording may go without progress — no buffer entering its encoder or reaching
  /// its file sink — before it is given up with ``HVTCameraError/drainStalled(partial:seconds:frames:)``
  /// (default 10 s, clamped to ``HVTCaptureLimits/stallTimeout``). A drain that makes progress is never
  /// cut short, however long it takes: every frame that entered the recording is kept.
  public var drainStallTimeout: Double {
    get { read(\.settings.drainStallTimeout) }
    set { change(\.drainStallTimeout, to: newValue, within: HVTCaptureLimits.stallTimeout) }
  }

  /// What a recording does when its encoder cannot keep up with the camera: leave frames out so that the
  /// camera never waits (``HVTSlowEncoderPolicy/leaveFramesOut``, the default: then
  /// ``HVTCameraEvent/recordingFramesDropped(total:elapsed:)`` and
  /// ``HVTMediaMetadata/framesDroppedForEncoder`` count them), or keep every frame, the camera waiting for
  /// the encoder (``HVTSlowEncoderPolicy/keepEveryFrame``). Read by each recording when it starts, and by
  /// the encoders that run all the time when the camera starts (a change reaches them when it next
  /// restarts): the pre-roll's (``preRollDuration``), whose frames left out a movie counts among its own,
  /// and the streams' (``HVTCameraEvent/streamFramesDropped(_:total:)``).
  public var slowEncoderPolicy: HVTSlowEncoderPolicy {
    get { read(\.settings.slowEncoderPolicy) }
    set { change(\.slowEncoderPolicy, to: newValue) }
  }

  /// How long the camera may take to reach PLAYING after `present()` before the start is given up with
  /// ``HVTCameraError/startTimedOut(seconds:)`` (default 10 s, clamped to ``HVTCaptureLimits/stallTimeout``).
  public var startTimeout: Double {
    get { read(\.settings.startTimeout) }
    set { change(\.startTimeout, to: newValue, within: HVTCaptureLimits.stallTimeout) }
  }

  /// How long a running camera may deliver no frame before it is given up (default 3 s, clamped to
  /// ``HVTCaptureLimits/stallTimeout``). A camera that stops delivering frames without an error (a frozen
  /// webcam) is reported as ``HVTCameraEvent/cameraStalled(seconds:)`` after four frame intervals (at
  /// least half a second; the check runs four times in that span, so the report may come a quarter of it
  /// later); after this long a recording is finalized and delivered,
  /// ``HVTCameraError/cameraStalled(name:seconds:)`` arrives, and the camera is reopened once
  /// (``HVTCameraEvent/cameraRecovered(after:)`` when frames flow again; stalled again, it is stopped).
  public var cameraStallTimeout: Double {
    get { read(\.settings.cameraStallTimeout) }
    set { change(\.cameraStallTimeout, to: newValue, within: HVTCaptureLimits.stallTimeout) }
  }

  /// Where the values set with ``HVTCameraControls`` are kept (default
  /// ``HVTCameraSettingsStore/standard``): each time a V4L2 camera starts, the values kept for it are
  /// applied again (``HVTCameraEvent/cameraControlsApplied(applied:failed:)``).
  public var cameraSettingsStore: HVTCameraSettingsStore {
    get { read(\.settings.cameraSettingsStore) }
    set { change(\.cameraSettingsStore, to: newValue) }
  }

  /// The controls of the camera in use (brightness, exposure, white balance, focus, zoom…; the simulated
  /// camera's brightness, contrast, saturation and zoom), to list, read and set while it runs; values set
  /// are kept in ``cameraSettingsStore``. Throws ``HVTCameraError/notPresented`` before the camera runs
  /// and ``HVTCameraError/controlsUnavailable(camera:reason:)`` for a camera without a V4L2 node (a
  /// PipeWire stream).
  public func cameraControls() throws(HVTCameraError) -> HVTCameraControls {
    guard let configuration = read(\.configuration) else { throw .notPresented }
    guard let controls = cameraControls(for: configuration) else {
      throw .controlsUnavailable(camera: configuration.deviceName, reason: "it has no V4L2 device node")
    }
    return controls
  }

  /// The controls of the camera `configuration` runs, kept in ``cameraSettingsStore``; `nil` for a camera
  /// that is neither a V4L2 node nor simulated.
  func cameraControls(for configuration: HVTCaptureConfiguration) -> HVTCameraControls? {
    let store = read(\.settings.cameraSettingsStore)
    if let id = configuration.deviceID, let simulated = simulatedCameras[id] {
      return HVTCameraControls(simulated: simulated, cameraID: id, store: store)
    }
    return configuration.devicePath.map { path in
      HVTCameraControls(path: path, cameraID: configuration.deviceID ?? "v4l2:\(path)", store: store)
    }
  }

  /// Changes a setting; when it changed, `consequence` follows (a presented camera restarts with it, the
  /// preview or the controls change).
  func change<Value: Equatable & Sendable>(
    _ setting: WritableKeyPath<Settings, Value> & Sendable, to value: Value,
    then consequence: ControllerMachine.SettingsChange.Consequence = .none
  ) {
    send(.change(.set(setting, to: value, then: consequence)))
  }

  /// Changes a number of seconds, clamped to `limits`; NaN is ignored.
  private func change(
    _ setting: WritableKeyPath<Settings, Double> & Sendable, to value: Double, within limits: HVTCaptureLimits.Seconds
  ) {
    guard !value.isNaN else { return }
    change(setting, to: limits.clamp(value))
  }
}
