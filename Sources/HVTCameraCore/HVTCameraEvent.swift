import Foundation

/// Something that happened in the camera, relayed from GStreamer's bus and the capture branches.
/// Delivered to ``HVTCameraControllerDelegate/cameraController(_:didReceive:)`` and on
/// ``HVTCameraController/events``.
public enum HVTCameraEvent: Sendable {
  /// The camera pipeline changed state (`GST_MESSAGE_STATE_CHANGED` of the pipeline itself).
  case stateChanged(from: HVTPipelineState, to: HVTPipelineState)
  /// The camera started (or restarted after a change of device or quality) with this configuration.
  case configured(HVTCaptureConfiguration)
  /// The first frame since the camera (re)started reached the preview sink, at `at` on `ContinuousClock`
  /// (taken on the streaming thread as the frame arrived; the event itself arrives a little later).
  /// `at` minus a `ContinuousClock.now` taken before `present()` is the camera's start-up time. It follows
  /// ``configured(_:)``: whoever receives it finds the camera's configuration on the controller, though
  /// the first frame may have come before the pipeline reported PLAYING.
  case previewStarted(at: ContinuousClock.Instant)
  /// The preview of a presented camera now goes to this output (after ``HVTCameraController/previewOutput``
  /// or ``HVTCameraController/mirrorsFrontPreview`` changed): the new branch is attached to the tee and
  /// the old one is being removed; the source never stopped.
  case previewChanged(HVTPreviewOutput)
  /// A key or mouse action in the preview's window, with ``HVTCameraController/showsCameraControls``
  /// off: the app's own controls act on it (`GstNavigation`, in the pixels of the shown picture).
  case navigation(HVTNavigationEvent)
  /// The user cancelled: ``HVTCameraController/cancel()``, the Cancel button or Escape. The delegate's
  /// `cameraControllerDidCancel` follows.
  case cancelled
  /// The default controls show a photo or movie for review (Retake, or Use Photo or Use Video); it is
  /// delivered only when used.
  case reviewStarted(url: URL)
  /// The review screen closed: the photo or movie was used (and delivered) or discarded (Retake, Cancel,
  /// a stop).
  case reviewEnded(used: Bool)
  /// ``HVTCameraController/isReadyForCapture`` changed: `true` when the camera delivers frames and no
  /// `takePicture()` photo is in flight (camerabin's `ready-for-capture`).
  case readyForCapture(Bool)
  /// An element posted a warning (`GST_MESSAGE_WARNING`); capture goes on.
  case warning(HVTGStreamerMessage)
  /// An element posted an informational message (`GST_MESSAGE_INFO`).
  case info(HVTGStreamerMessage)
  /// The first frame of a recording reached the encoder; the movie is being written to `url` (which
  /// is renamed to its final name when the recording is finalized).
  case recordingStarted(url: URL)
  /// Seconds recorded so far and the limit (`videoMaximumDuration`), about once per second.
  case recordingProgress(elapsed: Double, limit: Double)
  /// The recording in progress paused (``HVTCameraController/pauseVideoCapture()``), `elapsed` seconds
  /// into the movie: the frames and sound from here are left out until it resumes.
  case recordingPaused(elapsed: Double)
  /// The paused recording goes on from `elapsed` seconds into the movie, after `pausedFor` seconds of
  /// the camera's time left out; the movie's timestamps continue with no gap.
  case recordingResumed(elapsed: Double, pausedFor: Double)
  /// The encoder cannot keep up with the camera: frames of the recording in progress are being left out
  /// (every other one while its backlog is large, every one while it is full), `total` so far, the latest
  /// `elapsed` seconds into the movie. The camera, its preview and photos keep their rate, and the movie's
  /// timestamps stay true: it plays as long as it was recorded, at a lower frame rate there. Sent for the
  /// first frame left out, then at most once a second while it goes on; the movie's
  /// ``HVTMediaMetadata/framesDroppedForEncoder`` has the final count.
  case recordingFramesDropped(total: Int, elapsed: Double)
  /// The recording branch received its last frame and is being finalized.
  case recordingStopped(elapsed: Double, reason: HVTRecordingStopReason)
  /// The pre-roll (``HVTCameraController/preRollDuration``) holds its duration for the first time since
  /// the camera started: a movie started from now on begins that long before it was asked for.
  case preRollFilled(HVTPreRollFill)
  /// The movie being recorded has no sound, or no more sound, though ``HVTCameraController/capturesAudio``
  /// asks for it: the reason says why (no microphone, no audio encoder installed, the microphone could
  /// not be opened, or it failed while recording, with GStreamer's message). The video goes on.
  case audioUnavailable(reason: String)
  /// A camera was plugged in while the controller was presented (`GST_MESSAGE_DEVICE_ADDED`).
  case cameraConnected(name: String, path: String?)
  /// A camera was unplugged while the controller was presented (`GST_MESSAGE_DEVICE_REMOVED`). When it is
  /// the camera in use, a recording is finalized and delivered, the error
  /// ``HVTCameraError/cameraDisconnected(name:path:)`` follows and the camera stops.
  case cameraDisconnected(name: String, path: String?)
  /// The running camera delivered no frame for `seconds` (four frame intervals, at least half a second)
  /// without reporting an error: a frozen webcam, a driver that drops every buffer.
  case cameraStalled(seconds: Double)
  /// Frames flow again, `after` seconds without one: by themselves, or once the camera was reopened.
  case cameraRecovered(after: Double)
  /// A camera is starting and the control values kept for it (``HVTCameraController/cameraSettingsStore``)
  /// were set again, before its first frame: those `applied`, and those that `failed` with the reason (a
  /// control it no longer has, a value it refuses). Not sent when nothing is kept for the camera.
  case cameraControlsApplied(applied: [String: Int64], failed: [String: String])
  /// The library window (``HVTCameraController/sourceType`` a library) shows, with `items` photos and movies.
  case libraryShown(items: Int)
  /// The library window's selection moved to `item`, at `index` (from 0, newest first).
  case librarySelectionChanged(index: Int, item: HVTAlbumItem)
  /// A stream (``HVTCameraController/startStreaming(to:encoding:)``) runs: its branch is linked and its sink
  /// started (an RTSP server listens, an SRT caller or RTMP sink is connected). `url` is where to watch
  /// it or what it reaches, e.g. `rtsp://127.0.0.1:8554/cam` with the port an RTSP server took.
  case streamStarted(HVTStreamTarget, url: String)
  /// A stream lost its server or could not reach it (`reason`, with any secret of the target's masked).
  /// The camera, the preview and any recording go on; a push target (``HVTStreamTarget/reconnects``)
  /// that ran is tried again: `retry` says which try comes next and when (``HVTStreamBackoff``), until
  /// the stream runs again or is stopped; `nil`: the stream has ended.
  case streamDisconnected(HVTStreamTarget, reason: String, retry: HVTStreamRetry?)
  /// A push target's stream runs again — data reaches its server: `rtmp2sink` published, `rtspclientsink`
  /// records, the SRT caller connected — after `attempts` tries.
  case streamReconnected(HVTStreamTarget, attempts: Int)
  /// A stream ended: ``HVTCameraController/stopStreaming(_:)``, or the camera was dismissed.
  case streamStopped(HVTStreamTarget)
  /// The encoder of the streams of this encoding cannot keep up with the camera
  /// (``HVTCameraController/slowEncoderPolicy`` ``HVTSlowEncoderPolicy/leaveFramesOut``): frames are left
  /// out of those streams (every other one while its backlog is large, every one while it is full), and of
  /// a movie recorded on the same encoder; `total` since the encoder started. The camera, its preview and
  /// photos keep their rate, and the streams' timestamps stay true. Sent for the first frame left out,
  /// then at most once a second while it goes on.
  case streamFramesDropped(HVTStreamEncoding, total: Int)
  /// A stream's network could not take its frames as fast as they came: the 2 s its branch's queue
  /// holds (`queue leaky=upstream`) were full, and frames were left out from the first it had no room
  /// for up to the next key frame, so that what the viewer gets still decodes
  /// (<doc:Streaming#One-encoder>). `framesLeftOut` counts those since the stream (or its latest try)
  /// started. Sent each time the network falls behind, not for each frame, and only once the stream has
  /// run (data reached its server): frames held back while a try waits for its server are not reported.
  /// The camera, the preview, a recording and the other streams go on.
  case streamFellBehind(HVTStreamTarget, framesLeftOut: Int)
  /// A call had no effect, and `reason` says why: `takePicture()` while a photo is in flight (until the
  /// delegate has received it), `stopVideoCapture()` with nothing recording. The same line goes to the
  /// `hvtcamera` debug category (`GST_DEBUG=hvtcamera:4`).
  case callIgnored(call: String, reason: String)
  /// The whole pipeline reached end-of-stream (`GST_MESSAGE_EOS`).
  case endOfStream
  /// An error, also delivered to ``HVTCameraControllerDelegate/cameraController(_:didFailWithError:)``.
  case error(HVTCameraError)
}

/// The state of the camera's pipeline (`GstState`).
public enum HVTPipelineState: String, Sendable, Hashable {
  /// No resources held.
  case null
  /// Resources allocated (device opened), no data.
  case ready
  /// Prerolled; a live camera produces nothing in this state.
  case paused
  /// Frames flow.
  case playing
}

/// What GStreamer said in an error, warning or info message.
public struct HVTGStreamerMessage: Sendable, Hashable, CustomStringConvertible {
  /// The `GError` domain, e.g. `"gst-stream-error-quark"`.
  public var domain: String
  /// The `GError` code within the domain.
  public var code: Int
  /// GStreamer's message.
  public var message: String
  /// GStreamer's debug string (source file, function, details), when given.
  public var debug: String?
  /// The path of the element that posted it, e.g. `/GstPipeline:hvtcamera/GstIdentity:fault`.
  public var element: String

  /// `message (element)`, then the debug string.
  public var description: String {
    "\(message) (\(element))" + (debug.map { "\n\($0)" } ?? "")
  }
}

extension HVTCameraEvent: CustomStringConvertible {
  /// One line a person reads, e.g. `state changed: ready → playing`, `recording progress: 3.00 of 600 s`,
  /// `warning: Can't record audio fast enough (/GstPipeline:hvtcamera1/GstPulseSrc:microphone)`.
  public var description: String {
    switch self {
    case .stateChanged(let from, let to): "state changed: \(from) → \(to)"
    case .configured(let configuration): "configured: \(configuration)"
    case .previewStarted: "preview started"
    case .previewChanged(let output): "preview changed: \(output)"
    case .navigation(let event): "navigation: \(event)"
    case .cancelled: "cancelled"
    case .reviewStarted(let url): "review started: \(url.path)"
    case .reviewEnded(let used): used ? "review ended: used" : "review ended: discarded"
    case .readyForCapture(let ready): ready ? "ready for capture" : "not ready for capture"
    case .warning(let message): "warning: \(message)"
    case .info(let message): "info: \(message)"
    case .recordingStarted(let url): "recording started: \(url.path)"
    case .recordingProgress(let elapsed, let limit):
      "recording progress: \(Self.seconds(elapsed)) of \(Self.seconds(limit)) s"
    case .recordingPaused(let elapsed): "recording paused at \(Self.seconds(elapsed)) s"
    case .recordingResumed(let elapsed, let pausedFor):
      "recording resumed at \(Self.seconds(elapsed)) s after \(Self.seconds(pausedFor)) s"
    case .recordingFramesDropped(let total, let elapsed):
      "recording frames dropped: \(total) so far, at \(Self.seconds(elapsed)) s (the encoder cannot keep up)"
    case .recordingStopped(let elapsed, let reason): "recording stopped at \(Self.seconds(elapsed)) s: \(reason)"
    case .preRollFilled(let fill): "pre-roll filled: \(fill)"
    case .audioUnavailable(let reason): "no sound: \(reason)"
    case .cameraConnected(let name, let path): "camera connected: \(name)" + (path.map { " (\($0))" } ?? "")
    case .cameraDisconnected(let name, let path): "camera disconnected: \(name)" + (path.map { " (\($0))" } ?? "")
    case .cameraStalled(let seconds): "camera stalled: no frame for \(Self.seconds(seconds)) s"
    case .cameraRecovered(let after): "camera recovered after \(Self.seconds(after)) s"
    case .cameraControlsApplied(let applied, let failed):
      "camera controls applied: "
        + (applied.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        + failed.sorted { $0.key < $1.key }.map { "\($0.key) failed (\($0.value))" }).joined(separator: ", ")
    case .libraryShown(let items): "library shown: \(items) items"
    case .librarySelectionChanged(let index, let item): "library selection: \(index + 1), \(item.url.path)"
    case .streamStarted(let target, let url): "stream started: \(target) at \(url)"
    case .streamDisconnected(let target, let reason, let retry):
      "stream disconnected: \(target): \(reason)"
        + (retry.map { "; trying again in \(Self.seconds($0.delay)) s (try \($0.attempt))" } ?? "")
    case .streamReconnected(let target, let attempts): "stream reconnected: \(target) after \(attempts) tries"
    case .streamStopped(let target): "stream stopped: \(target)"
    case .streamFramesDropped(let encoding, let total):
      "stream frames dropped: \(total) so far, encoded as \(encoding) (the encoder cannot keep up)"
    case .streamFellBehind(let target, let framesLeftOut):
      "stream fell behind: \(target); frames left out so far: \(framesLeftOut) (the network cannot keep up)"
    case .callIgnored(let call, let reason): "\(call) had no effect: \(reason)"
    case .endOfStream: "end of stream"
    case .error(let error): "error: \(error)"
    }
  }

  /// Seconds with two decimals.
  private static func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
}

extension HVTPipelineState: CustomStringConvertible {
  /// `null`, `ready`, `paused` or `playing`, as GStreamer names the states.
  public var description: String { rawValue }
}
