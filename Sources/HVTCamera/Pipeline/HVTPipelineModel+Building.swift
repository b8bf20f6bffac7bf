extension HVTPipelineModel {
  /// Builds the model for a camera, the caps chosen for it and the capture settings.
  static func build(
    camera: HVTCameraDeviceInfo, choice: HVTCapsChoice, quality: HVTCameraController.QualityType,
    failingAfterFrames: Int?, preview: HVTPreviewOutput
  ) -> HVTPipelineModel {
    var source = [camera.sourceElement, .capsFilter(choice.caps, name: "camera-caps")]
    if choice.isMJPEG {
      source.append(HVTElementDescription("jpegdec", name: "camera-decoder"))
    }
    if let frames = failingAfterFrames {
      source.append(HVTElementDescription("identity", name: "fault", ["error-after": String(frames)]))
    }
    if camera.isSimulated && camera.hasFlash {
      // The simulated flash and torch: brightness is raised while they are lit (passthrough otherwise).
      source.append(HVTElementDescription("videobalance", name: lightName))
    }
    let configuration = HVTCaptureConfiguration(
      device: camera.position, deviceName: camera.name, devicePath: camera.path, requestedQuality: quality,
      size: choice.size, frameRate: choice.frameRate, sourceFormat: choice.format)
    return HVTPipelineModel(
      source: source, preview: preview.elements, photoEncoder: photoEncoderChain(),
      recording: recordingChain(configuration: configuration, intraOnly: quality.isIntraOnly),
      configuration: configuration, movieExtension: "mp4", photoExtension: "jpg")
  }

  /// `videoconvert ! jpegenc quality=90`: any raw format in, baseline JPEG out.
  static func photoEncoderChain() -> [HVTElementDescription] {
    [
      HVTElementDescription("videoconvert", name: "photo-convert"),
      HVTElementDescription("jpegenc", name: photoEncoderName, ["quality": "90"]),
    ]
  }

  /// `queue ! videoconvert ! caps ! x264enc ! h264parse ! mp4mux`, fragmented every 500 ms so that a crash
  /// loses at most half a second.
  ///
  /// The queue holds up to three seconds so that a slow encoder start never drops frames; the encoder is
  /// tuned for live capture (no B-frames, no look-ahead) with a key frame every second (every frame for
  /// the iFrame qualities) and a bit rate of about 0.1 bit per pixel.
  static func recordingChain(configuration: HVTCaptureConfiguration, intraOnly: Bool) -> [HVTElementDescription] {
    let fps = max(1, Int(configuration.frameRate.framesPerSecond.rounded()))
    let pixelsPerSecond = Double(configuration.size.area) * configuration.frameRate.framesPerSecond
    let kilobits = max(500, Int(pixelsPerSecond * (intraOnly ? 0.3 : 0.1) / 1000))
    return [
      HVTElementDescription(
        "queue", name: "recording-queue",
        ["max-size-buffers": "0", "max-size-bytes": "0", "max-size-time": "3000000000"]),
      HVTElementDescription("videoconvert", name: "recording-convert"),
      .capsFilter("video/x-raw,format={I420,NV12}", name: "recording-caps"),
      HVTElementDescription(
        "x264enc", name: movieEncoderName,
        [
          "speed-preset": "superfast", "tune": "zerolatency", "bitrate": String(kilobits),
          "key-int-max": String(intraOnly ? 1 : fps),
        ]),
      HVTElementDescription("h264parse", name: "movie-parser"),
      HVTElementDescription("mp4mux", name: muxerName, ["fragment-duration": "500"]),
    ]
  }
}

/// Where the live preview goes.
public enum HVTPreviewOutput: String, Sendable, Hashable, CaseIterable {
  /// Nowhere (`fakesink`): headless capture, services, tests.
  case none
  /// A window (`autovideosink`), as `gst-launch-1.0` would show it.
  case window

  var elements: [HVTElementDescription] {
    let queue = HVTElementDescription(
      "queue", name: "preview-queue", ["leaky": "downstream", "max-size-buffers": "2"])
    switch self {
    case .none:
      return [queue, HVTElementDescription("fakesink", name: "preview", ["sync": "false"])]
    case .window:
      return [
        queue, HVTElementDescription("videoconvert", name: "preview-convert"),
        HVTElementDescription("autovideosink", name: "preview", ["sync": "false"]),
      ]
    }
  }
}
