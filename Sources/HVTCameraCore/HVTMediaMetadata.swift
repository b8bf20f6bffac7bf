import Foundation

/// What the engine knows about one capture: when and how it was made, and what came out.
public struct HVTMediaMetadata: Sendable, Hashable {
  /// Wall-clock time of the capture (of the photo's frame, or of the movie's first frame).
  public var captureDate: Date
  /// The UTC offset, in seconds east, of the local time written into the file with ``captureDate``: the
  /// machine's time zone at that moment (`TimeZone.current`).
  public var utcOffset: Int = 0
  /// The location written into the file (``HVTCameraController/location``), or `nil` when none was (no
  /// location, an invalid one, or a container that has no place for it: WebM and Matroska).
  public var location: HVTLocation? = nil
  /// The app's tags written into the file (``HVTCameraController/mediaTags``, empty ones dropped, long
  /// ones cut); empty when none was written.
  public var tags = HVTMediaTags()
  /// The software named in the file (EXIF `Software`, XMP `xmp:CreatorTool`, MP4 `©swr`), or `nil`.
  public var software: String? = nil
  /// The configuration the camera was running with: device, size, frame rate, format.
  public var configuration: HVTCaptureConfiguration
  /// Running time, in seconds, of the photo's frame (or the movie's first frame) on the pipeline clock.
  public var frameTimestamp: Double
  /// Photos: how old the frame was when `takePicture()` was called, in seconds: from 0 up to one frame
  /// interval for the frame of the moment (zero shutter lag); negative when a frame made after the call
  /// was used (the flash fired, or no frame had arrived yet). Photos taken faster than the frame rate
  /// share the frame of their moment. Movies: how old the first frame was when `startVideoCapture()`
  /// attached the recording, which starts with the newest frame at that moment (with a pre-roll, the
  /// seconds of video from before the call: ``HVTCameraController/preRollDuration`` or a little more).
  public var frameAge: Double?
  /// Photos: whether the flash fired.
  public var flashFired: Bool?
  /// Movies: duration in seconds, from the timestamps of the frames written.
  public var duration: Double?
  /// Movies: the number of frames written.
  public var frameCount: Int?
  /// Movies: frames the camera's driver lost while recording, counted from gaps in the frames' sequence
  /// numbers (a V4L2 driver numbers every frame it captures, delivered or not); 0 for the simulated camera.
  public var framesLostByDriver: Int? = nil
  /// Movies: frames the camera delivered that were left out because the encoder could not keep up (the
  /// recording's backlog waiting for it reached two thirds of 256 MiB or 3 s: every other frame, then every
  /// frame while it was full), their neighbours' timestamps untouched, so the movie lasts as long as it was
  /// recorded; 0 when the encoder kept up. ``HVTCameraEvent/recordingFramesDropped(total:elapsed:)`` said so
  /// while it happened.
  public var framesDroppedForEncoder: Int? = nil
  /// The encoder element that made the file, e.g. `"jpegenc"` or `"x264enc"`.
  public var encoder: String
  /// Movies: the muxer, e.g. `"mp4mux"` (fragmented).
  public var muxer: String?
  /// Movies with sound: the audio encoder, e.g. `"voaacenc"`; `nil` for a silent movie.
  public var audioEncoder: String? = nil
  /// Movies with sound: seconds of sound, from the movie's start to the end of its last sound (the
  /// video's ``duration`` unless the microphone failed).
  public var audioDuration: Double? = nil
  /// Movies: how many times the recording was paused (``HVTCameraController/pauseVideoCapture()``).
  public var pauses: Int? = nil
  /// Movies: seconds of the camera's time the pauses left out (not part of ``duration``); a pause still
  /// lasting when the recording stopped is not counted.
  public var pausedDuration: Double? = nil
  /// Movies: why the recording ended.
  public var stopReason: HVTRecordingStopReason?
  /// The size of the file in bytes.
  public var fileSize: Int
  /// Movies: when the first frame entered the movie encoder (its sink pad), on `ContinuousClock`. Minus a
  /// `ContinuousClock.now` taken before `startVideoCapture()`, it is the recording's start latency.
  public var encodingStartedAt: ContinuousClock.Instant? = nil

  /// Each stored property, as a memberwise initializer takes them.
  package init(
    captureDate: Date, utcOffset: Int = 0, location: HVTLocation? = nil, software: String? = nil,
    configuration: HVTCaptureConfiguration, frameTimestamp: Double, frameAge: Double? = nil, flashFired: Bool? = nil,
    duration: Double? = nil, frameCount: Int? = nil, framesLostByDriver: Int? = nil,
    framesDroppedForEncoder: Int? = nil, encoder: String,
    muxer: String? = nil, audioEncoder: String? = nil, audioDuration: Double? = nil, pauses: Int? = nil,
    pausedDuration: Double? = nil, stopReason: HVTRecordingStopReason? = nil, fileSize: Int,
    encodingStartedAt: ContinuousClock.Instant? = nil
  ) {
    self.captureDate = captureDate
    self.utcOffset = utcOffset
    self.location = location
    self.software = software
    self.configuration = configuration
    self.frameTimestamp = frameTimestamp
    self.frameAge = frameAge
    self.flashFired = flashFired
    self.duration = duration
    self.frameCount = frameCount
    self.framesLostByDriver = framesLostByDriver
    self.framesDroppedForEncoder = framesDroppedForEncoder
    self.encoder = encoder
    self.muxer = muxer
    self.audioEncoder = audioEncoder
    self.audioDuration = audioDuration
    self.pauses = pauses
    self.pausedDuration = pausedDuration
    self.stopReason = stopReason
    self.fileSize = fileSize
    self.encodingStartedAt = encodingStartedAt
  }
}

/// The device, size and format a camera is running with: the answer to what was asked for.
public struct HVTCaptureConfiguration: Sendable, Hashable, CustomStringConvertible {
  /// The camera position asked for.
  public var device: HVTCameraDevice
  /// The device's human-readable name, e.g. `"Simulated rear camera"`: a photo's EXIF `Model`.
  public var deviceName: String
  /// Who made the device (``HVTCameraDeviceInfo/manufacturer``): a photo's EXIF `Make`.
  public var deviceManufacturer: String? = nil
  /// The V4L2 device node, e.g. `/dev/video0`; `nil` for the simulated camera.
  public var devicePath: String?
  /// The device's stable ID (``HVTCameraDeviceInfo/uniqueID``), e.g. `v4l2:usb-0000:00:14.0-6`.
  public var deviceID: String?
  /// The name of the preset the pipeline was built from.
  public var preset: String
  /// The quality asked for.
  public var requestedQuality: HVTQualityType
  /// The frame size in use (differs from the request when the device could not deliver it): the
  /// camera's, and a photo's; a movie's own metadata has the movie's (``movieSize``).
  public var size: HVTFrameSize
  /// The size movies are recorded at: ``size``, unless a photo size makes the camera run larger
  /// (``HVTCameraController/photoSize``), when the recording branch crops and scales to it.
  public var movieSize: HVTFrameSize
  /// The size asked for (the quality's, or ``HVTCameraController/videoSize``'s or
  /// ``HVTCameraController/photoSize``'s); `nil` for the largest the camera offers.
  public var requestedSize: HVTFrameSize?
  /// The size asked of movies, when it differs from ``requestedSize`` (a photo size was asked for).
  var requestedMovieSize: HVTFrameSize?
  /// Frames per second in use, as a fraction.
  public var frameRate: HVTFrameRate
  /// The format the device delivers: a raw format such as `"I420"` or `"YUY2"`, or `"MJPEG"`.
  public var sourceFormat: String

  /// The configuration as a movie's metadata says it: ``size`` is the movie's.
  package var ofMovies: HVTCaptureConfiguration {
    var configuration = self
    configuration.size = movieSize
    configuration.requestedSize = requestedMovieSize ?? requestedSize
    return configuration
  }

  /// Whether the size in use differs from the size asked for (``requestedSize``).
  public var qualityFellBack: Bool {
    requestedSize.map { $0 != size } ?? false
  }

  /// `rear 1280x720@30/1 I420 (Simulated rear camera), preset default`.
  public var description: String {
    "\(device.rawValue) \(size)@\(frameRate) \(sourceFormat) (\(deviceName)), preset \(preset)"
  }

  /// Each stored property, as a memberwise initializer takes them.
  package init(
    device: HVTCameraDevice, deviceName: String, deviceManufacturer: String? = nil, devicePath: String? = nil,
    deviceID: String? = nil, preset: String, requestedQuality: HVTQualityType, size: HVTFrameSize,
    movieSize: HVTFrameSize, requestedSize: HVTFrameSize? = nil, requestedMovieSize: HVTFrameSize? = nil,
    frameRate: HVTFrameRate, sourceFormat: String
  ) {
    self.device = device
    self.deviceName = deviceName
    self.deviceManufacturer = deviceManufacturer
    self.devicePath = devicePath
    self.deviceID = deviceID
    self.preset = preset
    self.requestedQuality = requestedQuality
    self.size = size
    self.movieSize = movieSize
    self.requestedSize = requestedSize
    self.requestedMovieSize = requestedMovieSize
    self.frameRate = frameRate
    self.sourceFormat = sourceFormat
  }
}

/// A frame rate as a fraction of frames per second.
public struct HVTFrameRate: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Frames…
  public var numerator: Int
  /// …per this many seconds.
  public var denominator: Int

  /// Creates a frame rate; `HVTFrameRate(30)` is 30 frames per second.
  public init(_ numerator: Int, _ denominator: Int = 1) {
    self.numerator = numerator
    self.denominator = max(1, denominator)
  }

  /// Frames per second as a number.
  public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

  /// Orders frame rates by value.
  public static func < (lhs: HVTFrameRate, rhs: HVTFrameRate) -> Bool {
    lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
  }

  /// `30/1`, as in caps.
  public var description: String { "\(numerator)/\(denominator)" }
}

/// Why a recording ended.
public enum HVTRecordingStopReason: String, Sendable, Hashable, CustomStringConvertible {
  /// `stopVideoCapture()` was called.
  case requested
  /// `videoMaximumDuration` was reached.
  case maximumDurationReached
  /// The camera was dismissed, or reconfigured to a new device, quality or mode.
  case cameraStopped
  /// The pipeline failed; the file holds what was captured until then.
  case error

  /// What stopped it, in words: `stopped`, `maximum duration reached`, `camera stopped`, `error`.
  public var description: String {
    switch self {
    case .requested: "stopped"
    case .maximumDurationReached: "maximum duration reached"
    case .cameraStopped: "camera stopped"
    case .error: "error"
    }
  }
}
